/**
 * Patterns of `wildcard` and `strict wildcard`, as the reference engine reads them (the `wildcard` crate 0.3
 * with the `?` metasymbol disabled, then wirefilter's own checks).
 *
 * The pattern is the string literal's value, already unescaped once by the expression lexer. In this second
 * layer `*` matches any run of bytes (possibly empty), `\*` is a literal star and `\\` a literal backslash;
 * every other character is literal, `?` included. Errors, in the order the reference checks them:
 *
 * - `invalid wildcard: wildcard syntax error at position N: invalid escape sequence`, for `\` followed by
 *   anything but `*` or `\` (`\?` too, since `?` is not a metasymbol). N is the 0-based byte offset of the
 *   backslash in the unescaped pattern: `*foo\bar*` gives position 4.
 * - `invalid wildcard: wildcard syntax error at position N: incomplete escape sequence at the end of the
 *   wildcard`, for a trailing lone backslash; N is the offset of that backslash (the last byte).
 * - `wildcard has {count} star metacharacters, but the limit is {limit}`, when a star limit is configured
 *   (the reference default is unlimited) and the unescaped stars exceed it.
 * - `wildcard contains a double star`, for two unescaped stars in a row (`\**` is fine).
 */

/** A pattern as a sequence of literal byte runs (binary strings) and stars; no two stars are adjacent. */
export type WildcardPart = { kind: 'literal'; bytes: string } | { kind: 'star' };

export type ParsedWildcard = { ok: true; parts: WildcardPart[] } | { ok: false; message: string };

/** Reads a wildcard pattern (a binary string); `starLimit` caps the number of stars (default: none). */
export function parseWildcard(pattern: string, starLimit = Number.POSITIVE_INFINITY): ParsedWildcard {
  const parts: WildcardPart[] = [];
  let literal = '';
  let stars = 0;
  let doubleStar = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '*') {
      stars++;
      if (literal !== '') parts.push({ kind: 'literal', bytes: literal });
      // Nothing since the last part, which (a literal being pushed only before a star) is a star.
      else if (parts.length > 0) doubleStar = true;
      literal = '';
      parts.push({ kind: 'star' });
    } else if (ch === '\\') {
      if (i === pattern.length - 1) {
        return syntaxError(i, 'incomplete escape sequence at the end of the wildcard');
      }
      const next = pattern[i + 1];
      if (next !== '*' && next !== '\\') return syntaxError(i, 'invalid escape sequence');
      literal += next;
      i++;
    } else {
      literal += ch;
    }
  }
  if (literal !== '') parts.push({ kind: 'literal', bytes: literal });
  if (stars > starLimit) {
    return { ok: false, message: `wildcard has ${stars} star metacharacters, but the limit is ${starLimit}` };
  }
  if (doubleStar) return { ok: false, message: 'wildcard contains a double star' };
  return { ok: true, parts };
}

function syntaxError(position: number, message: string): ParsedWildcard {
  return {
    ok: false,
    message: `invalid wildcard: wildcard syntax error at position ${position}: ${message}`,
  };
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
  return matchPlan(planOf(parts, caseSensitive), caseSensitive ? value : asciiLowerCase(value));
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
    return matchPlan(plan, asciiLowerCase(value));
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
      part.kind === 'star' ? undefined : caseSensitive ? part.bytes : asciiLowerCase(part.bytes),
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

/**
 * Lower-cases ASCII letters only. `toLowerCase` does exactly that on a binary string unless it holds one of
 * the Latin-1 capitals (bytes 0xC0 to 0xDE), which it would fold too.
 */
function asciiLowerCase(s: string): string {
  // One pass decides: nothing to do (the common case, no allocation), plain toLowerCase, or ASCII only.
  let upper = false;
  let latin1Capital = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) upper = true;
    else if (c >= 0xc0 && c <= 0xde) latin1Capital = true;
  }
  if (!upper) return s;
  return latin1Capital ? s.replace(/[A-Z]+/g, (run) => run.toLowerCase()) : s.toLowerCase();
}
