import { translatePattern } from './js-regex.js';

/**
 * The regex engine `regex_replace` runs patterns with, replaceable.
 *
 * The evaluator's real engine is RE2-based (src/eval/regex.ts, linear time on any input); it is plugged
 * in with `setRegexEngine`, which must happen before filters are compiled, since `regex_replace` compiles
 * its pattern once when the call is prepared. Until then the default engine translates the pattern into
 * a JavaScript RegExp where that keeps Cloudflare's byte semantics exactly (see js-regex.ts) and throws
 * UnsupportedPattern for the other patterns. The default is a backtracking engine: fine for tests and
 * trusted patterns, not for untrusted ones (nested quantifiers can take exponential time).
 */

export interface RegexMatch {
  /** Offset of the match in the input. */
  index: number;
  /** `[0]` = the whole match, then each capture group (undefined when it did not take part); binary strings. */
  groups: (string | undefined)[];
}

export interface CompiledRegex {
  /** The leftmost-first match in the input (a binary string), or undefined. */
  exec(input: string): RegexMatch | undefined;
}

export interface RegexEngine {
  /** Compiles a pattern already validated by the checker; throws when the engine cannot run it. */
  compile(pattern: string): CompiledRegex;
}

/** The JavaScript RegExp engine, for the patterns js-regex.ts can translate faithfully. */
export const javascriptRegexEngine: RegexEngine = {
  compile(pattern) {
    const regex = new RegExp(translatePattern(pattern));
    return {
      exec(input) {
        const match = regex.exec(input);
        return match ? { index: match.index, groups: Array.from(match) } : undefined;
      },
    };
  },
};

let engine: RegexEngine = javascriptRegexEngine;

/** Installs the engine used by calls prepared from now on; `undefined` restores the default. */
export function setRegexEngine(next: RegexEngine | undefined): void {
  engine = next ?? javascriptRegexEngine;
}

export const regexEngine = (): RegexEngine => engine;
