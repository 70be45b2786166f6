/**
 * Cloudflare's regex dialect (Rust's `regex` crate in byte mode), as the rest of cfrules sees it. This file
 * is the layer's interface: code outside src/regex imports from here only, so that what lies behind it
 * (the parser in syntax/, the RE2 binding in re2/, the V8 translation in v8/, the prefilter) can change
 * without touching the checker or the evaluator.
 *
 * - The checker asks whether a pattern is valid, with the reference engine's error text, and whether
 *   cfrules can run it: `checkRegex`.
 * - The evaluator runs patterns with a `RegexEngine` it is given (RE2 by default), and uses V8's
 *   linear-engine gate for wildcards: `linearTimeSource`.
 */

export { checkRegex, REGEX_SIZE_LIMIT, type RegexProblem } from './check.js';
export {
  addRegexPlans,
  describeRegex,
  type RegexCacheStats,
  type RegexPlanData,
  regexCacheStats,
  regexPlanData,
  regexPrefilter,
  setRegexCacheCapacity,
} from './compile.js';
export {
  type CompiledRegex,
  javascriptRegexEngine,
  type RegexEngine,
  type RegexMatch,
  re2RegexEngine,
} from './engine.js';
export type { Needle, Prefilter } from './prefilter.js';
export { linearTimeSource } from './v8/linear.js';
export { UnsupportedPattern } from './v8/translate.js';
