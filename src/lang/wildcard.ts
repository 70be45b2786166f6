import { type Message, message } from './catalogue.js';

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
 *
 * The pattern syntax is part of the language, so it lives here, below both of its readers: the checker
 * reports its errors, the evaluator matches values with its parts (src/eval/wildcard.ts, wildcard_replace).
 */

/** A pattern as a sequence of literal byte runs (binary strings) and stars; no two stars are adjacent. */
export type WildcardPart = { kind: 'literal'; bytes: string } | { kind: 'star' };

export type ParsedWildcard = { ok: true; parts: WildcardPart[] } | { ok: false; message: Message };

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
    return { ok: false, message: message('wildcardStars', { stars, limit: starLimit }) };
  }
  if (doubleStar) return { ok: false, message: message('wildcardDoubleStar') };
  return { ok: true, parts };
}

function syntaxError(position: number, reason: string): ParsedWildcard {
  return { ok: false, message: message('wildcardSyntax', { position, reason }) };
}
