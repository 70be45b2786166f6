import type { RuleName, SimulationResult } from './outcome.js';

/**
 * What replaying many requests through a zone adds up to: requests, how many ended with each action, and
 * per rule how often it matched and decided, with the first few requests of each (by line). Tallies of
 * parts of the input (one per worker) merge into the tally of the whole, whatever the split.
 */

export interface Sample {
  line: number;
  url: string;
}

export interface RuleTally {
  id: string;
  ref?: string;
  description?: string;
  ruleset?: string;
  stage: RuleName['stage'];
  matched: number;
  decided: number;
  /** The first matching requests, by line. */
  samples: Sample[];
}

export interface ReplayTallyJson {
  requests: number;
  actions: Record<string, number>;
  rules: RuleTally[];
}

/** Samples kept per rule. */
export const SAMPLES_PER_RULE = 3;

/**
 * A rule's identity across a zone: managed rules are listed once per execute rule, in its ruleset. Two
 * zones' rules with the same identity are the same rule (a replay comparison reads it so).
 */
export const keyOf = (name: Pick<RuleName, 'stage' | 'ruleset' | 'id'>) =>
  `${name.stage}/${name.ruleset ?? ''}/${name.id}`;

/** A rule's name as results' JSON shows it: only its own members, those it has. */
export function plainName(name: RuleName): RuleName {
  return {
    id: name.id,
    ...(name.ref ? { ref: name.ref } : {}),
    ...(name.description ? { description: name.description } : {}),
    ...(name.ruleset ? { ruleset: name.ruleset } : {}),
    stage: name.stage,
  };
}

/** The first `limit` samples of two lists, by line: what one list of the whole input would have kept. */
export function firstSamples(a: readonly Sample[], b: readonly Sample[], limit: number): Sample[] {
  return [...a, ...b].sort((x, y) => x.line - y.line).slice(0, limit);
}

export class ReplayTally {
  requests = 0;
  readonly actions: Record<string, number> = {};
  private readonly rules = new Map<string, RuleTally>();
  /**
   * The same tallies by RuleName object, to spare building a key: a compiled zone hands out the same names
   * for every request (weak, as the previous WAF's simulation makes new ones per request).
   */
  private readonly byName = new WeakMap<RuleName, RuleTally>();

  /** `rules`: the zone's rules, listed (with zero counts) whether they match or not. */
  constructor(rules: readonly RuleName[] = []) {
    for (const rule of rules) this.tallyOf(rule);
  }

  /** Counts one request's result; the request is a sample (its line and URL) of the rules it matched. */
  add(result: SimulationResult, line: number, url: string): void {
    this.requests++;
    this.actions[result.action] = (this.actions[result.action] ?? 0) + 1;
    for (const name of result.matched) {
      const tally = this.tallyOfName(name);
      tally.matched++;
      if (tally.samples.length < SAMPLES_PER_RULE) tally.samples.push({ line, url });
    }
    if (result.decidedBy) this.tallyOfName(result.decidedBy).decided++;
  }

  private tallyOfName(name: RuleName): RuleTally {
    let tally = this.byName.get(name);
    if (!tally) {
      tally = this.tallyOf(name);
      this.byName.set(name, tally);
    }
    return tally;
  }

  merge(other: ReplayTallyJson): void {
    this.requests += other.requests;
    for (const [action, count] of Object.entries(other.actions))
      this.actions[action] = (this.actions[action] ?? 0) + count;
    for (const rule of other.rules) {
      const tally = this.tallyOf(rule);
      tally.matched += rule.matched;
      tally.decided += rule.decided;
      tally.samples = firstSamples(tally.samples, rule.samples, SAMPLES_PER_RULE);
    }
  }

  toJSON(): ReplayTallyJson {
    return { requests: this.requests, actions: { ...this.actions }, rules: [...this.rules.values()] };
  }

  private tallyOf(name: RuleName): RuleTally {
    const key = keyOf(name);
    let tally = this.rules.get(key);
    if (!tally) {
      tally = {
        ...plainName(name),
        matched: 0,
        decided: 0,
        samples: [],
      };
      this.rules.set(key, tally);
    }
    return tally;
  }
}
