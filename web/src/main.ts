import {
  type CompiledZone,
  compile,
  compileZone,
  type Diagnostic,
  ExpressionSyntaxError,
  explain,
  format,
  formatDiagnostic,
  formatRequestProblem,
  PHASES,
  PLANS,
  readSampleRequest,
} from '../../src/index.js';
import { planNames } from '../../src/scheme/profile.js';
import { analyse } from './analysis.js';
import { h, replaceChildren, select } from './dom.js';
import { expressionEditor, profileChanged } from './editor/expression-editor.js';
import { quickFixFor } from './editor/quick-fixes.js';
import { explainTree } from './explain-view.js';
import { DEFAULT_REQUEST, EXAMPLE_ZONE } from './presets.js';
import { regexReady, regexUnavailable } from './regex-loading.js';
import { requestForm } from './request-form.js';
import { type Mode, type PlaygroundState, readFragment, writeFragment } from './state.js';
import { traceTree } from './trace-view.js';
import { scoreThresholds } from './zone-thresholds.js';

// The playground page: the expression editor or the zone file on the left, the sample request and the
// result on the right, every input mirrored into the URL fragment. All of it runs the library in the page.

const DEFAULTS: PlaygroundState = {
  mode: 'expression',
  plan: 'enterprise',
  phase: 'http_request_firewall_custom',
  expression:
    '(http.request.uri.path contains "/admin" or lower(http.user_agent) contains "bot")\nand not ip.src in {192.0.2.0/24}',
  request: JSON.stringify(DEFAULT_REQUEST),
  zone: EXAMPLE_ZONE,
};

const state = readFragment(location.hash, DEFAULTS);

// --- the top bar ---------------------------------------------------------------------------------------
const modeTabs = (['expression', 'zone'] as const).map((mode) =>
  h(
    'button',
    { type: 'button', class: 'tab', 'data-mode': mode, role: 'tab' },
    mode === 'expression' ? 'Expression' : 'Zone',
  ),
);
const planSelect = select(
  { id: 'plan', 'aria-label': 'Plan' },
  PLANS.map((plan) => [plan, planNames[plan]] as const),
  state.plan,
);
const phaseSelect = select(
  { id: 'phase', 'aria-label': 'Phase' },
  PHASES.map((phase) => [phase, phase] as const),
  state.phase,
);
// The plan and phase apply to the expression; a zone file names its own plan, and each rule its phase.
const profileControls = h(
  'div',
  { class: 'controls' },
  h('label', { class: 'control' }, 'Plan ', planSelect),
  h('label', { class: 'control' }, 'Phase ', phaseSelect),
);
const formatButton = h('button', { type: 'button', id: 'format', class: 'button' }, 'Format');
const linkButton = h('button', { type: 'button', id: 'copy-link', class: 'button' }, 'Copy link');
const status = h('span', { class: 'status', role: 'status' });

// --- the left column --------------------------------------------------------------------------------------
const editorHost = h('div', { id: 'expression-editor', class: 'editor' });
const diagnosticsList = h('div', { id: 'diagnostics', class: 'diagnostics', 'aria-live': 'polite' });
const expressionPanel = h(
  'section',
  { class: 'panel expression-panel', 'aria-label': 'Expression' },
  h('div', { class: 'panel-head' }, h('h2', {}, 'Expression'), formatButton),
  editorHost,
  diagnosticsList,
);
const zoneInput = h('textarea', {
  id: 'zone-input',
  class: 'zone-input',
  spellcheck: 'false',
  'aria-label': 'Zone file (JSON)',
});
zoneInput.value = state.zone;
const zoneProblems = h('div', { id: 'zone-problems', class: 'diagnostics' });
const zonePanel = h(
  'section',
  { class: 'panel zone-panel', 'aria-label': 'Zone file' },
  h(
    'div',
    { class: 'panel-head' },
    h('h2', {}, 'Zone file'),
    h('span', { class: 'muted' }, 'as for cfrules simulate -z (JSON)'),
  ),
  zoneInput,
  zoneProblems,
);

// --- the right column -------------------------------------------------------------------------------------
const form = requestForm((json) => {
  state.request = json;
  changed();
});
form.load(state.request);
const resultBody = h('div', { id: 'result', class: 'result-body' });
const resultPanel = h(
  'section',
  { class: 'panel result-panel', 'aria-label': 'Result' },
  h('div', { class: 'panel-head' }, h('h2', {}, 'Result')),
  resultBody,
);

document.body.append(
  h(
    'header',
    { class: 'topbar' },
    h('h1', {}, h('span', { class: 'logo' }, 'cfrules'), ' playground'),
    h('nav', { class: 'tabs', role: 'tablist' }, ...modeTabs),
    profileControls,
    linkButton,
    status,
  ),
  h(
    'main',
    { class: 'layout' },
    h('div', { class: 'column' }, expressionPanel, zonePanel),
    h('div', { class: 'column' }, form.element, resultPanel),
  ),
);

const profile = () => ({ plan: state.plan, phase: state.phase });
const view = expressionEditor({
  parent: editorHost,
  text: state.expression,
  profile,
  analyse: (source) => analyse(source, state.plan, state.phase),
  onChange: (text) => {
    state.expression = text;
    changed();
  },
});

// --- reacting to changes ------------------------------------------------------------------------------------
let timer: ReturnType<typeof setTimeout> | undefined;
let generation = 0;

function changed(): void {
  history.replaceState(null, '', writeFragment(state));
  clearTimeout(timer);
  timer = setTimeout(() => void refresh(), 200);
}

function showMode(): void {
  expressionPanel.hidden = state.mode !== 'expression';
  zonePanel.hidden = state.mode !== 'zone';
  profileControls.hidden = state.mode !== 'expression';
  for (const tab of modeTabs) tab.setAttribute('aria-selected', String(tab.dataset.mode === state.mode));
}

async function refresh(): Promise<void> {
  const current = ++generation;
  try {
    const rendered = state.mode === 'expression' ? await expressionResult() : await zoneResult();
    if (current === generation) replaceChildren(resultBody, ...rendered);
  } catch (error) {
    // The one expected failure is a regex to run without RE2 (a page opened from disk); say so plainly.
    const message = regexUnavailable() ?? `Unexpected error: ${String(error)}`;
    if (current === generation)
      replaceChildren(resultBody, h('div', { class: 'error-box', id: 'result-error' }, message));
  }
}

function diagnosticItem(source: string, diagnostic: Diagnostic): HTMLElement {
  const fix = quickFixFor(source, diagnostic);
  return h(
    'div',
    { class: `diagnostic diagnostic-${diagnostic.severity}`, 'data-code': diagnostic.code },
    h('pre', { class: 'diagnostic-text' }, formatDiagnostic(source, diagnostic)),
    diagnostic.hint && h('div', { class: 'diagnostic-hint' }, `hint: ${diagnostic.hint}`),
    h(
      'div',
      { class: 'diagnostic-foot' },
      h('code', { class: 'diagnostic-code' }, diagnostic.code),
      fix &&
        h(
          'button',
          {
            type: 'button',
            class: 'button small quick-fix',
            onclick: () =>
              view.dispatch({
                changes: { from: diagnostic.span.start, to: diagnostic.span.end, insert: fix.replacement },
              }),
          },
          fix.label,
        ),
    ),
  );
}

/** The sample request as the library reads it, or the problems to show. */
function sampleRequest() {
  let json: unknown;
  try {
    json = JSON.parse(state.request);
  } catch (error) {
    return { ok: false as const, problems: [`the request is not valid JSON: ${(error as Error).message}`] };
  }
  const read = readSampleRequest(json);
  return read.ok ? read : { ok: false as const, problems: read.problems.map(formatRequestProblem) };
}

const problemBox = (title: string, problems: string[]) =>
  h(
    'div',
    { class: 'error-box' },
    h('strong', {}, title),
    h('ul', {}, ...problems.map((problem) => h('li', {}, problem))),
  );

async function expressionResult(): Promise<HTMLElement[]> {
  const source = state.expression;
  const checked = await analyse(source, state.plan, state.phase);
  replaceChildren(
    diagnosticsList,
    ...(checked.diagnostics.length === 0
      ? [h('div', { class: 'diagnostic-ok' }, '✓ Valid for this plan and phase')]
      : checked.diagnostics.map((diagnostic) => diagnosticItem(source, diagnostic))),
  );
  if (!checked.ok || !checked.ast)
    return [h('div', { class: 'verdict verdict-none' }, 'Fix the errors to evaluate the expression.')];
  const request = sampleRequest();
  if (!request.ok) return [problemBox('The sample request has problems', request.problems)];
  const compiled = compile(checked.ast);
  if (!compiled.ok) return compiled.diagnostics.map((diagnostic) => diagnosticItem(source, diagnostic));
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

let zoneCache: { text: string; zone: CompiledZone; thresholds: Map<string, number> } | undefined;

async function zoneResult(): Promise<HTMLElement[]> {
  replaceChildren(zoneProblems);
  let json: unknown;
  try {
    json = JSON.parse(state.zone);
  } catch (error) {
    return [problemBox('The zone file is not valid JSON', [(error as Error).message])];
  }
  if (zoneCache?.text !== state.zone) {
    status.textContent = 'Loading RE2…';
    await regexReady().finally(() => {
      status.textContent = '';
    });
    const compiled = compileZone(json);
    if (!compiled.ok)
      return [
        problemBox(
          'The zone file cannot be simulated',
          compiled.problems.map((p) => `${p.path || '(zone)'}: ${p.message}`),
        ),
      ];
    zoneCache = { text: state.zone, zone: compiled.zone, thresholds: scoreThresholds(json) };
  }
  const request = sampleRequest();
  if (!request.ok) return [problemBox('The sample request has problems', request.problems)];
  return [traceTree(zoneCache.zone.simulate(request.request), zoneCache.thresholds)];
}

// --- controls -------------------------------------------------------------------------------------------------
for (const tab of modeTabs)
  tab.addEventListener('click', () => {
    state.mode = tab.dataset.mode as Mode;
    showMode();
    changed();
  });
const profileSelected = () => {
  state.plan = planSelect.value as PlaygroundState['plan'];
  state.phase = phaseSelect.value as PlaygroundState['phase'];
  view.dispatch({ effects: profileChanged.of(null) });
  changed();
};
planSelect.addEventListener('change', profileSelected);
phaseSelect.addEventListener('change', profileSelected);
zoneInput.addEventListener('input', () => {
  state.zone = zoneInput.value;
  changed();
});
formatButton.addEventListener('click', () => {
  try {
    const formatted = format(state.expression);
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: formatted } });
  } catch (error) {
    status.textContent =
      error instanceof ExpressionSyntaxError ? 'Format: fix the errors first' : String(error);
  }
});
linkButton.addEventListener('click', () => {
  const link = location.href.split('#')[0] + writeFragment(state);
  navigator.clipboard?.writeText(link).then(
    () => {
      status.textContent = 'Link copied';
    },
    () => {
      status.textContent = 'The address bar holds the link';
    },
  );
});
window.addEventListener('hashchange', () => {
  const next = readFragment(location.hash, DEFAULTS);
  if (writeFragment(next) === writeFragment(state)) return;
  Object.assign(state, next);
  planSelect.value = state.plan;
  phaseSelect.value = state.phase;
  zoneInput.value = state.zone;
  form.load(state.request);
  view.dispatch({
    changes: { from: 0, to: view.state.doc.length, insert: state.expression },
    effects: profileChanged.of(null),
  });
  showMode();
  void refresh();
});

showMode();
void refresh();
