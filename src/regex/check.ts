/**
 * Checks the pattern of a `matches` / `~` comparison as Cloudflare's engine would, and makes sure cfrules
 * can evaluate it with RE2.
 *
 * The reference engine compiles patterns with Rust's `regex-syntax` 0.8 and `regex-automata` in byte mode
 * (`unicode(false)`, `utf8(false)`). Its syntax errors are regex-syntax's multi-line text:
 *
 *     regex parse error:
 *         (
 *         ^
 *     error: unclosed group
 *
 * so this module carries its own parser of that syntax (same grammar, same error kinds, same spans, same
 * nesting limit of 250), then the checks regex-syntax makes when it translates the syntax tree in byte mode
 * (`Unicode not allowed here`), then an estimate of the compiled size. A pattern that passes is translated
 * to RE2 syntax and compiled with re2-wasm, the engine cfrules evaluates `matches` with, as the final word.
 *
 * Decisions and differences from the reference (also listed in test/regex/check.test.ts):
 *
 * - Problems come in two kinds. `invalid`: Cloudflare rejects the pattern too (syntax errors, Unicode in
 *   byte mode, compiled size). `unsupported`: Cloudflare accepts the pattern but cfrules cannot evaluate it
 *   faithfully with RE2; the validator may show these as warnings. Both use the `regex parse error:` layout.
 * - `unsupported`, because RE2 has no equivalent (RE2 would reject some, and silently read others as
 *   literals): class set operations (`[a-z&&[^aeiou]]`, `--`, `~~`) and negated classes nested in a class;
 *   `\b{start}`, `\b{end}`, `\b{start-half}`, `\b{end-half}`, `\<`, `\>`; the CRLF flag `(?R)`; counted
 *   repetitions above 1000, also as a product of nested counts (`(a{10}){101}`), RE2's limit; Unicode
 *   property names RE2 does not know (RE2 knows general categories and scripts in their canonical spelling:
 *   `\pL`, `\p{Lu}`, `\p{Greek}`; Rust also knows binary properties such as `\p{Alphabetic}`, `scx=` and
 *   loose spellings such as `\p{greek}`); patterns too large for re2-wasm's fixed 16 MiB heap.
 * - Translated for RE2 rather than rejected: `(?u)` and `(?x)` (RE2 knows neither flag; verbose mode is
 *   resolved by dropping its whitespace and comments), `\u0041` / `\U0001F600` / `\u{..}` escapes, named
 *   groups (RE2 1.0.2 only reads `(?P<name>`; names do not matter to `matches`), counted repetitions with
 *   spaces (`a{ 2 }` is a repetition in Rust, literal text in RE2) and repeated repetitions (`a**`).
 * - Unicode property names are not checked against Unicode tables here: with `(?u)` on, RE2 decides, and a
 *   name it does not know is reported as `unsupported` (Cloudflare would say `Unicode property not found`
 *   when the name is really unknown).
 * - The compiled-size limit (`Compiled regex exceeds size limit of 10485760 bytes.`) is estimated, not
 *   measured: regex-automata's builder counts 32 bytes per NFA state, 8 per class range and 4 per union
 *   branch, and counted repetitions copy their operand (`x{n,m}`: n copies, then m-n optional copies with a
 *   union each). Byte-mode patterns are estimated closely; Unicode classes (`(?u)\w`, `\p{..}`) get a flat
 *   cost of the order of their UTF-8 automata (about 1000 states for `\w`), so patterns near the limit may
 *   be judged differently from Cloudflare.
 * - Semantics (not reported here; for the evaluator): RE2 always works on UTF-8 text, so `.` is one code
 *   point rather than one byte, `\xFF` means U+00FF, `(?i)` folds Unicode case (`k` matches U+212A), and
 *   `\d`, `\s`, `\w`, `\b` stay ASCII in RE2 even where `(?u)` makes them Unicode in Rust.
 *
 * Loading RE2: re2-wasm is a CommonJS package whose wasm module compiles synchronously when required, so it
 * is loaded on first use with `createRequire` (through `process.getBuiltinModule`, so that importing this
 * module needs no Node built-in). We use its embind class `WrappedRE2` directly: the public `RE2` class
 * rewrites the pattern for JavaScript syntax and leaks the group-name map of every compile. Every object we
 * create is freed with `delete()`; the heap is fixed at 16 MiB and never shrinks. Where RE2 cannot be
 * loaded (a browser), only the Rust-compatible checks run.
 */

import {
  compileWithRe2,
  PROPERTY_NOT_FOUND,
  RE2_TOO_LARGE,
  RE2_UNIT_BUDGET,
  Re2Writer,
} from './re2/writer.js';
import { formatRegexError, RegexSyntaxError, type Span, wholeSpan } from './syntax/errors.js';
import { parsedPattern } from './syntax/parser.js';
import { NFA_OVERHEAD, Translator } from './syntax/size.js';
import type { Ast } from './syntax/syntax-tree.js';

/** Why a `matches` pattern cannot be used as written. */
export interface RegexProblem {
  /** The reference engine's text: regex-syntax's multi-line error, or the compiled-size message. */
  message: string;
  /** `invalid`: Cloudflare rejects it too. `unsupported`: Cloudflare accepts it, cfrules cannot run it. */
  kind: 'invalid' | 'unsupported';
}

/** The reference engine's `regex_compiled_size_limit` (10 MiB). */
export const REGEX_SIZE_LIMIT = 10 * (1 << 20);

/**
 * Checks a pattern (a binary string: one character per byte, as the lexer produces it). Returns the first
 * problem in the order the reference reports them, or `undefined` when the pattern is fine.
 */
export function checkRegex(pattern: string): RegexProblem | undefined {
  return analyse(pattern).problem;
}

/** The RE2 translation of a pattern `checkRegex` accepts (what it compiled), else `undefined`. */
export function toRe2Pattern(pattern: string): string | undefined {
  const result = analyse(pattern);
  return result.problem ? undefined : result.re2;
}

interface Analysis {
  problem?: RegexProblem;
  re2?: string;
}

/** Results by pattern: the same pattern is often checked again (editors, repeated validation). */
const cache = new Map<string, Analysis>();
const CACHE_SIZE = 512;

function analyse(pattern: string): Analysis {
  const cached = cache.get(pattern);
  if (cached) return cached;
  // Frozen, since every caller of the same pattern shares the result.
  const result = Object.freeze(analyseUncached(pattern));
  if (result.problem) Object.freeze(result.problem);
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(pattern, result);
  return result;
}

function analyseUncached(pattern: string): Analysis {
  const text = decodeBinary(pattern);
  let ast: Ast;
  let nfaBytes: number;
  try {
    ast = parsedPattern(text);
    nfaBytes = new Translator().size(ast).bytes + NFA_OVERHEAD;
  } catch (err) {
    if (err instanceof RegexSyntaxError) return { problem: invalid(formatRegexError(text, err)) };
    throw err;
  }
  if (nfaBytes > REGEX_SIZE_LIMIT) {
    return { problem: invalid(`Compiled regex exceeds size limit of ${REGEX_SIZE_LIMIT} bytes.`) };
  }
  const writer = new Re2Writer();
  const re2 = writer.write(ast);
  const first = writer.firstProblem();
  if (first) return { problem: unsupported(text, first.description, first.span) };
  if (re2.units > RE2_UNIT_BUDGET) {
    return { problem: unsupported(text, RE2_TOO_LARGE, wholeSpan(text)) };
  }
  const re2Error = compileWithRe2(re2.text);
  if (re2Error !== undefined) {
    const property = writer.properties.find((p) => re2Error.includes(p.text));
    if (property) return { problem: unsupported(text, PROPERTY_NOT_FOUND, property.span) };
    return {
      problem: unsupported(text, `RE2, the engine cfrules runs regexes with, ${re2Error}`, wholeSpan(text)),
    };
  }
  return { re2: re2.text };
}

function invalid(message: string): RegexProblem {
  return { message, kind: 'invalid' };
}

function unsupported(text: string, description: string, span: Span): RegexProblem {
  return { message: formatRegexError(text, new RegexSyntaxError(description, span)), kind: 'unsupported' };
}

/**
 * The pattern as text. The reference parses a Rust `&str`, so bytes ≥ 0x80 are UTF-8 (they come from the
 * expression's own text); a byte that is not valid UTF-8 becomes U+FFFD.
 */
export function decodeBinary(pattern: string): string {
  let hasHighByte = false;
  for (let i = 0; i < pattern.length; i++) {
    const code = pattern.charCodeAt(i);
    if (code > 0xff) return pattern;
    if (code >= 0x80) hasHighByte = true;
  }
  if (!hasHighByte) return pattern;
  return new TextDecoder().decode(Uint8Array.from(pattern, (ch) => ch.charCodeAt(0)));
}
