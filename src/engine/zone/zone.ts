import type { Filter } from '../../eval/compile.js';
import { layoutFor, RequestContext } from '../../eval/context.js';
import { type SampleRequest, withEdgeDefaults } from '../../request/index.js';
import { cloudflareScheme } from '../../scheme/scheme.js';
import { type RuleMatcher, ruleByRuleMatcher } from '../matcher.js';
import type { RuleName, SimulationResult } from '../outcome.js';
import { compileProgram } from './compile.js';
import type { ZoneProgram } from './program.js';
import { type Matching, RequestRun } from './run.js';
import type {
  CompiledZone,
  CompileZoneOptions,
  CompileZoneResult,
  SimulateOptions,
  ZoneProblem,
} from './types.js';

/** Compiles a zone file (parsed JSON or YAML) once, for many requests. Never throws on bad input. */
export function compileZone(json: unknown, options: CompileZoneOptions = {}): CompileZoneResult {
  const result = compileProgram(json, options);
  if (!result.ok) return result;
  const { program, rules, filters, matcher, warnings } = result.compiled;
  return { ok: true, zone: zoneOf(program, rules, filters, matcher), warnings };
}

function zoneOf(
  program: ZoneProgram,
  rules: readonly RuleName[],
  filters: readonly Filter[],
  matcher: RuleMatcher,
): CompiledZone {
  // Every expression is compiled against Cloudflare's scheme, so one layout serves the whole zone.
  const layout = layoutFor(cloudflareScheme);
  // What a request of the zone has without saying so: the zone's name.
  const zoneDefaults =
    program.zoneName === undefined ? undefined : new Map([['cf.zone.name', program.zoneName]]);
  return {
    rules,
    filters,
    ruleByRule: () => zoneOf(program, rules, filters, ruleByRuleMatcher(filters)),
    simulate(
      request: SampleRequest | RequestContext,
      simulateOptions: SimulateOptions = {},
    ): SimulationResult {
      const tracing = simulateOptions.trace !== false;
      const matching = (context: RequestContext): Matching => {
        // Without a trace, the rules the index rules out need not even be looked at.
        const candidates = tracing ? undefined : matcher.candidates?.(context);
        const marks = candidates?.marks;
        const match = marks
          ? (index: number) => marks[index] === 1 && (filters[index] as Filter).match(context)
          : matcher.forRequest(context);
        return { context, match, ...(candidates ? { candidates } : {}) };
      };
      let sample = request instanceof RequestContext ? sampleOf(request.input) : request;
      let context = request instanceof RequestContext ? request : undefined;
      if (sample && zoneDefaults) {
        const defaulted = withEdgeDefaults(sample, zoneDefaults);
        if (defaulted !== sample) context = undefined;
        sample = defaulted;
      }
      context ??= layout.context(sample as SampleRequest);
      const run = new RequestRun(
        program,
        matching(context),
        sample,
        (changed) => matching(layout.context(changed)),
        tracing,
      );
      return run.run();
    },
  };
}

/** The sample request a context was made from (a context of field values has none). */
function sampleOf(input: RequestContext['input']): SampleRequest | undefined {
  return 'memo' in input && 'edge' in input ? (input as SampleRequest) : undefined;
}

/** A zone file that cannot be simulated, with every problem and its JSON pointer. */
export class ZoneError extends Error {
  constructor(readonly problems: ZoneProblem[]) {
    super(
      `the zone file cannot be simulated:\n${problems.map((problem) => `  ${problem.path || '(zone)'}: ${problem.message}`).join('\n')}`,
    );
    this.name = 'ZoneError';
  }
}

const compiledZones = new WeakMap<object, CompiledZone>();

/**
 * What the zone does to one request. The zone is compiled on first use and kept for as long as the zone
 * object lives; throws ZoneError (and nothing else) when it cannot be compiled.
 */
export function simulate(
  zone: unknown,
  request: SampleRequest | RequestContext,
  options: SimulateOptions = {},
): SimulationResult {
  let compiled = typeof zone === 'object' && zone !== null ? compiledZones.get(zone) : undefined;
  if (!compiled) {
    const result = compileZone(zone);
    if (!result.ok) throw new ZoneError(result.problems);
    compiled = result.zone;
    if (typeof zone === 'object' && zone !== null) compiledZones.set(zone, compiled);
  }
  return compiled.simulate(request, options);
}
