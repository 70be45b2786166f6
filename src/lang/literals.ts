import { type DiagnosticCode, type Message, message } from './catalogue.js';

/**
 * Scanners for the literal forms whose syntax does not depend on types: quoted strings, raw strings,
 * quoted regex strings, list names, array indexes. Each returns the decoded value and where it ends, or a
 * problem with the reference engine's message and span. Values are binary strings (one char per byte).
 */

export interface ScanProblem {
  /** What was being read decides the code: a problem inside a string is an `invalid-string`, whatever its message. */
  code: DiagnosticCode;
  message: Message;
  start: number;
  /** End of the span; `undefined` means "the rest of the input" (carets run to the end of the line). */
  end?: number;
}

export type ScanResult<T> = { ok: true; value: T; end: number } | { ok: false; problem: ScanProblem };

export type ScanFailure = { ok: false; problem: ScanProblem };

/** A problem of `code` at `start` (to `end`, or the rest of the input). */
export const scanFailure = (
  code: DiagnosticCode,
  message: Message,
  start: number,
  end?: number,
): ScanFailure => ({ ok: false, problem: { code, message, start, end } });

const stringFailure = (text: Message, start: number, end?: number) =>
  scanFailure('invalid-string', text, start, end);

/** Appends the UTF-8 bytes of the code point at `text[index]` to `out`; returns the UTF-16 units used. */
function appendUtf8(text: string, index: number, out: string[]): number {
  const unit = text.charCodeAt(index);
  if (unit < 0x80) {
    out.push(text[index] as string);
    return 1;
  }
  let codePoint = text.codePointAt(index) as number;
  const units = codePoint > 0xffff ? 2 : 1;
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) codePoint = 0xfffd; // lone surrogate, as TextEncoder does
  if (codePoint < 0x800) {
    out.push(String.fromCharCode(0xc0 | (codePoint >> 6), 0x80 | (codePoint & 0x3f)));
  } else if (codePoint < 0x10000) {
    out.push(
      String.fromCharCode(
        0xe0 | (codePoint >> 12),
        0x80 | ((codePoint >> 6) & 0x3f),
        0x80 | (codePoint & 0x3f),
      ),
    );
  } else {
    out.push(
      String.fromCharCode(
        0xf0 | (codePoint >> 18),
        0x80 | ((codePoint >> 12) & 0x3f),
        0x80 | ((codePoint >> 6) & 0x3f),
        0x80 | (codePoint & 0x3f),
      ),
    );
  }
  return units;
}

/** Encodes source text as a binary string of its UTF-8 bytes. */
export function toBinary(text: string, from = 0, to = text.length): string {
  let ascii = true;
  for (let i = from; i < to; i++) {
    if (text.charCodeAt(i) >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return text.slice(from, to);
  const out: string[] = [];
  for (let i = from; i < to; ) i += appendUtf8(text, i, out);
  return out.join('');
}

/** Length (2–4) of the well-formed UTF-8 sequence starting at `i`, or 0 if there is none. */
export function utf8SequenceLength(bytes: string, i: number): number {
  const lead = bytes.charCodeAt(i);
  const at = (k: number) => bytes.charCodeAt(i + k); // NaN past the end, which fails every range test
  const cont = (k: number, lo = 0x80, hi = 0xbf) => at(k) >= lo && at(k) <= hi;
  if (lead >= 0xc2 && lead <= 0xdf) return cont(1) ? 2 : 0;
  if (lead >= 0xe0 && lead <= 0xef) {
    // E0 excludes overlong forms, ED excludes UTF-16 surrogates.
    const second = lead === 0xe0 ? cont(1, 0xa0) : lead === 0xed ? cont(1, 0x80, 0x9f) : cont(1);
    return second && cont(2) ? 3 : 0;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    // F0 excludes overlong forms, F4 caps the range at U+10FFFF.
    const second = lead === 0xf0 ? cont(1, 0x90) : lead === 0xf4 ? cont(1, 0x80, 0x8f) : cont(1);
    return second && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** Whether a binary string holds valid UTF-8. */
export function isValidUtf8(binary: string): boolean {
  for (let i = 0; i < binary.length; ) {
    const length = binary.charCodeAt(i) < 0x80 ? 1 : utf8SequenceLength(binary, i);
    if (length === 0) return false;
    i += length;
  }
  return true;
}

/**
 * Parses `digits` as an unsigned byte in `radix`, the way Rust's `u8::from_str_radix` does (an optional
 * leading `+`, then at least one digit). Returns the value or the Rust error.
 */
function parseByte(digits: string, radix: 8 | 16): number | Message {
  const body = digits.startsWith('+') ? digits.slice(1) : digits;
  if (body === '') return message('invalidDigit', { radix });
  let value = 0;
  for (const ch of body) {
    const digit = Number.parseInt(ch, radix);
    if (Number.isNaN(digit) || ch.length !== 1) return message('invalidDigit', { radix });
    value = value * radix + digit;
  }
  return value > 255 ? message('numberTooLarge', { radix }) : value;
}

/** Takes `count` code points from `text` at `from` (bounded by `end`): the slice end, or how many there were. */
function takeCodePoints(
  text: string,
  from: number,
  end: number,
  count: number,
): { to: number; found: number } {
  let i = from;
  let found = 0;
  while (found < count && i < end) {
    i += (text.codePointAt(i) as number) > 0xffff ? 2 : 1;
    found++;
  }
  return { to: Math.min(i, end), found };
}

/**
 * A quoted string starting at the `"` at `start`: escapes `\"`, `\\`, `\xHH` and `\OOO`; any other escape is
 * an error. Raw newlines are kept.
 */
export function scanQuotedString(text: string, start: number, end: number): ScanResult<string> {
  const contentStart = start + 1;
  // Most strings have no escape: their content is one run, read without the loop's array and closure.
  const close = text.indexOf('"', contentStart);
  if (close >= 0 && close < end && !hasBackslash(text, contentStart, close))
    return { ok: true, value: toBinary(text, contentStart, close), end: close + 1 };
  let i = contentStart;
  let runStart = i;
  const out: string[] = [];
  const flushRun = (to: number) => {
    if (to > runStart) out.push(toBinary(text, runStart, to));
  };
  while (i < end) {
    const unit = text.charCodeAt(i);
    if (unit === 0x22 /* " */) {
      flushRun(i);
      return { ok: true, value: out.join(''), end: i + 1 };
    }
    if (unit !== 0x5c /* \ */) {
      i++;
      continue;
    }
    flushRun(i);
    const escaped = text.charCodeAt(i + 1);
    if (i + 1 >= end) break;
    if (escaped === 0x22 || escaped === 0x5c) {
      out.push(text[i + 1] as string);
      i += 2;
    } else if (escaped === 0x78 /* x */ || (escaped >= 0x30 && escaped <= 0x37) /* 0-7 */) {
      const isHex = escaped === 0x78;
      const digitsStart = isHex ? i + 2 : i + 1;
      const wanted = isHex ? 2 : 3;
      const { to, found } = takeCodePoints(text, digitsStart, end, wanted);
      if (found < wanted) return stringFailure(message('expectedCharacters', { wanted, found }), digitsStart);
      const byte = parseByte(text.slice(digitsStart, to), isHex ? 16 : 8);
      if (typeof byte !== 'number') return stringFailure(byte, digitsStart, to);
      out.push(String.fromCharCode(byte));
      i = to;
    } else {
      const width = (text.codePointAt(i + 1) as number) > 0xffff ? 2 : 1;
      return stringFailure(message('unknownEscape'), i + 1, i + 1 + width);
    }
    runStart = i;
  }
  return stringFailure(message('noEndingQuote'), contentStart);
}

/** Whether text[from, to) holds a backslash (searched within the range only: a text may hold thousands of strings). */
function hasBackslash(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 0x5c) return true;
  return false;
}

/** A raw string `r#…#"…"#…#` whose `r` is at `start`. Returns the content and the number of `#`. */
export function scanRawString(
  text: string,
  start: number,
  end: number,
): ScanResult<{ value: string; hashes: number }> {
  const afterR = start + 1;
  let i = afterR;
  while (i < end && text.charCodeAt(i) === 0x23 /* # */) i++;
  const hashes = i - afterR;
  if (hashes > 255) return stringFailure(message('rawHashCount'), afterR);
  if (i >= end || text.charCodeAt(i) !== 0x22) return stringFailure(message('expectedRawQuote'), i);
  const contentStart = i + 1;
  for (let q = text.indexOf('"', contentStart); q !== -1 && q < end; q = text.indexOf('"', q + 1)) {
    let closing = 0;
    while (closing < hashes && q + 1 + closing < end && text.charCodeAt(q + 1 + closing) === 0x23) closing++;
    if (closing === hashes)
      return { ok: true, value: { value: toBinary(text, contentStart, q), hashes }, end: q + 1 + hashes };
  }
  return stringFailure(message('noEndingQuote'), afterR);
}

/**
 * The quoted string after `matches`: every escape is kept for the regex engine except `\"` outside a
 * character class, and a `"` inside `[…]` does not end the string.
 */
export function scanQuotedRegex(text: string, start: number, end: number): ScanResult<string> {
  const contentStart = start + 1;
  let inClass = false;
  const out: string[] = [];
  let runStart = contentStart;
  for (let i = contentStart; i < end; i++) {
    const unit = text.charCodeAt(i);
    if (unit === 0x5c /* \ */) {
      if (i + 1 >= end) break;
      if (!inClass && text.charCodeAt(i + 1) === 0x22) {
        out.push(toBinary(text, runStart, i));
        runStart = i + 1; // drop the backslash, keep the quote
      }
      i += (text.codePointAt(i + 1) as number) > 0xffff ? 2 : 1;
    } else if (unit === 0x22 && !inClass) {
      out.push(toBinary(text, runStart, i));
      return { ok: true, value: out.join(''), end: i + 1 };
    } else if (unit === 0x5b /* [ */ && !inClass) {
      inClass = true;
    } else if (unit === 0x5d /* ] */ && inClass) {
      inClass = false;
    }
  }
  return stringFailure(message('noEndingQuote'), contentStart);
}

const isListNameChar = (unit: number): boolean =>
  (unit >= 0x61 && unit <= 0x7a) || (unit >= 0x30 && unit <= 0x39) || unit === 0x5f || unit === 0x2e;

/**
 * A list name after the `$` at `start`: `[a-z0-9_.]+`, not starting or ending with a dot. As in the
 * reference engine, reading stops at the first other character; when there is no name at all the error
 * names that character.
 */
export function scanListName(text: string, start: number, end: number): ScanResult<string> {
  let i = start + 1;
  while (i < end && isListNameChar(text.charCodeAt(i))) i++;
  let name = text.slice(start + 1, i);
  if (name === '' && i < end) name = String.fromCodePoint(text.codePointAt(i) as number);
  if (i === start + 1 || name.startsWith('.') || name.endsWith('.')) {
    return scanFailure(
      'invalid-list-name',
      message('invalidListName', { name: JSON.stringify(name) }),
      start + 1,
    );
  }
  return { ok: true, value: name, end: i };
}

export const isHexDigit = (unit: number): boolean =>
  (unit >= 0x30 && unit <= 0x39) || (unit >= 0x61 && unit <= 0x66) || (unit >= 0x41 && unit <= 0x46);

/**
 * An array index: a decimal, `0x` hexadecimal or leading-zero octal integer that fits in 32 bits unsigned.
 */
export function scanArrayIndex(text: string, start: number, end: number): ScanResult<number> {
  let i = start;
  const negative = text.charCodeAt(i) === 0x2d;
  if (negative) i++;
  let radix = 10;
  if (text.startsWith('0x', i)) {
    radix = 16;
    i += 2;
  } else if (text.charCodeAt(i) === 0x30 && isHexDigit(text.charCodeAt(i + 1))) {
    radix = 8;
    i += 1;
  }
  const digitsStart = i;
  while (i < end && isHexDigit(text.charCodeAt(i))) i++;
  const digits = text.slice(digitsStart, i);
  let value = 0n;
  let valid = digits.length > 0;
  for (const ch of digits) {
    const digit = Number.parseInt(ch, 16);
    if (digit >= radix) valid = false;
    value = value * BigInt(radix) + BigInt(digit);
  }
  if (value > 0x7fffffffffffffffn) valid = false; // not even a 64-bit integer
  if (!valid) return scanFailure('invalid-index', message('indexExpected'), start);
  if ((negative && value !== 0n) || value > 0xffffffffn)
    return scanFailure('invalid-index', message('indexNegative'), start);
  return { ok: true, value: Number(value), end: i };
}

/**
 * A neutral unquoted literal: the characters that can make up an integer, a range, an IP address, a
 * CIDR or a byte string (`[0-9A-Fa-f:./-]`, and `x` right after a leading `0` for hexadecimal). The checker
 * reads it by type; an empty result means there is no such literal here.
 */
export function scanBareLiteral(text: string, start: number, end: number): number {
  let i = start;
  while (i < end) {
    const unit = text.charCodeAt(i);
    if (isHexDigit(unit) || unit === 0x3a || unit === 0x2e || unit === 0x2f || unit === 0x2d) {
      i++;
    } else if (unit === 0x78 /* x */ && i > start && text.charCodeAt(i - 1) === 0x30) {
      const before = i - 2 >= start ? text.charCodeAt(i - 2) : -1;
      if (before !== -1 && before !== 0x2e && before !== 0x2d) break;
      i++;
    } else {
      break;
    }
  }
  return i;
}
