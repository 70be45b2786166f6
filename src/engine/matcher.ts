import type { Filter } from '../eval/compile.js';
import type { RequestContext } from '../eval/context.js';

/**
 * Which of a zone's rule expressions match a request. The engine asks in evaluation order and stops when
 * a rule ends the evaluation, so a matcher may answer lazily. Two implementations give identical answers:
 * rule by rule (the reference) and the indexed program of ./program/ (the default, much faster on large
 * zones).
 */
export interface RuleMatcher {
  /** For one request: does filter `index` (its position in the list compiled) match? */
  forRequest(context: RequestContext): (index: number) => boolean;
  /**
   * For one request, the filters that may match (absent: any may), computed anew at each call, and valid
   * until the next (a matcher may reuse its arrays). The engine, when it builds no trace, passes over the
   * others without asking and runs these filters itself.
   */
  candidates?(context: RequestContext): Candidates;
}

/** The filters that may match a request: 1 or 0 per filter, and the indices of the 1s (in no order). */
export interface Candidates {
  readonly marks: Uint8Array;
  /**
   * A zone's filters are mostly ruled out: a thousand-rule zone leaves a few dozen candidates, which the
   * engine visits without passing over the rest.
   */
  readonly indices: readonly number[];
}

/** Every filter run in full when asked: the reference the indexed program is tested against. */
export function ruleByRuleMatcher(filters: readonly Filter[]): RuleMatcher {
  return {
    forRequest(context) {
      return (index) => (filters[index] as Filter).match(context);
    },
  };
}
