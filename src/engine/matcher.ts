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
   * For one request, 1 for each filter that may match and 0 for those that cannot (absent: any may);
   * computed anew at each call. The engine, when it builds no trace, passes over the 0s without asking
   * and runs the others' filters itself.
   */
  candidates?(context: RequestContext): Uint8Array;
}

/** Every filter run in full when asked: the reference the indexed program is tested against. */
export function ruleByRuleMatcher(filters: readonly Filter[]): RuleMatcher {
  return {
    forRequest(context) {
      return (index) => (filters[index] as Filter).match(context);
    },
  };
}
