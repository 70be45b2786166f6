import { compileWildcard, type WildcardPart } from '../check/wildcard.js';
import { linearTimeSource } from '../regex/v8/linear.js';

/**
 * `wildcard` and `strict wildcard` at run time. The pattern becomes an anchored V8 RegExp (a star is any
 * run of bytes; without `strict`, each ASCII letter is the class of its two cases, so that Latin-1 letters
 * never fold), which V8 runs faster than searching the literals one by one (bench/eval.ts, E7). As for
 * `matches`, only if V8's linear engine accepts it: stars can make a backtracking search polynomial
 * (`*a*a*a*a*b`), and V8 then finishes it in linear time. Otherwise, the literal search of
 * check/wildcard.ts (linear too).
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
