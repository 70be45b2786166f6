import type { WildcardPart } from '../lang/wildcard.js';
import { linearTimeSource } from '../regex/index.js';
import { asciiLower } from '../scheme/values.js';

/**
 * `wildcard` and `strict wildcard` at run time. The pattern becomes a function written for it (below):
 * compare the bytes before the first star at the start, those after the last star at the end, then find
 * each literal in between at its leftmost place, byte by byte, ASCII letters folded without `strict`. No
 * call into the engine's string built-ins, which cost more than the comparisons on the short values rules
 * test (bench/eval.ts, E7). Where code generation is not allowed, or a literal in between is long (the
 * byte-by-byte search is then no longer linear enough), an anchored V8 RegExp (a star is any run of bytes;
 * without `strict`, each ASCII letter is the class of its two cases, so that Latin-1 letters never fold), if
 * V8's linear engine accepts it: stars can make a backtracking search polynomial (`*a*a*a*a*b`), and V8 then
 * finishes it in linear time. Otherwise, the literal search of matchWildcard (linear too). Patterns are read
 * by check/wildcard.ts, which the checker uses to report invalid ones.
 */
export function wildcardMatcher(parts: readonly WildcardPart[], strict: boolean): (value: string) => boolean {
  const written = writtenWildcard(parts, strict);
  if (written) return written;
  const regex = linearTimeSource(wildcardSource(parts, strict));
  if (regex) return (value) => regex.test(value);
  return compileWildcard(parts, strict);
}

/** Literals in between stars up to this long are searched byte by byte (at most this many compares a byte). */
const SEARCHED_LENGTH = 16;
/** Patterns with more literal bytes than this are not written out (the function's source grows with them). */
const WRITTEN_BYTES = 512;

/**
 * The function written for a pattern, or undefined (code generation disallowed, a long literal in between,
 * or a long pattern). Its source holds only numbers: byte values and lengths.
 */
export function writtenWildcard(
  parts: readonly WildcardPart[],
  strict: boolean,
): ((value: string) => boolean) | undefined {
  const plan = planOf(parts, strict);
  const literals = plan.exact !== undefined ? [plan.exact] : [plan.prefix, plan.suffix, ...plan.middle];
  if (literals.reduce((sum, literal) => sum + literal.length, 0) > WRITTEN_BYTES) return undefined;
  if (plan.middle.some((literal) => literal.length > SEARCHED_LENGTH)) return undefined;
  // Byte `k` of a literal equals the value's byte at `at + k` (the literal is folded unless strict).
  const equal = (literal: string, at: string) =>
    Array.from(literal, (byte, k) => {
      const code = byte.charCodeAt(0);
      const read = `s.charCodeAt(${at} + ${k})`;
      return !strict && code >= 0x61 && code <= 0x7a ? `(${read} | 32) === ${code}` : `${read} === ${code}`;
    }).join(' && ') || 'true';
  const lines: string[] = [];
  if (plan.exact !== undefined) {
    lines.push(`if (s.length !== ${plan.exact.length}) return false;`, `return ${equal(plan.exact, '0')};`);
  } else {
    lines.push(`const n = s.length;`, `if (n < ${plan.minLength}) return false;`);
    if (plan.prefix) lines.push(`if (!(${equal(plan.prefix, '0')})) return false;`);
    if (plan.suffix) lines.push(`if (!(${equal(plan.suffix, `n - ${plan.suffix.length}`)})) return false;`);
    lines.push(`let at = ${plan.prefix.length};`, `const to = n - ${plan.suffix.length};`);
    for (const literal of plan.middle) {
      lines.push(
        `for (;; at++) { if (at + ${literal.length} > to) return false; if (${equal(literal, 'at')}) break; }`,
        `at += ${literal.length};`,
      );
    }
    lines.push('return true;');
  }
  try {
    return new Function(`"use strict"; return function wildcard(s) {\n${lines.join('\n')}\n};`)() as (
      value: string,
    ) => boolean;
  } catch {
    // Code generation disallowed (`--disallow-code-generation-from-strings`, a Content-Security-Policy).
    return undefined;
  }
}

/** The RegExp source of a wildcard over binary strings (one char per byte). */
export function wildcardSource(parts: readonly WildcardPart[], strict: boolean): string {
  const body = parts.map((part) =>
    part.kind === 'star'
      ? '[\\x00-\\xff]*'
      : Array.from(part.bytes, (byte) => byteSource(byte, strict)).join(''),
  );
  return `^${body.join('')}$`;
}

function byteSource(byte: string, strict: boolean): string {
  const code = byte.charCodeAt(0);
  const hex = (c: number) => `\\x${c.toString(16).padStart(2, '0')}`;
  const lower = code | 0x20;
  if (!strict && lower >= 0x61 && lower <= 0x7a) return `[${hex(lower & ~0x20)}${hex(lower)}]`;
  return hex(code);
}

/**
 * Whether `value` (a binary string) matches the whole pattern. Without `caseSensitive`, ASCII letters match
 * either case, as in the reference; other bytes match only themselves.
 *
 * Greedy and linear in practice: the literal before the first star must start the value and the one after
 * the last star must end it; each literal in between is taken at its leftmost occurrence after the previous
 * one. Leftmost is always safe, because a star can absorb whatever a later placement would skip.
 */
export function matchWildcard(
  parts: readonly WildcardPart[],
  value: string,
  caseSensitive: boolean,
): boolean {
  return matchPlan(planOf(parts, caseSensitive), caseSensitive ? value : asciiLower(value));
}

/** A matcher for one pattern, with its plan made once (what compiled filters use). */
export function compileWildcard(
  parts: readonly WildcardPart[],
  caseSensitive: boolean,
): (value: string) => boolean {
  const plan = planOf(parts, caseSensitive);
  if (caseSensitive) return (value) => matchPlan(plan, value);
  const { prefix } = plan;
  // Most values fail on their first bytes: compare the prefix folding as we go, before folding the value.
  return (value) => {
    if (value.length < plan.minLength) return false;
    for (let i = 0; i < prefix.length; i++) {
      let c = value.charCodeAt(i);
      if (c >= 0x41 && c <= 0x5a) c += 0x20;
      if (c !== prefix.charCodeAt(i)) return false;
    }
    return matchPlan(plan, asciiLower(value));
  };
}

function matchPlan(plan: MatchPlan, subject: string): boolean {
  if (plan.exact !== undefined) return subject === plan.exact;
  if (subject.length < plan.minLength || !subject.startsWith(plan.prefix) || !subject.endsWith(plan.suffix)) {
    return false;
  }
  let from = plan.prefix.length;
  const to = subject.length - plan.suffix.length;
  for (const literal of plan.middle) {
    const at = subject.indexOf(literal, from);
    if (at < 0 || at + literal.length > to) return false;
    from = at + literal.length;
  }
  return true;
}

/** What matching needs, with literals already folded; computed once per parts array. */
interface MatchPlan {
  /** Set when the pattern has no star. */
  exact?: string;
  prefix: string;
  suffix: string;
  middle: string[];
  minLength: number;
}

const plans = [
  new WeakMap<readonly WildcardPart[], MatchPlan>(),
  new WeakMap<readonly WildcardPart[], MatchPlan>(),
];

function planOf(parts: readonly WildcardPart[], caseSensitive: boolean): MatchPlan {
  const cache = plans[caseSensitive ? 1 : 0];
  let plan = cache.get(parts);
  if (!plan) {
    const literals = parts.map((part) =>
      part.kind === 'star' ? undefined : caseSensitive ? part.bytes : asciiLower(part.bytes),
    );
    if (!literals.includes(undefined)) {
      plan = { exact: literals.join(''), prefix: '', suffix: '', middle: [], minLength: 0 };
    } else {
      const prefix = literals[0] ?? '';
      const suffix = literals.length > 1 ? (literals[literals.length - 1] ?? '') : '';
      const middle = literals.slice(1, -1).filter((literal) => literal !== undefined);
      const minLength =
        prefix.length + suffix.length + middle.reduce((sum, literal) => sum + literal.length, 0);
      plan = { prefix, suffix, middle, minLength };
    }
    cache.set(parts, plan);
  }
  return plan;
}
