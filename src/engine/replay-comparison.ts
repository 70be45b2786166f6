import type { FinalAction, RuleName, SimulationResult } from './outcome.js';
import { firstSamples, keyOf, plainName, type Sample } from './replay.js';

/**
 * What replaying the same requests through two zones (the one in use, and a changed one) shows: the
 * requests whose outcome — final action, or the rule that decided it — differs, grouped by change, with
 * the first few requests of each (by line), and how many requests ended with each action in either zone.
 * Comparisons of parts of the input (one per worker) merge into the comparison of the whole, whatever the
 * split, as replay tallies do.
 */

/** A request's outcome in one zone: its final action, and the rule that decided it (none for `none`). */
export interface Outcome {
  action: FinalAction;
  decidedBy?: RuleName;
}

export interface OutcomeChange {
  from: Outcome;
  to: Outcome;
  /** Requests whose outcome changed so. */
  requests: number;
  /** The first of them, by line. */
  samples: Sample[];
}

export interface ReplayComparisonJson {
  requests: number;
  /** Requests whose outcome changed: the sum of the changes' counts. */
  changed: number;
  /** Per final action, the requests that ended with it in the old zone and in the new one. */
  actions: Record<string, { old: number; new: number }>;
  /** The changes, the most frequent first (then by their first line). */
  changes: OutcomeChange[];
}

/** Samples kept per change. */
export const SAMPLES_PER_CHANGE = 3;

export class ReplayComparison {
  private requests = 0;
  private readonly actions = new Map<string, { old: number; new: number }>();
  private readonly changes = new Map<string, OutcomeChange>();
  /**
   * Rule identities by RuleName object, to spare building a key per request: a compiled zone hands out
   * the same names for every request (weak, as the previous WAF's simulation makes new ones per request).
   */
  private readonly keys = new WeakMap<RuleName, string>();

  /** Counts one request, `before` its result in the old zone and `after` in the new one. */
  add(before: SimulationResult, after: SimulationResult, line: number, url: string): void {
    this.requests++;
    this.actionCount(before.action).old++;
    this.actionCount(after.action).new++;
    const fromRule = before.decidedBy && this.keyOfName(before.decidedBy);
    const toRule = after.decidedBy && this.keyOfName(after.decidedBy);
    if (before.action === after.action && fromRule === toRule) return;
    const key = changeKey(before.action, fromRule, after.action, toRule);
    const change = this.changes.get(key) ?? this.newChange(key, outcomeOf(before), outcomeOf(after));
    change.requests++;
    if (change.samples.length < SAMPLES_PER_CHANGE) change.samples.push({ line, url });
  }

  merge(other: ReplayComparisonJson): void {
    this.requests += other.requests;
    for (const [action, counts] of Object.entries(other.actions)) {
      const count = this.actionCount(action);
      count.old += counts.old;
      count.new += counts.new;
    }
    for (const { from, to, requests, samples } of other.changes) {
      const key = changeKey(from.action, ruleKeyOf(from), to.action, ruleKeyOf(to));
      const change = this.changes.get(key) ?? this.newChange(key, from, to);
      change.requests += requests;
      change.samples = firstSamples(change.samples, samples, SAMPLES_PER_CHANGE);
    }
  }

  toJSON(): ReplayComparisonJson {
    // Sorted here rather than kept in order: the parts of a split input meet actions and changes in other
    // orders, and the whole must read the same whatever the split.
    const actions = [...this.actions].sort(
      ([a, x], [b, y]) => y.old - x.old || y.new - x.new || a.localeCompare(b),
    );
    const changes = [...this.changes.values()]
      .map((change) => ({ ...change, samples: [...change.samples] }))
      .sort((a, b) => b.requests - a.requests || firstLine(a) - firstLine(b));
    return {
      requests: this.requests,
      changed: changes.reduce((sum, change) => sum + change.requests, 0),
      actions: Object.fromEntries(actions.map(([action, count]) => [action, { ...count }])),
      changes,
    };
  }

  private actionCount(action: string): { old: number; new: number } {
    let count = this.actions.get(action);
    if (!count) {
      count = { old: 0, new: 0 };
      this.actions.set(action, count);
    }
    return count;
  }

  private keyOfName(name: RuleName): string {
    let key = this.keys.get(name);
    if (key === undefined) {
      key = keyOf(name);
      this.keys.set(name, key);
    }
    return key;
  }

  private newChange(key: string, from: Outcome, to: Outcome): OutcomeChange {
    const change: OutcomeChange = { from, to, requests: 0, samples: [] };
    this.changes.set(key, change);
    return change;
  }
}

/** A change's identity: both actions and both deciding rules' identities (JSON, so that no id can blur it). */
const changeKey = (from: string, fromRule: string | undefined, to: string, toRule: string | undefined) =>
  JSON.stringify([from, fromRule ?? null, to, toRule ?? null]);

const ruleKeyOf = (outcome: Outcome) => outcome.decidedBy && keyOf(outcome.decidedBy);

function outcomeOf(result: SimulationResult): Outcome {
  return { action: result.action, ...(result.decidedBy ? { decidedBy: plainName(result.decidedBy) } : {}) };
}

/** Every change has a sample: it was made by a request. */
const firstLine = (change: OutcomeChange) => change.samples[0]?.line ?? 0;
