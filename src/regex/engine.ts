import { compileRegex } from './compile.js';
import { translatePattern } from './v8/translate.js';

/**
 * What the evaluator runs patterns with: `matches` and `regex_replace` both compile their pattern once,
 * through a RegexEngine, when a filter is compiled.
 *
 * The engine is an argument, not a process-wide setting: the compiler takes it in its options and hands it
 * to every function call it prepares (src/eval/compile.ts, CompileOptions.regexEngine), so that filters
 * compiled side by side may use different engines and nothing depends on what was set up first. Without
 * one, the compiler uses `re2RegexEngine`, whose state (RE2's WebAssembly heap, the cache of compiled
 * patterns) this layer creates on the first pattern it compiles.
 */

export interface RegexMatch {
  /** Byte offset of the match in the input. */
  index: number;
  /** `[0]` = the whole match, then each capture group (undefined when it did not take part); binary strings. */
  groups: (string | undefined)[];
}

export interface CompiledRegex {
  /** Unanchored search, like the reference engine's is_match; input is a binary string (bytes). */
  test(input: string): boolean;
  /** The first match (leftmost-first), or undefined. */
  exec(input: string): RegexMatch | undefined;
}

export interface RegexEngine {
  /** Compiles a pattern the checker accepted (checkRegex); throws when this engine cannot run it. */
  compile(pattern: string): CompiledRegex;
}

/**
 * RE2 behind a literal prefilter, with V8's RegExp for yes/no searches where V8's linear engine bounds it
 * (./compile.ts): linear time on any input, the reference engine's byte semantics. The default.
 */
export const re2RegexEngine: RegexEngine = { compile: compileRegex };

/**
 * V8's RegExp alone, for the patterns ./v8/translate.ts translates faithfully (byte classes spelled out,
 * flags resolved); others throw UnsupportedPattern. It needs no WebAssembly, but it backtracks: nested
 * quantifiers can take exponential time, so it is for trusted patterns only.
 */
export const javascriptRegexEngine: RegexEngine = {
  compile(pattern) {
    const regex = new RegExp(translatePattern(pattern));
    return {
      test: (input) => regex.test(input),
      exec(input) {
        const match = regex.exec(input);
        return match ? { index: match.index, groups: Array.from(match) } : undefined;
      },
    };
  },
};
