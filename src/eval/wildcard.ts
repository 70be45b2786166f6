import type { WildcardPart } from '../lang/wildcard.js';
import { linearTimeSource } from '../regex/index.js';
import { asciiLower } from '../scheme/values.js';

/**
 * `wildcard` and `strict wildcard` at run time. The pattern becomes an anchored V8 RegExp (a star is any
 * run of bytes; without `strict`, each ASCII letter is the class of its two cases, so that Latin-1 letters
 * never fold), which V8 runs faster than searching the literals one by one (bench/eval.ts, E7). As for
 * `matches`, only if V8's linear engine accepts it: stars can make a backtracking search polynomial
 * (`*a*a*a*a*b`), and V8 then finishes it in linear time. Otherwise, the literal search below (linear
 * too). Patterns are read by check/wildcard.ts, which the checker uses to report invalid ones.
 */
export function wildcardMatcher(parts: readonly WildcardPart[], strict: boolean): (value: string) => boolean {
  const regex = linearTimeSource(wildcardSource(parts, strict));
  if (regex) return (value) => regex.test(value);
  return compileWildcard(parts, strict);
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
