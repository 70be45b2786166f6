import { type DiagnosticCode, type Message, message } from '../lang/catalogue.js';
import {
  isHexDigit,
  type ScanResult,
  scanFailure,
  scanQuotedString,
  scanRawString,
} from '../lang/literals.js';
import { type IpAddress, type IpRange, maxPrefixLength, networkRange, parseIpAddress } from '../scheme/ip.js';

/**
 * Readers for the literals whose syntax depends on the left side's type: integers, IP addresses and
 * ranges, and byte strings (which may be written as hex bytes `01:2e:f3`). They follow the reference
 * engine's lexer character for character, so that an invalid literal gets its message and span. Each
 * reads from `start` and stops at `end` (the end of the trimmed input); a problem without `end` spans the
 * rest of the line.
 */

/** Each reader's problems have its code: an integer's are `invalid-integer` whatever the message. */
const failure = (code: DiagnosticCode) => (text: Message, start: number, end?: number) =>
  scanFailure(code, text, start, end);
const intFailure = failure('invalid-integer');
const ipFailure = failure('invalid-ip');
const bytesFailure = failure('invalid-bytes');
const rangeFailure = (start: number, end: number) =>
  scanFailure('invalid-range', message('rangeBounds'), start, end);

const I64_MAX = (1n << 63n) - 1n;
const I64_MIN = -(1n << 63n);

/**
 * An i64: `0x` hexadecimal, leading `0` octal, otherwise decimal with an optional `-` (negative hex or
 * octal does not exist: `-0x10` is `-0` followed by text). The digits taken are all hex digits, so `10fe`
 * is an invalid decimal rather than `10` followed by text.
 */
export function scanInt(text: string, start: number, end: number): ScanResult<bigint> {
  const negative = text.charCodeAt(start) === 0x2d; /* - */
  const first = negative ? start + 1 : start;
  let radix = 10;
  let digitsStart = first;
  if (!negative && text.startsWith('0x', first)) {
    radix = 16;
    digitsStart = first + 2;
  } else if (!negative && text.charCodeAt(first) === 0x30 /* 0 */) {
    radix = 8;
  }
  let i = digitsStart;
  while (i < end && isHexDigit(text.charCodeAt(i))) i++;
  if (i === digitsStart) return intFailure(message('expectedDigit'), digitsStart);
  const digits = text.slice(digitsStart, i);
  const errorStart = negative ? start : digitsStart;
  for (const digit of digits) {
    if (Number.parseInt(digit, 16) >= radix)
      return intFailure(message('invalidDigit', { radix }), errorStart, i);
  }
  const magnitude =
    radix === 16 ? BigInt(`0x${digits}`) : radix === 8 ? BigInt(`0o${digits}`) : BigInt(digits);
  const value = negative ? -magnitude : magnitude;
  if (value > I64_MAX) return intFailure(message('numberTooLarge', { radix }), errorStart, i);
  if (value < I64_MIN) return intFailure(message('numberTooSmall', { radix }), errorStart, i);
  return { ok: true, value, end: i };
}

/** A set item of an Int set: `n` or the inclusive range `a..b`. */
export function scanIntSetItem(text: string, start: number, end: number): ScanResult<[bigint, bigint]> {
  const from = scanInt(text, start, end);
  if (!from.ok) return from;
  if (!text.startsWith('..', from.end)) return { ok: true, value: [from.value, from.value], end: from.end };
  const to = scanInt(text, from.end + 2, end);
  if (!to.ok) return to;
  if (to.value < from.value) return rangeFailure(start, to.end);
  return { ok: true, value: [from.value, to.value], end: to.end };
}

const isIpChar = (unit: number): boolean =>
  isHexDigit(unit) || unit === 0x3a || unit === 0x2e || unit === 0x2f;

const invalidAddress = (start: number, end: number) => ipFailure(message('invalidAddress'), start, end);
const networkLength = (reason: string, start: number, end: number) =>
  ipFailure(message('invalidNetworkLength', { reason }), start, end);

/** The run of characters an IP literal may use: hex digits and `:./`. */
function ipRun(text: string, start: number, end: number): number {
  let i = start;
  while (i < end && isIpChar(text.charCodeAt(i))) i++;
  return i;
}

/** A single address (after eq, ne, lt…): a CIDR is not allowed here. */
export function scanIpAddress(text: string, start: number, end: number): ScanResult<IpAddress> {
  const runEnd = ipRun(text, start, end);
  if (runEnd === start) return ipFailure(message('expectedIpCharacter'), start);
  const address = parseIpAddress(text.slice(start, runEnd));
  if (!address) return invalidAddress(start, runEnd);
  return { ok: true, value: address, end: runEnd };
}

/** A set item of an Ip set: an address, a CIDR (host bits zero) or an explicit range `a..b`. */
export function scanIpSetItem(text: string, start: number, end: number): ScanResult<IpRange> {
  const runEnd = ipRun(text, start, end);
  if (runEnd === start) return ipFailure(message('expectedIpCharacter'), start);
  const run = text.slice(start, runEnd);
  const dots = run.indexOf('..');
  if (dots !== -1) {
    const from = parseIpAddress(run.slice(0, dots), true);
    if (!from) return invalidAddress(start, start + dots);
    const to = parseIpAddress(run.slice(dots + 2), true);
    if (!to) return invalidAddress(start + dots + 2, runEnd);
    if (from.family !== to.family || to.value < from.value) return rangeFailure(start, runEnd);
    return { ok: true, value: { from, to } as IpRange, end: runEnd };
  }
  const slash = run.indexOf('/');
  const addressText = slash === -1 ? run : run.slice(0, slash);
  const address = parseIpAddress(addressText, true);
  if (!address) return invalidAddress(start, start + addressText.length);
  if (slash === -1) return { ok: true, value: { from: address, to: address }, end: runEnd };
  const lengthText = run.slice(slash + 1);
  const lengthStart = start + slash + 1;
  if (lengthText === '') return networkLength('cannot parse integer from empty string', lengthStart, runEnd);
  if (!/^[0-9]+$/.test(lengthText))
    return networkLength('invalid digit found in string', lengthStart, runEnd);
  const length = Number(lengthText);
  if (length > 255) return networkLength('number too large to fit in target type', lengthStart, runEnd);
  const max = maxPrefixLength(address.family);
  if (length > max) {
    const family = address.family === 4 ? 'Ipv4' : 'Ipv6';
    return ipFailure(message('networkTooLong', { length, family, max }), start, runEnd);
  }
  const range = networkRange(address, length);
  if (range === 'host-bits') return ipFailure(message('hostBits'), start, start + addressText.length);
  return { ok: true, value: range, end: runEnd };
}

const isByteSeparator = (unit: number): boolean => unit === 0x3a || unit === 0x2d || unit === 0x2e;

/** Two hex digits as one byte. */
function hexByte(text: string, start: number, end: number): ScanResult<number> {
  const available = Math.min(2, end - start);
  if (available < 2)
    return bytesFailure(
      message('expectedCharacters', { wanted: 2, found: available }),
      start,
      start + available,
    );
  const high = text.charCodeAt(start);
  const low = text.charCodeAt(start + 1);
  if (!isHexDigit(high) || !isHexDigit(low))
    return bytesFailure(message('invalidDigit', { radix: 16 }), start, start + 2);
  return { ok: true, value: Number.parseInt(text.slice(start, start + 2), 16), end: start + 2 };
}

/**
 * Hex bytes `01:2e:f3` (separators `:`, `-` or `.`, mixed freely). A separator must follow the first
 * byte, so there are at least two; the literal ends at the first byte not followed by a separator.
 */
export function scanHexBytes(text: string, start: number, end: number): ScanResult<string> {
  const bytes: number[] = [];
  let byte = hexByte(text, start, end);
  if (!byte.ok) return byte;
  bytes.push(byte.value);
  let i = byte.end;
  if (i >= end) return bytesFailure(message('expectedCharacters', { wanted: 1, found: 0 }), i, i);
  if (!isByteSeparator(text.charCodeAt(i))) return bytesFailure(message('byteSeparator'), i, i + 1);
  i++;
  for (;;) {
    byte = hexByte(text, i, end);
    if (!byte.ok) return byte;
    bytes.push(byte.value);
    i = byte.end;
    if (i >= end || !isByteSeparator(text.charCodeAt(i))) break;
    i++;
  }
  return { ok: true, value: String.fromCharCode(...bytes), end: i };
}

/** A Bytes literal: a quoted string, a raw string or hex bytes. The value is a binary string. */
export function scanBytes(text: string, start: number, end: number): ScanResult<string> {
  if (start >= end) return scanFailure('unrecognised-input', message('unrecognisedInput'), start);
  const unit = text.charCodeAt(start);
  if (unit === 0x22 /* " */) return scanQuotedString(text, start, end);
  if (unit === 0x72 /* r */) {
    const raw = scanRawString(text, start, end);
    return raw.ok ? { ok: true, value: raw.value.value, end: raw.end } : raw;
  }
  return scanHexBytes(text, start, end);
}
