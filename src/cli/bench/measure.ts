import type { CompiledZone } from '../../engine/zone/types.js';
import { layoutFor, type RequestContext } from '../../eval/context.js';
import type { SampleRequest } from '../../request/index.js';
import { cloudflareScheme } from '../../scheme/scheme.js';

/**
 * How `cfrules bench` times a zone: in windows, each of which times the whole zone, the zone rule by rule,
 * and every rule's expression, so that a figure is several measurements made at different moments rather
 * than one (a machine's load comes and goes; one figure per rule made the ranking change between runs).
 */

/** Windows per run: enough for a median and a spread, few enough that each window times every rule. */
export const WINDOWS = 5;
/** Per window: the whole zone, and again rule by rule (five windows: 0.3 s each, as before windows). */
const ZONE_MS = 60;
/** Per window and rule: its expression on its own (five windows: 10 ms per rule). */
const RULE_MS = 2;
/** Of --duration, the share that deriving the requests' fields may take; the windows have the rest. */
const PREPARE_SHARE = 0.5;
/** Of the time left for the windows, the share planned: timing loops and progress take the rest. */
const PLANNED_SHARE = 0.9;

export interface BenchInput {
  zone: CompiledZone;
  requests: readonly SampleRequest[];
  /** Seconds the measurement may take; without it, the windows take their default time. */
  durationSeconds?: number;
  /** Told what is being done, now and then (the progress line on a terminal). */
  progress?: (text: string) => void;
}

export interface BenchMeasurement {
  windowsPlanned: number;
  /** Windows measured in full: fewer than planned when --duration ran out (a window cut short is dropped). */
  windows: number;
  /** Nanoseconds per request of each window: the whole zone as cfrules runs it (the indexed program). */
  zone: number[];
  /** The same, rule by rule. */
  ruleByRule: number[];
  /** `rules[i][w]`: nanoseconds per call of `zone.filters[i]` in window `w`. */
  rules: number[][];
  /** Requests whose fields were derived, on which the rules were timed: fewer when --duration ran out. */
  preparedRequests: number;
  stoppedByDuration: boolean;
  /** How long the measurement took, preparation included. */
  seconds: number;
  /**
   * The results of every timed call, added up: kept in the answer so that V8 cannot find them unused and
   * drop the work being timed.
   */
  checksum: number;
}

export function measureZone(input: BenchInput): BenchMeasurement {
  const { zone, requests, progress } = input;
  const started = performance.now();
  const limit = input.durationSeconds === undefined ? undefined : input.durationSeconds * 1000;
  const deadline = limit === undefined ? Number.POSITIVE_INFINITY : started + limit;
  let checksum = 0;

  // Each rule is timed on contexts whose fields are derived already: the rule's own cost, not the request's.
  const layout = layoutFor(cloudflareScheme);
  const contexts: RequestContext[] = [];
  const prepareUntil = limit === undefined ? Number.POSITIVE_INFINITY : started + limit * PREPARE_SHARE;
  for (const request of requests) {
    if (contexts.length > 0 && performance.now() > prepareUntil) break;
    const context = layout.context(request);
    for (const filter of zone.filters) if (filter.match(context)) checksum++;
    contexts.push(context);
    if (contexts.length % 100 === 0)
      progress?.(`deriving fields: ${count(contexts.length)} of ${count(requests.length)} requests`);
  }

  const byRule = zone.ruleByRule();
  let nextRequest = 0;
  const request = () => requests[nextRequest++ % requests.length] as SampleRequest;
  const zoneCall = () => zone.simulate(request(), { trace: false }).matched.length;
  const byRuleCall = () => byRule.simulate(request(), { trace: false }).matched.length;
  const ruleCalls = zone.filters.map((filter) => {
    let next = 0;
    return () => (filter.match(contexts[next++ % contexts.length] as RequestContext) ? 1 : 0);
  });
  for (let i = 0; i < 20; i++) checksum += zoneCall() + byRuleCall();

  // With --duration, the windows share the time left in the proportions of the default plan.
  const defaultMs = WINDOWS * (2 * ZONE_MS + ruleCalls.length * RULE_MS);
  const scale = limit === undefined ? 1 : ((deadline - performance.now()) * PLANNED_SHARE) / defaultMs;
  const zoneMs = ZONE_MS * Math.max(scale, 0);
  const ruleMs = RULE_MS * Math.max(scale, 0);

  const result: BenchMeasurement = {
    windowsPlanned: WINDOWS,
    windows: 0,
    zone: [],
    ruleByRule: [],
    rules: ruleCalls.map(() => []),
    preparedRequests: contexts.length,
    stoppedByDuration: false,
    seconds: 0,
    checksum: 0,
  };
  windows: for (let w = 0; w < WINDOWS; w++) {
    // The first window is always measured in full: every figure needs one.
    const outOfTime = () => w > 0 && performance.now() > deadline;
    if (outOfTime()) {
      result.stoppedByDuration = true;
      break;
    }
    const zoneNs = timeFor(zoneCall, zoneMs);
    const ruleByRuleNs = timeFor(byRuleCall, zoneMs);
    const rulesNs = new Array<number>(ruleCalls.length);
    // Each window starts at another rule, so that a slow moment does not always fall on the same ones.
    const start = Math.floor((w * ruleCalls.length) / WINDOWS);
    for (let k = 0; k < ruleCalls.length; k++) {
      if (outOfTime()) {
        result.stoppedByDuration = true;
        break windows;
      }
      const i = (start + k) % ruleCalls.length;
      rulesNs[i] = timeFor(ruleCalls[i] as () => number, ruleMs);
      if (k % 25 === 0)
        progress?.(`timing: window ${w + 1} of ${WINDOWS}, rule ${k + 1} of ${ruleCalls.length}`);
    }
    result.zone.push(zoneNs);
    result.ruleByRule.push(ruleByRuleNs);
    for (const [i, ns] of rulesNs.entries()) result.rules[i]?.push(ns);
    result.windows++;
  }
  result.seconds = (performance.now() - started) / 1000;
  result.checksum = checksum + sink;
  return result;
}

/** Results of timed calls, added up (see `checksum`). */
let sink = 0;

/**
 * Nanoseconds per call of `operation`, over about `ms` milliseconds (at least one call): calls in batches
 * that double while they are short, so that a rule of a millisecond is not called twenty times in a 2 ms
 * slice, and a rule of 50 ns is not dominated by reading the clock.
 */
function timeFor(operation: () => number, ms: number): number {
  const budget = BigInt(Math.round(ms * 1e6));
  let calls = 0;
  let batch = 1;
  let total = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0n;
  do {
    for (let i = 0; i < batch; i++) total += operation();
    calls += batch;
    elapsed = process.hrtime.bigint() - start;
    if (elapsed * 16n < budget) batch *= 2;
  } while (elapsed < budget);
  sink += total;
  return Number(elapsed) / calls;
}

const count = (n: number) => n.toLocaleString('en-US');
