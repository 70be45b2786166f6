import { translatePattern, UnsupportedPattern } from './translate.js';

/**
 * V8's own RegExp for `matches`, where it keeps both the reference engine's answers and a linear-time
 * bound: 30–50 ns a call against RE2-in-WebAssembly's 1.5–5 µs (bench/regex.ts).
 *
 * Answers: ./translate.ts translates a byte-mode pattern into RegExp source with exactly the reference's
 * meaning (ASCII classes and case folding written out, flags resolved), and refuses what it cannot keep;
 * a yes/no search needs no captures, so every group is non-capturing.
 *
 * Time: V8's backtracking engine alone can take exponential time (`^(a|a)*b$`). V8 also has a linear-time
 * engine (an automaton simulation), and a switch that makes a RegExp fall back to it once one search has
 * backtracked too much (V8's default: 50,000 backtracks). Both are turned on here, process-wide, the first
 * time a pattern is compiled; they change nothing for regexes that do not backtrack that much. A pattern is
 * run by V8 only if the linear engine accepts it (the `l` flag compiles it): those patterns cannot run
 * away. The others (counted repetitions of large groups such as `(.*a){20}`, which the linear engine
 * refuses) stay on RE2, as do patterns read as Unicode and every `exec` (regex_replace's captures).
 */

/** V8's flag for the linear engine (a constant, so that no tool rewrites `new RegExp` into a literal). */
const LINEAR_FLAG = 'l';

let available: boolean | undefined;

/**
 * Turns on V8's linear-time fallback; false where it cannot be (no Node.js `v8` module: a browser, a
 * worker runtime) or this V8 has no linear engine. The module is looked up at run time rather than
 * imported, so that the library still loads where there is none.
 */
function linearEngineAvailable(): boolean {
  if (available === undefined) {
    try {
      const v8 = globalThis.process?.getBuiltinModule?.('node:v8');
      if (!v8) throw new Error('no node:v8');
      v8.setFlagsFromString('--enable-experimental-regexp-engine');
      v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
      new RegExp('a', LINEAR_FLAG);
      available = true;
    } catch {
      available = false;
    }
  }
  return available;
}

/**
 * A RegExp searching binary strings exactly as the reference engine's `is_match` on `pattern` (a binary
 * string, valid per checkRegex), which cannot run away; undefined when V8 cannot promise both.
 */
export function linearTimeRegExp(pattern: string): RegExp | undefined {
  const source = v8Translation(pattern, false);
  return source === undefined ? undefined : linearTimeSource(source);
}

/**
 * A RegExp that matches whatever the pattern matches (and may match more), in linear time: counted
 * repetitions relaxed to `*` and `+`, for patterns whose counts V8's linear engine refuses (it accepts
 * bounds up to about 16). A value it rejects cannot match the pattern; a value it accepts must still be
 * asked of an exact engine. Undefined when V8 cannot run even that.
 */
export function linearTimeFilter(pattern: string): RegExp | undefined {
  const source = v8Translation(pattern, true);
  return source === undefined ? undefined : linearTimeSource(source);
}

/**
 * The pattern in V8's syntax for yes/no searches (counted repetitions relaxed with `relaxCounts`), whether
 * or not V8 can run it in linear time (linearTimeSource says); undefined when it has no V8 equivalent.
 */
export function v8Translation(pattern: string, relaxCounts: boolean): string | undefined {
  try {
    return translatePattern(pattern, relaxCounts ? { captures: false, relaxCounts } : { captures: false });
  } catch (error) {
    if (error instanceof UnsupportedPattern) return undefined;
    throw error;
  }
}

/**
 * A RegExp of this source (no flags) if V8 can run it in linear time (its linear engine accepts it, and
 * takes over a search that backtracks too much); undefined otherwise.
 */
export function linearTimeSource(source: string): RegExp | undefined {
  if (!linearEngineAvailable()) return undefined;
  try {
    new RegExp(source, LINEAR_FLAG);
  } catch {
    return undefined; // the linear engine refuses it: backtracking could be exponential
  }
  return new RegExp(source);
}
