import { compileRegex } from './compile.js';
import { translatePattern } from './v8/translate.js';

/**
 * The regex engine `regex_replace` runs patterns with, replaceable.
 *
 * The evaluator's real engine is RE2-based (./compile.ts, linear time on any input); it is plugged
 * in with `setRegexEngine`, which must happen before filters are compiled, since `regex_replace` compiles
 * its pattern once when the call is prepared. Until then the default engine translates the pattern into
 * a JavaScript RegExp where that keeps Cloudflare's byte semantics exactly (see ./v8/translate.ts) and throws
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

/** The JavaScript RegExp engine, for the patterns ./v8/translate.ts can translate faithfully. */
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

/** RE2 (./compile.ts), the engine `matches` uses too: linear time, byte semantics. The default. */
export const re2RegexEngine: RegexEngine = { compile: compileRegex };

let engine: RegexEngine = re2RegexEngine;

/**
 * Installs the engine used by calls prepared from now on (e.g. the JavaScript one where RE2's WebAssembly
 * cannot load); `undefined` restores the default, RE2.
 */
export function setRegexEngine(next: RegexEngine | undefined): void {
  engine = next ?? re2RegexEngine;
}

export const regexEngine = (): RegexEngine => engine;
