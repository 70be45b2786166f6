/**
 * `matches` at run time: patterns compiled once, run by RE2 (re2-wasm, linear time: no input can make a
 * regex slow), behind a literal prefilter, with the reference engine's byte semantics.
 *
 * The reference engine runs Rust's regex in byte mode (`unicode(false)`, `utf8(false)`, unanchored
 * `is_match`, leftmost-first). RE2 only knows UTF-8 text, so the pattern is translated (./re2/translate.ts)
 * for one of two readings of the input:
 *
 * - Bytes (almost every pattern): RE2 gets the binary string as is, each byte one code point U+00–U+FF, and
 *   the translation matches the same bytes as the reference: `.` is any byte but `\n` (any byte with `(?s)`);
 *   `\xHH` is the byte HH; a non-ASCII character written in the pattern is its UTF-8 bytes; `\d \w \s`, POSIX
 *   classes and `\b` are ASCII, so bytes ≥ 0x80 are never digits, letters or spaces; `(?i)` folds ASCII
 *   letters only: it is written out as `[Aa]` and folded byte sets, and RE2's own case folding is never
 *   used, since it would also pair Latin-1 letters (é 0xE9 with É 0xC9) and `k` with U+212A. Every flag
 *   (`i m s U`) is resolved into the text; RE2 compiles without flags. Invalid UTF-8 in the input is just
 *   bytes.
 * - Unicode, when a `(?u)` item must see whole characters (`.`, a class, `\p{..}`, `\d \w \s`, `(?i)`
 *   letters): RE2 gets the input decoded from UTF-8, every byte that is not part of valid UTF-8 turned into
 *   a marker code point (U+10FF80 + byte). Unicode-mode items exclude the markers, as the reference's UTF-8
 *   automata never match invalid UTF-8; `(?u)\d` is `\p{Nd}`, `(?u)\s` White_Space, `(?u)\w` letters, marks,
 *   digits, connectors and joiners; `(?iu)` uses RE2's Unicode simple case folding, as Rust does.
 *
 * Differences from the reference (pinned by tests in test/regex/compile.test.ts, but for the tables):
 * - `\b` and `\B` are ASCII word boundaries in Unicode mode too (RE2 has no Unicode word boundary).
 * - In a pattern read as Unicode, byte-mode items (`(?-u:.)`, `\xC3`, `[\x80-\xFF]`, `\W` outside `(?u)`)
 *   consume whole characters: such an item matches a valid character when it would match its first byte,
 *   and an invalid byte as itself. A run of `\xHH` escapes that spells a character matches that character.
 * - Input characters U+10FF80–U+10FFFF (private use, never assigned) cannot be told from the markers in
 *   that reading, so Unicode classes do not match them.
 * - Unicode tables are RE2's (re2-wasm 1.0.2, 2021) for `\p{..}`, and Unicode 17 for the few extra `\w`
 *   members; characters assigned since differ.
 * - What the checker reports as unsupported is not supported here either (class set operations, negated
 *   classes nested in a class, `\b{start}`-style boundaries, `(?R)`).
 * - RE2's program and DFA budgets are not the reference's (see the checker's size estimate): a Unicode-heavy
 *   pattern the checker accepts can still fail here, with an error saying so.
 *
 * Performance: re2-wasm costs 2–5 µs per call on short values (copying the input into wasm dominates),
 * V8's RegExp 15–50 ns. So a yes/no search (`test`) runs on V8 whenever V8 can promise the same answers in
 * linear time (./v8/linear.ts: most byte-mode patterns). Each pattern also gets a prefilter
 * (./prefilter.ts) for the patterns left to RE2: literals every match must contain, start or end with
 * are checked with `indexOf`/`startsWith`/`endsWith` first, and a pattern that is only literals (`/admin`,
 * `^/(login|signup)$`, `\.(php|aspx?)$`) never reaches a regex engine (bench/regex.ts).
 *
 * Memory: re2-wasm's heap is a fixed 16 MiB that never shrinks, and every compiled pattern must be freed
 * with `delete()`. Patterns are compiled on first use into an LRU cache (./re2/cache.ts) of at most 1,000
 * patterns and 8 MiB by an estimate of their size, the rest of the heap being left to the DFAs RE2 grows
 * while matching; eviction deletes. If the heap runs out anyway, re2-wasm aborts: the cache then starts over
 * on a fresh instance and retries once, and only a pattern that cannot run on its own fails, with an error.
 */

import { decodeBinary } from './check.js';
import type { CompiledRegex, RegexMatch } from './engine.js';
import { buildPrefilter, type Check, INDEX_NEEDLES, type Prefilter } from './prefilter.js';
import { cacheStats, type RegexCacheStats, re2Match, type Slot, setCapacity } from './re2/cache.js';
import { needsUnicode, type Representation, translate } from './re2/translate.js';
import { byteOffset, decodeWithMarkers, encodeWithMarkers } from './re2/utf8.js';
import { requiredBytes } from './required-bytes.js';
import { RegexSyntaxError } from './syntax/errors.js';
import { countCaptures, UnsupportedRegexError } from './syntax/flags.js';
import { parsedPattern } from './syntax/parser.js';
import { linearTimeFilter, linearTimeRegExp, linearTimeSource, v8Translation } from './v8/linear.js';

export type { RegexCacheStats } from './re2/cache.js';

/** Everything known about a pattern before RE2 sees it. */
interface Plan {
  pattern: string;
  /**
   * The pattern in RE2's syntax, translated when first needed (slotOf): an index of rules asks a pattern
   * for its literals only, and V8 answers most searches without RE2.
   */
  slot: Slot | undefined;
  representation: Representation;
  prefilter: Prefilter;
  /** Some needle compares with the lower-cased input. */
  folded: boolean;
  captures: number;
  /**
   * How V8 takes part in yes/no searches, worked out on the first search (translating for V8 costs as
   * much as the rest of the plan, and a filter compiled with many patterns may never run most of them).
   */
  v8Search: V8Search | undefined;
  /** The literals for an index of rules (regexPrefilter), worked out when first asked for. */
  indexPrefilter: Prefilter | undefined;
  /** The pattern's V8 translations, when a table gave them (v8SearchOf translates them otherwise). */
  v8Sources: V8Sources | undefined;
  /**
   * Known to run, the plan coming from a table whose tests compile every pattern: the RE2 translation
   * then waits for the first search RE2 must answer.
   */
  runnable: boolean;
}

/** A pattern in V8's syntax for yes/no searches, exact and with counted repetitions relaxed (if different). */
interface V8Sources {
  exact?: string;
  relaxed?: string;
}

interface V8Search {
  /** V8's RegExp for yes/no searches, where it keeps the answers and linear time (./v8/linear.ts). */
  v8: RegExp | undefined;
  /**
   * Else, where V8 refuses only the pattern's counted repetitions: V8's RegExp of the pattern with them
   * relaxed, which rejects most values before RE2 is asked (a superset of the matches).
   */
  v8Filter: RegExp | undefined;
}

const NO_V8: V8Search = { v8: undefined, v8Filter: undefined };

function v8SearchOf(plan: Plan): V8Search {
  if (plan.v8Search) return plan.v8Search;
  let search = NO_V8;
  if (usesV8(plan)) {
    const sources = plan.v8Sources;
    const linear = (source: string | undefined) =>
      source === undefined ? undefined : linearTimeSource(source);
    const v8 = sources ? linear(sources.exact) : linearTimeRegExp(plan.pattern);
    const v8Filter = v8 ? undefined : sources ? linear(sources.relaxed) : linearTimeFilter(plan.pattern);
    search = { v8, v8Filter };
  }
  plan.v8Search = search;
  return search;
}

/** V8 may answer a pattern's yes/no searches: read as bytes, and not answered by its literals alone. */
const usesV8 = (plan: Pick<RegexPlanData, 'representation' | 'prefilter'>): boolean =>
  plan.representation === 'bytes' && !plan.prefilter.complete;

/** The V8 translations of a pattern V8 may search with, for a table of plans. */
function v8SourcesOf(data: Omit<RegexPlanData, 'indexPrefilter'>): V8Sources | undefined {
  if (!usesV8(data)) return undefined;
  const exact = v8Translation(data.pattern, false);
  const relaxed = v8Translation(data.pattern, true);
  return {
    ...(exact === undefined ? {} : { exact }),
    ...(relaxed === undefined || relaxed === exact ? {} : { relaxed }),
  };
}

/** Plans by pattern; bounded so that a stream of distinct patterns cannot grow memory without end. */
const plans = new Map<string, Plan>();
const MAX_PLANS = 10_000;

/**
 * Compiles (or fetches from the cache) a `matches` pattern (binary string, already valid per checkRegex).
 * The RE2 translation is made now, so that a pattern cfrules cannot run is refused when compiled.
 */
export function compileRegex(pattern: string): CompiledRegex {
  const plan = planOf(pattern);
  if (!plan.runnable) slotOf(plan);
  return new Regex(plan, true);
}

/** The same regex on RE2 alone, without the prefilter, literal fast paths or V8: for tests comparing them. */
export function compileRegexWithoutPrefilter(pattern: string): CompiledRegex {
  const plan = planOf(pattern);
  slotOf(plan);
  return new Regex(plan, false);
}

export function regexCacheStats(): RegexCacheStats {
  return cacheStats();
}

/** Sets the number of compiled patterns kept; evicts (and deletes) down to the new capacity. */
export function setRegexCacheCapacity(capacity: number): void {
  setCapacity(capacity);
}

/** The RE2 pattern a `matches` pattern is run as, and the input reading it needs (for tests and tools). */
export function describeRegex(pattern: string): {
  re2: string;
  representation: Representation;
  prefilter: Prefilter;
  /**
   * What answers a yes/no search: V8's RegExp, the prefilter's literals alone, V8 with counts relaxed
   * then RE2 for the values it accepts, or RE2 (after the prefilter).
   */
  search: 'v8' | 'literals' | 'v8-then-re2' | 're2';
} {
  const plan = planOf(pattern);
  const { representation, prefilter } = plan;
  const { v8, v8Filter } = v8SearchOf(plan);
  const search = v8 ? 'v8' : prefilter.complete ? 'literals' : v8Filter ? 'v8-then-re2' : 're2';
  return { re2: slotOf(plan).source, representation, prefilter, search };
}

/**
 * The literals every match of a `matches` pattern (valid per checkRegex) contains, for an index of rules:
 * the prefilter's; or, when it has none, the same analysis with up to INDEX_NEEDLES needles per set (an
 * index looks for all of them in one pass, where the prefilter calls indexOf for each). When the best of
 * these is a single letter or digit, which nearly every value holds, and every match holds one of a few
 * punctuation bytes (./required-bytes.ts), those bytes come first. Worked out once per pattern.
 */
export function regexPrefilter(pattern: string): Prefilter {
  const plan = planOf(pattern);
  plan.indexPrefilter ??= indexPrefilterOf(plan);
  return plan.indexPrefilter;
}

function indexPrefilterOf(plan: Omit<RegexPlanData, 'indexPrefilter'>): Prefilter {
  const literals =
    plan.prefilter.checks.length > 0
      ? plan.prefilter
      : buildPrefilter(parsedPattern(decodeBinary(plan.pattern)), plan.representation, INDEX_NEEDLES);
  const first = literals.checks[0];
  if (first && !first.needles.some((needle) => /^[a-z0-9]$/i.test(needle.text))) return literals;
  const bytes = requiredBytes(parsedPattern(decodeBinary(plan.pattern)));
  if (!bytes) return literals;
  const needles = bytes.map((byte) => ({ text: String.fromCharCode(byte), folded: false, loose: false }));
  return { checks: [{ place: 'anywhere', needles }, ...literals.checks], complete: false };
}

function planOf(pattern: string): Plan {
  const cached = plans.get(pattern);
  if (cached) return cached;
  return remember(planFrom(plannedData(pattern), undefined, false));
}

/** What planning finds for a pattern (valid per checkRegex), worked out from its text. */
function plannedData(pattern: string): Omit<RegexPlanData, 'indexPrefilter'> {
  const text = decodeBinary(pattern);
  return withRegexErrors(text, () => {
    const ast = parsedPattern(text);
    const representation: Representation = needsUnicode(ast) ? 'unicode' : 'bytes';
    return {
      pattern,
      representation,
      prefilter: buildPrefilter(ast, representation),
      captures: countCaptures(ast),
    };
  });
}

function planFrom(
  { pattern, representation, prefilter, captures, v8 }: RegexPlanData,
  indexPrefilter: Prefilter | undefined,
  runnable: boolean,
): Plan {
  const folded = isFolded(prefilter);
  return {
    pattern,
    slot: undefined,
    representation,
    prefilter,
    folded,
    captures,
    v8Search: undefined,
    indexPrefilter,
    v8Sources: v8,
    runnable,
  };
}

function remember(plan: Plan): Plan {
  if (plans.size >= MAX_PLANS) plans.clear();
  plans.set(plan.pattern, plan);
  return plan;
}

/**
 * What planning finds for a pattern, as data: a table of these for the patterns of the managed rulesets is
 * kept with the catalogue (src/engine/managed/regex-plans.json), so that a process compiling a zone does not
 * parse them again to find their literals (issue 22: both rulesets ready in milliseconds).
 */
export interface RegexPlanData {
  pattern: string;
  representation: Representation;
  prefilter: Prefilter;
  captures: number;
  /** The literals for an index of rules (regexPrefilter), when they are not the prefilter's. */
  indexPrefilter?: Prefilter;
  /** Its V8 translations, when V8 may search with it: `exact`, `relaxed` (counts), either missing if none. */
  v8?: V8Sources;
}

/** A pattern's plan worked out afresh, whatever this process already knows (for the catalogue's table). */
export function regexPlanData(pattern: string): RegexPlanData {
  const data = plannedData(pattern);
  const indexPrefilter = indexPrefilterOf(data);
  const v8 = v8SourcesOf(data);
  return {
    ...data,
    ...(indexPrefilter === data.prefilter ? {} : { indexPrefilter }),
    ...(v8 ? { v8 } : {}),
  };
}

/**
 * Takes plans worked out by regexPlanData, maybe in an earlier process, as this process's own. They must
 * come from the same version of cfrules, and be of patterns known to run (the catalogue's tests check its
 * table and compile every pattern): their RE2 translation is not made until RE2 is asked.
 */
export function addRegexPlans(table: readonly RegexPlanData[]): void {
  for (const data of table) {
    if (!plans.has(data.pattern)) remember(planFrom(data, data.indexPrefilter ?? data.prefilter, true));
  }
}

/** The plan's RE2 pattern, translated on first use. */
function slotOf(plan: Plan): Slot {
  if (plan.slot) return plan.slot;
  const text = decodeBinary(plan.pattern);
  const { source, cost } = withRegexErrors(text, () => translate(parsedPattern(text)));
  plan.slot = { source, cost };
  return plan.slot;
}

/** Runs a step of planning, its errors said as the evaluator reports them. */
function withRegexErrors<T>(text: string, step: () => T): T {
  try {
    return step();
  } catch (err) {
    // Not expected for a pattern checkRegex accepts; the evaluator reports the error.
    if (err instanceof RegexSyntaxError)
      throw new Error(`invalid regex ${JSON.stringify(text)}: ${err.description}`);
    if (err instanceof UnsupportedRegexError) {
      throw new Error(
        `cfrules cannot evaluate the regex ${JSON.stringify(text)}: not supported: ${err.message}`,
      );
    }
    throw err;
  }
}

class Regex implements CompiledRegex {
  constructor(
    private readonly plan: Plan,
    private readonly prefiltered: boolean,
  ) {}

  test(input: string): boolean {
    if (this.prefiltered) {
      // V8 outruns the prefilter's own checks (which lower-case the input when folding).
      const { v8, v8Filter } = this.plan.v8Search ?? v8SearchOf(this.plan);
      if (v8) return v8.test(input);
      if (v8Filter && !v8Filter.test(input)) return false;
      const { checks, complete } = this.plan.prefilter;
      const lower = this.plan.folded ? input.toLowerCase() : input;
      for (const check of checks) if (!passes(check, input, lower)) return false;
      if (complete) return true;
    }
    return re2Match(slotOf(this.plan), this.text(input), false).index >= 0;
  }

  exec(input: string): RegexMatch | undefined {
    const { prefilter, captures, representation, folded } = this.plan;
    if (this.prefiltered) {
      const lower = folded ? input.toLowerCase() : input;
      for (const check of prefilter.checks) if (!passes(check, input, lower)) return undefined;
      if (prefilter.complete && captures === 0) return literalMatch(prefilter.checks[0], input, lower);
    }
    const text = this.text(input);
    // RE2 reports the offset in code points: in the bytes reading, that is bytes.
    const found = re2Match(slotOf(this.plan), text, true);
    if (found.index < 0) return undefined;
    const groups = [found.match, ...found.groups];
    if (representation === 'bytes' || text === input) return { index: found.index, groups };
    return {
      index: byteOffset(text, found.index),
      groups: groups.map((g) => (g === undefined ? undefined : encodeWithMarkers(g))),
    };
  }

  private text(input: string): string {
    return this.plan.representation === 'bytes' ? input : decodeWithMarkers(input);
  }
}

/** Some needle compares with the lower-cased input. */
function isFolded(prefilter: Prefilter): boolean {
  return prefilter.checks.some((check) => check.needles.some((needle) => needle.folded));
}

/** `lower` is the input lower-cased when the pattern has folded needles. */
function passes(check: Check, input: string, lower: string): boolean {
  for (const needle of check.needles) {
    const text = needle.folded ? lower : input;
    switch (check.place) {
      case 'anywhere':
        if (text.includes(needle.text)) return true;
        break;
      case 'start':
        if (text.startsWith(needle.text)) return true;
        break;
      case 'end':
        if (text.endsWith(needle.text)) return true;
        break;
      case 'whole':
        if (text === needle.text) return true;
        break;
    }
  }
  return false;
}

/**
 * The leftmost-first match of a pattern that is only literals (needles in priority order): the earliest
 * position wins, then the needle that comes first.
 */
function literalMatch(check: Check, input: string, lower: string): RegexMatch | undefined {
  let index = -1;
  let length = 0;
  for (const needle of check.needles) {
    const text = needle.folded ? lower : input;
    let at = -1;
    if (check.place === 'anywhere') at = text.indexOf(needle.text);
    else if (check.place === 'start' || check.place === 'whole') at = text.startsWith(needle.text) ? 0 : -1;
    else if (text.endsWith(needle.text)) at = text.length - needle.text.length;
    if (check.place === 'whole' && needle.text.length !== text.length) at = -1;
    if (at >= 0 && (index < 0 || at < index)) {
      index = at;
      length = needle.text.length;
    }
  }
  return index < 0 ? undefined : { index, groups: [input.slice(index, index + length)] };
}
