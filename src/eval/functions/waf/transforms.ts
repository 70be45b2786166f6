import { asciiLower, asciiUpper, binaryOf } from '../../../scheme/values.js';
import { WAF_TRANSFORMATIONS, type WafTransformation } from '../../../scheme/waf-functions.js';
import { hexDigit } from '../runtime.js';
import { md5, sha1 } from './hashes.js';

/**
 * ModSecurity's transformation functions (`t:urlDecodeUni`, `t:lowercase`, …), as the OWASP Core Rule Set
 * applies them to a target before its operator runs. Values are binary strings (one char per byte, codes
 * 0–255) in and out: a decoder that meets a code point above 0xFF does what ModSecurity does with it (keeps
 * its low byte, see urlDecodeUni, jsDecode, cssDecode, htmlEntityDecode) — nothing here writes UTF-8.
 *
 * Semantics follow the ModSecurity v2 reference manual and, where it is silent, what ModSecurity does
 * (v2's msc_util.c and re_tfns.c, which v3 and Coraza largely follow). Where ModSecurity's behaviour is an
 * accident of C (reading the string's NUL terminator, stopping at a NUL byte, a byte dropped at the end)
 * we do the evident intent instead; each such place says so.
 *
 * Every function is linear in its input, never throws, and returns its input itself when there is nothing
 * to transform. Patterns used are single character classes (no backtracking).
 *
 * "Whitespace" is C's `isspace` in the C locale — space, \t, \n, \v, \f, \r — and, for compressWhitespace
 * and removeWhitespace only, also the non-breaking space 0xA0 (as documented). Letters are ASCII letters
 * only (`tolower` in the C locale).
 */

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const BANG = 0x21;
const DQUOTE = 0x22;
const HASH = 0x23;
const PERCENT = 0x25;
const AMP = 0x26;
const SQUOTE = 0x27;
const LPAREN = 0x28;
const STAR = 0x2a;
const PLUS = 0x2b;
const COMMA = 0x2c;
const DASH = 0x2d;
const SLASH = 0x2f;
const ZERO = 0x30;
const SEMICOLON = 0x3b;
const LT = 0x3c;
const BACKSLASH = 0x5c;
const CARET = 0x5e;
const NBSP = 0xa0;

/** C's isspace in the C locale. */
const isCSpace = (code: number): boolean => code === SPACE || (code >= TAB && code <= CR);
/** isspace, plus the non-breaking space. */
const isWhitespace = (code: number): boolean => isCSpace(code) || code === NBSP;
const isOctal = (code: number): boolean => code >= 0x30 && code <= 0x37;
const isDigit = (code: number): boolean => code >= 0x30 && code <= 0x39;
const isAlnum = (code: number): boolean =>
  isDigit(code) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
const isF = (code: number): boolean => (code | 0x20) === 0x66;

/** Two hex digits at `at` as a byte, or -1 (out of range reads NaN, which is not a digit). */
function hexByte(value: string, at: number): number {
  const high = hexDigit(value.charCodeAt(at));
  const low = hexDigit(value.charCodeAt(at + 1));
  return high < 0 || low < 0 ? -1 : high * 16 + low;
}

/** Whether the four chars at `at` are hex digits. */
const isHex4 = (value: string, at: number): boolean => hexByte(value, at) >= 0 && hexByte(value, at + 2) >= 0;

/**
 * The byte ModSecurity keeps for a 16-bit escape written as four hex digits at `at` (`%uHHHH`, `\uHHHH`):
 * the low byte, except that the full-width forms of ASCII, U+FF01–U+FF5E, become the ASCII character they
 * stand for (low byte + 0x20). Every other code point above 0xFF loses its high byte.
 */
function lowByteOfUnit(value: string, at: number): number {
  const low = hexByte(value, at + 2);
  const fullWidth = low > 0 && low < 0x5f && isF(value.charCodeAt(at)) && isF(value.charCodeAt(at + 1));
  return fullWidth ? low + 0x20 : low;
}

/**
 * The bytes a transformation writes before making them a string (binaryOf), in one array kept for every
 * call and grown as needed: V8 makes a typed array of more than 64 bytes outside its heap, at some 2 µs each
 * time, and the managed rules' cmdLine and base64Decode made about ten a request. The string copies the
 * bytes, so the next call may write over them.
 */
let scratch = new Uint8Array(4096);
/** A larger value (a body of megabytes) gets an array of its own, so that the process does not keep one. */
const SCRATCH_LIMIT = 1 << 20;

function scratchBytes(size: number): Uint8Array {
  if (size > SCRATCH_LIMIT) return new Uint8Array(size);
  if (scratch.length < size)
    scratch = new Uint8Array(Math.min(SCRATCH_LIMIT, Math.max(size, 2 * scratch.length)));
  return scratch;
}

// ——— Case ———

/** ASCII letters only (ModSecurity's `tolower` in the C locale); Latin-1 letters stay as they are. */
const lowercase = asciiLower;

/** ModSecurity v3 and Coraza only (v2 has no uppercase); ASCII letters only. */
const uppercase = asciiUpper;

// ——— URL encoding ———

/**
 * urlDecode and urlDecodeUni: `%HH` becomes the byte, `+` a space; an escape that is not valid (a
 * non-hex digit, or cut short at the end) is kept as it is, the `%` included, and decoding goes on right
 * after the `%` (`%%41` → `%A`). urlDecodeUni also reads IIS's `%uHHHH` (`u` or `U`) as one byte, as
 * ModSecurity does without a Unicode map: the low byte, full-width ASCII folded (`%uff1c` → `<`), so
 * `%u263a` gives `:`. (ModSecurity can be given a "best fit" map with SecUnicodeMapFile; we apply none.)
 */
function percentDecode(value: string, unicode: boolean): string {
  if (value.indexOf('%') < 0 && value.indexOf('+') < 0) return value;
  const n = value.length;
  let out = '';
  let run = 0;
  for (let i = 0; i < n; i++) {
    const code = value.charCodeAt(i);
    if (code === PLUS) {
      out += `${value.slice(run, i)} `;
      run = i + 1;
    } else if (code === PERCENT) {
      const next = value.charCodeAt(i + 1) | 0x20;
      if (unicode && next === 0x75 /* u */) {
        // An invalid %u escape keeps "%u" as text; the `u` is then an ordinary byte.
        if (!isHex4(value, i + 2)) continue;
        out += value.slice(run, i) + String.fromCharCode(lowByteOfUnit(value, i + 2));
        i += 5;
        run = i + 1;
      } else {
        const byte = hexByte(value, i + 1);
        if (byte < 0) continue;
        out += value.slice(run, i) + String.fromCharCode(byte);
        i += 2;
        run = i + 1;
      }
    }
  }
  return out + value.slice(run);
}

const urlDecode = (value: string): string => percentDecode(value, false);
const urlDecodeUni = (value: string): string => percentDecode(value, true);

/** The char codes of the lower-case hex digits. */
const HEX_CODES = Uint8Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));

/**
 * ModSecurity's urlEncode: a space becomes `+`; ASCII letters, digits and `*` stay; every other byte
 * becomes `%hh` in lower-case hex.
 */
function urlEncode(value: string): string {
  const n = value.length;
  let i = 0;
  while (i < n && (isAlnum(value.charCodeAt(i)) || value.charCodeAt(i) === STAR)) i++;
  if (i === n) return value;
  const bytes = scratchBytes(3 * n);
  let length = 0;
  for (let k = 0; k < i; k++) bytes[length++] = value.charCodeAt(k);
  for (; i < n; i++) {
    const code = value.charCodeAt(i) & 0xff;
    if (isAlnum(code) || code === STAR) {
      bytes[length++] = code;
    } else if (code === SPACE) {
      bytes[length++] = PLUS;
    } else {
      bytes[length++] = PERCENT;
      bytes[length++] = HEX_CODES[code >> 4] as number;
      bytes[length++] = HEX_CODES[code & 15] as number;
    }
  }
  return binaryOf(bytes, length);
}

// ——— HTML ———

/** The named entities ModSecurity decodes (case-insensitively): no others. */
const NAMED_ENTITIES: ReadonlyMap<string, number> = new Map([
  ['quot', 0x22],
  ['amp', 0x26],
  ['lt', 0x3c],
  ['gt', 0x3e],
  ['nbsp', NBSP],
]);

/**
 * The byte of a numeric entity whose digits are value[start, end): ModSecurity parses them with `strtol`
 * and keeps the low byte, so `&#x263a;` is `:` and `&#256;` a NUL; a number beyond `strtol`'s range
 * (2^63 − 1 on the 64-bit systems ModSecurity runs on) is clamped to it, whose low byte is 0xFF.
 */
function numericEntityByte(value: string, start: number, end: number, radix: 10 | 16): number {
  let first = start;
  while (first < end - 1 && value.charCodeAt(first) === ZERO) first++;
  const limit = radix === 16 ? '7fffffffffffffff' : '9223372036854775807';
  const digits = end - first;
  if (digits > limit.length) return 0xff;
  if (digits === limit.length && value.slice(first, end).toLowerCase() > limit) return 0xff;
  let byte = 0;
  for (let i = first; i < end; i++) byte = (byte * radix + hexDigit(value.charCodeAt(i))) & 0xff;
  return byte;
}

/**
 * htmlEntityDecode: `&#DDD`, `&#xHH` (`x` or `X`, any number of digits) and the five named entities
 * ModSecurity knows (`&quot` `&amp` `&lt` `&gt` `&nbsp`, any case), each with or without its `;`, become
 * one byte. A name is the whole run of letters and digits after `&`, so `&ltscript` is not `&lt` followed
 * by `script`: it stays as it is, like every other unknown or malformed entity.
 */
function htmlEntityDecode(value: string): string {
  let i = value.indexOf('&');
  if (i < 0) return value;
  const n = value.length;
  let out = '';
  let run = 0;
  for (; i < n; i++) {
    if (value.charCodeAt(i) !== AMP) continue;
    let j = i + 1;
    let byte = -1;
    if (value.charCodeAt(j) === HASH) {
      j++;
      const hex = (value.charCodeAt(j) | 0x20) === 0x78; /* x */
      if (hex) j++;
      const start = j;
      while (j < n && (hex ? hexDigit(value.charCodeAt(j)) >= 0 : isDigit(value.charCodeAt(j)))) j++;
      if (j > start) byte = numericEntityByte(value, start, j, hex ? 16 : 10);
    } else {
      const start = j;
      while (j < n && isAlnum(value.charCodeAt(j))) j++;
      if (j - start >= 2 && j - start <= 4) {
        byte = NAMED_ENTITIES.get(value.slice(start, j).toLowerCase()) ?? -1;
      }
    }
    // Not an entity: the `&` stays, and the scan goes on after it (what follows holds no `&`).
    if (byte < 0) continue;
    if (value.charCodeAt(j) === SEMICOLON) j++;
    out += value.slice(run, i) + String.fromCharCode(byte);
    run = j;
    i = j - 1;
  }
  return run === 0 ? value : out + value.slice(run);
}

// ——— Backslash escapes ———

/** The C escapes `\a \b \f \n \r \t \v`, by the letter that follows the backslash. */
const C_ESCAPES: ReadonlyMap<number, number> = new Map([
  [0x61, 0x07],
  [0x62, 0x08],
  [0x66, 0x0c],
  [0x6e, 0x0a],
  [0x72, 0x0d],
  [0x74, 0x09],
  [0x76, 0x0b],
]);

/**
 * The value of up to three octal digits at `at` (the first is known to be one), and how many were read.
 * jsDecode reads a third digit only when the number stays within a byte (`\400` is `\40` then `0`);
 * escapeSeqDecode always reads three and keeps the low byte (`\666` is 0xB6), as ModSecurity does.
 */
function octal(value: string, at: number, withinByte: boolean): [byte: number, length: number] {
  let length = 1;
  while (length < 3 && isOctal(value.charCodeAt(at + length))) length++;
  if (withinByte && length === 3 && value.charCodeAt(at) > 0x33 /* 3 */) length = 2;
  let byte = 0;
  for (let k = 0; k < length; k++) byte = byte * 8 + (value.charCodeAt(at + k) - ZERO);
  return [byte & 0xff, length];
}

/**
 * jsDecode: `\uHHHH` (one byte, as for `%uHHHH`: the low byte, full-width ASCII folded), `\xHH`, octal
 * `\O` to `\OOO` (at most 0377), `\a \b \f \n \r \t \v`; any other escaped character stands for itself
 * (`\'` → `'`, `\\` → `\`, and so does the letter of a malformed escape: `\x4` → `x4`, `\u12` → `u12`).
 * `u` and `x` are lower-case only, as in JavaScript. A backslash ending the value stays.
 */
function jsDecode(value: string): string {
  let i = value.indexOf('\\');
  if (i < 0) return value;
  const n = value.length;
  let out = '';
  let run = 0;
  for (; i < n - 1; i++) {
    if (value.charCodeAt(i) !== BACKSLASH) continue;
    const next = value.charCodeAt(i + 1);
    let byte: number;
    let length: number;
    if (next === 0x75 /* u */ && isHex4(value, i + 2)) {
      byte = lowByteOfUnit(value, i + 2);
      length = 6;
    } else if (next === 0x78 /* x */ && hexByte(value, i + 2) >= 0) {
      byte = hexByte(value, i + 2);
      length = 4;
    } else if (isOctal(next)) {
      const [octalByte, digits] = octal(value, i + 1, true);
      byte = octalByte;
      length = 1 + digits;
    } else {
      byte = C_ESCAPES.get(next) ?? next;
      length = 2;
    }
    out += value.slice(run, i) + String.fromCharCode(byte);
    run = i + length;
    i = run - 1;
  }
  return run === 0 ? value : out + value.slice(run);
}

/**
 * escapeSeqDecode, ANSI C escapes: `\a \b \f \n \r \t \v \\ \? \' \"`, `\xHH` (`x` or `X`, two digits),
 * octal `\O` to `\OOO` (low byte). For any other escape — a malformed `\x` included — the backslash goes
 * and the character after it stays (`\8` → `8`, `\xZ` → `xZ`), which is what ModSecurity does, though its
 * manual says invalid encodings are "left in the output". A backslash ending the value stays.
 */
function escapeSeqDecode(value: string): string {
  let i = value.indexOf('\\');
  if (i < 0) return value;
  const n = value.length;
  let out = '';
  let run = 0;
  for (; i < n - 1; i++) {
    if (value.charCodeAt(i) !== BACKSLASH) continue;
    const next = value.charCodeAt(i + 1);
    let byte = C_ESCAPES.get(next) ?? -1;
    let length = 2;
    if (byte < 0 && (next | 0x20) === 0x78 /* x */ && hexByte(value, i + 2) >= 0) {
      byte = hexByte(value, i + 2);
      length = 4;
    } else if (byte < 0 && isOctal(next)) {
      const [octalByte, digits] = octal(value, i + 1, false);
      byte = octalByte;
      length = 1 + digits;
    } else if (byte < 0) {
      // \\ \? \' \" and every unrecognised escape: the character itself.
      byte = next;
    }
    out += value.slice(run, i) + String.fromCharCode(byte);
    run = i + length;
    i = run - 1;
  }
  return run === 0 ? value : out + value.slice(run);
}

/**
 * cssDecode, CSS 2 escapes: a backslash and 1–6 hex digits give one byte — the last two digits (one digit
 * alone is its value), with full-width ASCII folded when the number is U+FF01–U+FF5E written with four
 * digits (or five or six with leading zeros) — and one whitespace character after them is swallowed.
 * An escaped newline disappears (a line continuation), any other escaped character stands for itself
 * (`ja\vascript` → `javascript`), and a backslash ending the value is dropped.
 */
function cssDecode(value: string): string {
  let i = value.indexOf('\\');
  if (i < 0) return value;
  const n = value.length;
  let out = '';
  let run = 0;
  for (; i < n; i++) {
    if (value.charCodeAt(i) !== BACKSLASH) continue;
    out += value.slice(run, i);
    const at = i + 1;
    if (at >= n) {
      run = n;
      break;
    }
    let digits = 0;
    while (digits < 6 && hexDigit(value.charCodeAt(at + digits)) >= 0) digits++;
    if (digits > 0) {
      const last = at + digits;
      let byte = digits === 1 ? hexDigit(value.charCodeAt(at)) : hexByte(value, last - 2);
      const fullCheck =
        digits === 4 ||
        (digits === 5 && value.charCodeAt(at) === ZERO) ||
        (digits === 6 && value.charCodeAt(at) === ZERO && value.charCodeAt(at + 1) === ZERO);
      if (
        fullCheck &&
        byte > 0 &&
        byte < 0x5f &&
        isF(value.charCodeAt(last - 3)) &&
        isF(value.charCodeAt(last - 4))
      ) {
        byte += 0x20;
      }
      out += String.fromCharCode(byte);
      run = last < n && isCSpace(value.charCodeAt(last)) ? last + 1 : last;
    } else if (value.charCodeAt(at) === LF) {
      run = at + 1;
    } else {
      out += value[at];
      run = at + 1;
    }
    i = run - 1;
  }
  return run === 0 ? value : out + value.slice(run);
}

// ——— Whitespace and NUL bytes ———

/** compressWhitespace: each run of whitespace (0xA0 included) becomes one space. */
function compressWhitespace(value: string): string {
  const n = value.length;
  let out = '';
  let run = 0;
  for (let i = 0; i < n; i++) {
    if (!isWhitespace(value.charCodeAt(i))) continue;
    let end = i + 1;
    while (end < n && isWhitespace(value.charCodeAt(end))) end++;
    if (end > i + 1 || value.charCodeAt(i) !== SPACE) {
      out += `${value.slice(run, i)} `;
      run = end;
    }
    i = end - 1;
  }
  return run === 0 ? value : out + value.slice(run);
}

/** removeWhitespace: every whitespace character (0xA0 included) goes. */
function removeWhitespace(value: string): string {
  const n = value.length;
  let out = '';
  let run = 0;
  let changed = false;
  for (let i = 0; i < n; i++) {
    if (!isWhitespace(value.charCodeAt(i))) continue;
    out += value.slice(run, i);
    run = i + 1;
    changed = true;
  }
  return changed ? out + value.slice(run) : value;
}

const removeNulls = (value: string): string => (value.includes('\0') ? value.replaceAll('\0', '') : value);
const replaceNulls = (value: string): string => (value.includes('\0') ? value.replaceAll('\0', ' ') : value);

function trimLeft(value: string): string {
  let start = 0;
  while (start < value.length && isCSpace(value.charCodeAt(start))) start++;
  return start === 0 ? value : value.slice(start);
}

function trimRight(value: string): string {
  let end = value.length;
  while (end > 0 && isCSpace(value.charCodeAt(end - 1))) end--;
  return end === value.length ? value : value.slice(0, end);
}

const trim = (value: string): string => trimRight(trimLeft(value));

// ——— Comments ———

/**
 * The position of the next `terminator` at or after `from` (or -1), remembering earlier searches so that
 * a value with many comments is scanned once: a terminator found beyond `from` is still the next one, and
 * one not found from an earlier position is not found from a later one.
 */
function terminatorFinder(value: string, terminator: string): (from: number) => number {
  let found = -2;
  return (from) => {
    if (found !== -1 && found < from) found = value.indexOf(terminator, from);
    return found;
  };
}

/**
 * replaceComments: each C comment `/* … *\/` becomes one space (spaces are not compressed); an unterminated
 * comment, to the end of the value, too. A lone `*\/` is left alone.
 */
function replaceComments(value: string): string {
  let i = value.indexOf('/*');
  if (i < 0) return value;
  let out = '';
  let run = 0;
  while (i >= 0) {
    out += `${value.slice(run, i)} `;
    const close = value.indexOf('*/', i + 2);
    if (close < 0) return out;
    run = close + 2;
    i = value.indexOf('/*', run);
  }
  return out + value.slice(run);
}

/**
 * removeComments (which ModSecurity documents as unreliable): `/* … *\/` and `<!-- … -->` are
 * removed — inside one, either terminator ends it, as in ModSecurity — and an unterminated one is replaced
 * by a space. `--` or `#` outside a comment starts a line comment that runs to the end of the value (not to
 * the end of the line): the rest is dropped. ModSecurity also copies the byte right after a terminator
 * without looking at it (past the end, its NUL terminator, so `a/*b*\/` gives `a\0`); we go on scanning
 * from there instead.
 */
function removeComments(value: string): string {
  const n = value.length;
  const nextStarSlash = terminatorFinder(value, '*/');
  const nextArrow = terminatorFinder(value, '-->');
  let out = '';
  let run = 0;
  for (let i = 0; i < n; i++) {
    const code = value.charCodeAt(i);
    let bodyStart: number;
    if (code === SLASH && value.charCodeAt(i + 1) === STAR) {
      bodyStart = i + 2;
    } else if (code === LT && value.startsWith('!--', i + 1)) {
      bodyStart = i + 4;
    } else if (code === HASH || (code === DASH && value.charCodeAt(i + 1) === DASH)) {
      return out + value.slice(run, i);
    } else {
      continue;
    }
    out += value.slice(run, i);
    const starSlash = nextStarSlash(bodyStart);
    const arrow = nextArrow(bodyStart);
    if (starSlash < 0 && arrow < 0) return `${out} `;
    run = arrow < 0 || (starSlash >= 0 && starSlash < arrow) ? starSlash + 2 : arrow + 3;
    i = run - 1;
  }
  return run === 0 ? value : out + value.slice(run);
}

/** removeCommentsChar: the comment marks `/*`, `*\/`, `<!--`, `-->`, `--` and `#` are removed. */
function removeCommentsChar(value: string): string {
  const n = value.length;
  let out = '';
  let run = 0;
  for (let i = 0; i < n; i++) {
    const code = value.charCodeAt(i);
    const next = value.charCodeAt(i + 1);
    let length = 0;
    if (code === HASH) length = 1;
    else if ((code === SLASH && next === STAR) || (code === STAR && next === SLASH)) length = 2;
    else if (code === LT && next === BANG && value.startsWith('--', i + 2)) length = 4;
    else if (code === DASH && next === DASH) length = value.charCodeAt(i + 2) === 0x3e /* > */ ? 3 : 2;
    if (length === 0) continue;
    out += value.slice(run, i);
    run = i + length;
    i = run - 1;
  }
  return run === 0 ? value : out + value.slice(run);
}

// ——— Command lines and paths ———

/**
 * cmdLine, the documented steps in one pass: `\ " ' ^` are deleted; space, tab, CR, LF, `,` and `;` are
 * whitespace, each run of it written as one space (deleted characters do not end a run), and a space
 * right before `/` or `(` is deleted; ASCII letters are lower-cased. (ModSecurity v2 also stops at a NUL
 * byte; v3, like us, does not.)
 */
function cmdLine(value: string): string {
  const n = value.length;
  let start = 0;
  while (start < n && !cmdLineChangesAt(value, start)) start++;
  if (start === n) return value;
  // Up to `start` the output is the input, which ends in a space exactly when a run of it is open.
  const bytes = scratchBytes(n);
  for (let i = 0; i < start; i++) bytes[i] = value.charCodeAt(i);
  let length = start;
  let inSpace = start > 0 && value.charCodeAt(start - 1) === SPACE;
  for (let i = start; i < n; i++) {
    const code = value.charCodeAt(i) & 0xff;
    switch (code) {
      case BACKSLASH:
      case DQUOTE:
      case SQUOTE:
      case CARET:
        break;
      case SPACE:
      case TAB:
      case CR:
      case LF:
      case COMMA:
      case SEMICOLON:
        if (!inSpace) bytes[length++] = SPACE;
        inSpace = true;
        break;
      case SLASH:
      case LPAREN:
        if (inSpace) length--;
        inSpace = false;
        bytes[length++] = code;
        break;
      default:
        bytes[length++] = code >= 0x41 && code <= 0x5a ? code | 0x20 : code;
        inSpace = false;
    }
  }
  return binaryOf(bytes, length);
}

/** Whether cmdLine changes something at `at` (everything before being left as it is). */
function cmdLineChangesAt(value: string, at: number): boolean {
  const code = value.charCodeAt(at);
  switch (code) {
    case BACKSLASH:
    case DQUOTE:
    case SQUOTE:
    case CARET:
    case TAB:
    case CR:
    case LF:
    case COMMA:
    case SEMICOLON:
      return true;
    case SPACE: {
      const next = value.charCodeAt(at + 1);
      return next === SPACE || next === SLASH || next === LPAREN;
    }
    default:
      return code >= 0x41 && code <= 0x5a;
  }
}

/** Whether a path has an empty (`//`), `.` or `..` segment: if not, normalizing leaves it as it is. */
function hasSegmentsToNormalize(path: string): boolean {
  if (path.includes('//')) return true;
  for (let dot = path.indexOf('.'); dot >= 0; dot = path.indexOf('.', dot + 1)) {
    if (dot > 0 && path.charCodeAt(dot - 1) !== SLASH) continue;
    let end = dot + 1;
    if (path.charCodeAt(end) === 0x2e) end++;
    if (end === path.length || path.charCodeAt(end) === SLASH) return true;
  }
  return false;
}

/**
 * normalizePath (alias normalisePath), segment by segment: repeated slashes and `.` segments go, `..`
 * removes the segment before it. A `..` that has nothing left to remove is dropped in an absolute path (one
 * cannot go above the root: `/../etc/passwd` → `/etc/passwd`) and kept in a relative one (`../../x` stays,
 * `a/../../x` → `../x`). A trailing slash stays when there was one, a leading one too; a relative path that
 * normalizes to nothing gives the empty string (`./`, `a/..`), an absolute one `/`.
 *
 * ModSecurity does this in one pass over the bytes, and its pass has edges we do not copy: it takes any
 * segment ending in `..` (`x/ab../y`) for a back-reference, and it turns a path that goes back to the root
 * without a trailing slash (`/a/..`) into the empty string where we give `/`. Coraza, which uses Go's
 * path cleaning, agrees with us on both.
 */
function normalizePathOf(path: string): string {
  if (!hasSegmentsToNormalize(path)) return path;
  const absolute = path.charCodeAt(0) === SLASH;
  const kept: string[] = [];
  let upsKept = 0;
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment !== '..') kept.push(segment);
    else if (kept.length > upsKept) kept.pop();
    else if (!absolute) upsKept = kept.push('..');
  }
  const joined = kept.join('/');
  const trailing = kept.length > 0 && path.charCodeAt(path.length - 1) === SLASH ? '/' : '';
  return (absolute ? '/' : '') + joined + trailing;
}

const normalizePath = (value: string): string => normalizePathOf(value);

/** normalizePathWin (alias normalisePathWin): backslashes become slashes first, then normalizePath. */
function normalizePathWin(value: string): string {
  return normalizePathOf(value.includes('\\') ? value.replaceAll('\\', '/') : value);
}

// ——— Unicode ———

/** Whether the char at `at` is a byte in [low, high] (out of range reads NaN, which is in no range). */
function byteIn(value: string, at: number, low: number, high: number): boolean {
  const code = value.charCodeAt(at);
  return code >= low && code <= high;
}

/**
 * The length of the well-formed UTF-8 sequence that starts with `lead` at `at`, or 0: the ranges of the
 * Unicode standard's table of well-formed sequences, which exclude overlong forms, surrogates and code
 * points above U+10FFFF.
 */
function utf8SequenceLength(value: string, at: number, lead: number): number {
  if (lead < 0xc2 || lead > 0xf4) return 0;
  if (lead <= 0xdf) return byteIn(value, at + 1, 0x80, 0xbf) ? 2 : 0;
  if (lead <= 0xef) {
    const low = lead === 0xe0 ? 0xa0 : 0x80;
    const high = lead === 0xed ? 0x9f : 0xbf;
    return byteIn(value, at + 1, low, high) && byteIn(value, at + 2, 0x80, 0xbf) ? 3 : 0;
  }
  const low = lead === 0xf0 ? 0x90 : 0x80;
  const high = lead === 0xf4 ? 0x8f : 0xbf;
  const valid =
    byteIn(value, at + 1, low, high) &&
    byteIn(value, at + 2, 0x80, 0xbf) &&
    byteIn(value, at + 3, 0x80, 0xbf);
  return valid ? 4 : 0;
}

/**
 * utf8toUnicode: each well-formed multi-byte UTF-8 sequence becomes `%u` and its code point in lower-case
 * hex, at least four digits (`é` → `%u00e9`, `🍺` → `%u1f37a`); ASCII and bytes that start no well-formed
 * sequence stay as they are. (ModSecurity also keeps invalid bytes, but writes an extra raw byte after an
 * overlong form or a surrogate and loses NUL bytes; Coraza writes `%ufffd` for invalid bytes.)
 */
function utf8toUnicode(value: string): string {
  if (!/[\x80-\xff]/.test(value)) return value;
  const n = value.length;
  let out = '';
  let run = 0;
  for (let i = 0; i < n; i++) {
    const lead = value.charCodeAt(i);
    if (lead < 0xc2) continue;
    const length = utf8SequenceLength(value, i, lead);
    if (length === 0) continue;
    let codePoint = lead & (length === 2 ? 0x1f : length === 3 ? 0x0f : 0x07);
    for (let k = 1; k < length; k++) codePoint = (codePoint << 6) | (value.charCodeAt(i + k) & 0x3f);
    out += `${value.slice(run, i)}%u${codePoint.toString(16).padStart(4, '0')}`;
    run = i + length;
    i = run - 1;
  }
  return run === 0 ? value : out + value.slice(run);
}

// ——— Base64 and hex ———

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Base64 digit values by char code (standard alphabet), -1 elsewhere. */
const BASE64_DIGITS = (() => {
  const table = new Int8Array(256).fill(-1);
  for (let i = 0; i < BASE64_ALPHABET.length; i++) table[BASE64_ALPHABET.charCodeAt(i)] = i;
  return table;
})();

const base64Digit = (code: number): number => (code < 256 ? (BASE64_DIGITS[code] as number) : -1);

/**
 * Base64 digits to bytes: `skip` says whether a non-digit is skipped (base64DecodeExt) or ends the input
 * (base64Decode). A last group of two or three digits gives one or two bytes; a single digit gives none.
 */
function base64Bytes(value: string, skip: boolean): string {
  const bytes = scratchBytes(Math.ceil((value.length * 3) / 4));
  let length = 0;
  let bits = 0;
  let pending = 0;
  for (let i = 0; i < value.length; i++) {
    const digit = base64Digit(value.charCodeAt(i));
    if (digit < 0) {
      if (skip) continue;
      break;
    }
    bits = ((bits << 6) | digit) & 0xffffff;
    pending += 6;
    if (pending >= 8) {
      pending -= 8;
      bytes[length++] = (bits >> pending) & 0xff;
    }
  }
  return binaryOf(bytes, length);
}

/**
 * base64Decode, as ModSecurity's (APR's) decoder: the value's leading run of Base64 digits is decoded and
 * decoding stops at the first other byte — padding, a line break, or anything not in the standard alphabet
 * (`PHNjcmlwdD4=` → `<script>`, `PHNjcmlwd` → `<scrip`; nothing decodable gives the empty string). Coraza
 * skips line breaks instead.
 */
const base64Decode = (value: string): string => base64Bytes(value, false);

/**
 * base64DecodeExt, the forgiving decoder: every byte outside the standard alphabet is skipped, `=`
 * included, so `PH Nj.cm%lwdD4` still gives `<script>`. (ModSecurity also gives up, with an empty result,
 * on an `=` after the first digit of a group; we just skip it.)
 */
const base64DecodeExt = (value: string): string => base64Bytes(value, true);

/** base64Encode: standard alphabet, with padding. */
function base64Encode(value: string): string {
  const n = value.length;
  const bytes = scratchBytes(Math.ceil(n / 3) * 4);
  const digit = (index: number): number => BASE64_ALPHABET.charCodeAt(index);
  let length = 0;
  for (let i = 0; i < n; i += 3) {
    const b0 = value.charCodeAt(i) & 0xff;
    const b1 = i + 1 < n ? value.charCodeAt(i + 1) & 0xff : 0;
    const b2 = i + 2 < n ? value.charCodeAt(i + 2) & 0xff : 0;
    bytes[length++] = digit(b0 >> 2);
    bytes[length++] = digit(((b0 & 3) << 4) | (b1 >> 4));
    bytes[length++] = i + 1 < n ? digit(((b1 & 15) << 2) | (b2 >> 6)) : 0x3d; /* = */
    bytes[length++] = i + 2 < n ? digit(b2 & 63) : 0x3d;
  }
  return binaryOf(bytes, length);
}

/** hexEncode: each byte as two lower-case hex digits. */
function hexEncode(value: string): string {
  const bytes = scratchBytes(2 * value.length);
  for (let i = 0; i < value.length; i++) {
    const byte = value.charCodeAt(i) & 0xff;
    bytes[2 * i] = HEX_CODES[byte >> 4] as number;
    bytes[2 * i + 1] = HEX_CODES[byte & 15] as number;
  }
  return binaryOf(bytes, 2 * value.length);
}

/** A hex digit as ModSecurity's `x2c` reads it, which checks nothing: `A`–`Z` and above count from 10. */
const looseHexDigit = (code: number): number =>
  (code >= 0x41 ? (code & 0xdf) - 0x41 + 10 : code - ZERO) & 0xff;

/**
 * hexDecode: every two bytes become one, read as hex digits; an odd last byte is dropped. Like ModSecurity
 * (and unlike Coraza, which fails), non-hex bytes are not rejected but go through the same arithmetic
 * (`zz` → `S`), so the result is always defined.
 */
function hexDecode(value: string): string {
  const length = value.length >> 1;
  const bytes = scratchBytes(length);
  for (let k = 0; k < length; k++) {
    const high = looseHexDigit(value.charCodeAt(2 * k));
    const low = looseHexDigit(value.charCodeAt(2 * k + 1));
    bytes[k] = (high * 16 + low) & 0xff;
  }
  return binaryOf(bytes, length);
}

/**
 * sqlHexDecode: a SQL hex literal, `0x` or `0X` followed by at least one pair of hex digits, becomes the
 * bytes of its pairs (`0x414243` → `ABC`; an odd last digit stays, `0x414` → `A4`); any other `0x` stays.
 * ModSecurity v2 does not look at the byte right after a literal (so `0x410x42` keeps its second literal)
 * and stops at a NUL byte; we decode every literal and read the whole value.
 */
function sqlHexDecode(value: string): string {
  const n = value.length;
  let out = '';
  let run = 0;
  for (let i = value.indexOf('0'); i >= 0 && i < n; i = value.indexOf('0', i + 1)) {
    if ((value.charCodeAt(i + 1) | 0x20) !== 0x78 /* x */) continue;
    let end = i + 2;
    let decoded = '';
    for (let byte = hexByte(value, end); byte >= 0; byte = hexByte(value, end)) {
      decoded += String.fromCharCode(byte);
      end += 2;
    }
    if (decoded === '') continue;
    out += value.slice(run, i) + decoded;
    run = end;
    i = end - 1;
  }
  return run === 0 ? value : out + value.slice(run);
}

// ——— The catalogue ———

const identity = (value: string): string => value;

// Typed by the scheme's list of names (what the checker accepts), so that each has exactly one function.
const CATALOGUE: Record<WafTransformation, (value: string) => string> = {
  none: identity,
  lowercase,
  uppercase,
  urlDecode,
  urlDecodeUni,
  urlEncode,
  htmlEntityDecode,
  jsDecode,
  cssDecode,
  escapeSeqDecode,
  compressWhitespace,
  removeWhitespace,
  removeNulls,
  replaceNulls,
  trim,
  trimLeft,
  trimRight,
  removeComments,
  replaceComments,
  removeCommentsChar,
  cmdLine,
  normalizePath,
  normalisePath: normalizePath,
  normalizePathWin,
  normalisePathWin: normalizePathWin,
  utf8toUnicode,
  base64Decode,
  base64DecodeExt,
  base64Encode,
  hexDecode,
  hexEncode,
  sqlHexDecode,
  length: (value: string): string => String(value.length),
  md5,
  sha1,
};

/** The transformation names, spelled as ModSecurity/CRS spell them (src/scheme/waf-functions.ts). */
export type TransformationName = WafTransformation;

/** One transformation: binary string in, binary string out. */
export const TRANSFORMATIONS: Readonly<Record<TransformationName, (value: string) => string>> =
  Object.freeze(CATALOGUE);

export const TRANSFORMATION_NAMES: readonly TransformationName[] = WAF_TRANSFORMATIONS;

/** Whether `name` is a transformation, spelled exactly (ModSecurity's own lookup is case-insensitive). */
export function isTransformationName(name: string): name is TransformationName {
  return Object.hasOwn(TRANSFORMATIONS, name);
}
