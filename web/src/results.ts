import { compile } from '../../src/eval/compile.js';
import { explain } from '../../src/eval/explain.js';
import type { CompiledZone } from '../../src/index.js';
import { formatRequestProblem, readSampleRequest } from '../../src/request/index.js';
import { analyse } from './analysis.js';
import { type ApplyFix, diagnosticItem, showDiagnostics } from './diagnostic-view.js';
import { h } from './dom.js';
import { explainTree } from './explain-view.js';
import { regexReady } from './regex-loading.js';
import type { PlaygroundState } from './state.js';
import { traceTree } from './trace-view.js';
import { loadZoneEngine, type ZoneEngine } from './zone/engine.js';
import { scoreThresholds } from './zone-thresholds.js';

// What the result panel shows for the state: in Expression mode the diagnostics (beside the editor), the
// verdict and the explain tree; in Zone mode the simulation's trace. Problems with the inputs are shown
// as lists, never thrown.

/** The sample request as the library reads it, or the problems to show. */
function sampleRequest(text: string, read: typeof readSampleRequest = readSampleRequest) {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false as const, problems: [`the request is not valid JSON: ${(error as Error).message}`] };
  }
  const result = read(json);
  return result.ok ? result : { ok: false as const, problems: result.problems.map(formatRequestProblem) };
}

const problemBox = (title: string, problems: string[]) =>
  h(
    'div',
    { class: 'error-box' },
    h('strong', {}, title),
    h('ul', {}, ...problems.map((problem) => h('li', {}, problem))),
  );

/** Expression mode: fills `diagnosticsList`, and returns the verdict with its explain tree. */
export async function expressionResult(
  state: PlaygroundState,
  diagnosticsList: HTMLElement,
  applyFix: ApplyFix,
): Promise<HTMLElement[]> {
  const source = state.expression;
  const checked = await analyse(source, state.plan, state.phase);
  showDiagnostics(diagnosticsList, source, checked.diagnostics, applyFix);
  if (!checked.ok || !checked.ast)
    return [h('div', { class: 'verdict verdict-none' }, 'Fix the errors to evaluate the expression.')];
  const request = sampleRequest(state.request);
  if (!request.ok) return [problemBox('The sample request has problems', request.problems)];
  const compiled = compile(checked.ast);
  if (!compiled.ok)
    return compiled.diagnostics.map((diagnostic) => diagnosticItem(source, diagnostic, applyFix));
  const context = compiled.filter.context(request.request);
  const matched = compiled.filter.match(context);
  return [
    h(
      'div',
      { class: `verdict verdict-${matched}`, id: 'verdict' },
      matched ? 'true' : 'false',
      h('span', {}, matched ? ' — the rule matches this request' : ' — the rule does not match this request'),
    ),
    explainTree(explain(source, compiled.filter.ast, context)),
  ];
}

/** The last zone compiled: a zone file is compiled once, for every request tried on it. */
let zoneCache: { text: string; zone: CompiledZone; thresholds: Map<string, number> } | undefined;

/** Zone mode: the simulation's trace; `loading` shows what is being fetched (the engine, RE2). */
export async function zoneResult(
  state: PlaygroundState,
  loading: (what: string | undefined) => void,
): Promise<HTMLElement[]> {
  let json: unknown;
  try {
    json = JSON.parse(state.zone);
  } catch (error) {
    return [problemBox('The zone file is not valid JSON', [(error as Error).message])];
  }
  let engine: ZoneEngine;
  try {
    loading('Loading the zone engine…');
    engine = await loadZoneEngine(document.baseURI);
    loading('Loading RE2…');
    await regexReady(engine.prepareRe2);
  } finally {
    loading(undefined);
  }
  if (zoneCache?.text !== state.zone) {
    const compiled = engine.compileZone(json);
    if (!compiled.ok)
      return [
        problemBox(
          'The zone file cannot be simulated',
          compiled.problems.map((p) => `${p.path || '(zone)'}: ${p.message}`),
        ),
      ];
    zoneCache = { text: state.zone, zone: compiled.zone, thresholds: scoreThresholds(json) };
  }
  // The zone engine's script reads the request itself: its values are of its own copy of the library.
  const request = sampleRequest(state.request, engine.readSampleRequest);
  if (!request.ok) return [problemBox('The sample request has problems', request.problems)];
  const result = zoneCache.zone.simulate(request.request);
  return [
    traceTree(result, { thresholds: zoneCache.thresholds, defaultThreshold: engine.defaultScoreThreshold }),
  ];
}
