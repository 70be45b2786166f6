import type { IpAddress } from './ip.js';

/**
 * Values at run time, one JS representation per type of the language:
 * - Bytes: a binary string, one JS character per byte (code units 0–255); text from JSON is UTF-8 encoded
 *   at the edge, so `len`, `substring`, `contains` and regexes have byte semantics;
 * - Int: a JS number holding an integer (request values stay far inside ±2^53; literals beyond that are
 *   compared as bigint, which JS compares with numbers exactly);
 * - Bool: boolean;
 * - Ip: `{ family: 4, value: number }` or `{ family: 6, value: bigint }` (IPv4-mapped IPv6 stays IPv6);
 * - Array<T>: a JS array of T;
 * - Map<T>: a `Map` from binary-string keys to T (never a plain object: no prototype lookups).
 * A missing value (absent field, index out of range, absent key, a function without a result) is
 * `undefined`.
 *
 * They live beside the types (types.ts) rather than in the evaluator because the sample-request reader
 * (src/request) produces them and must not depend on the evaluator that consumes them.
 */
export type Value = string | number | boolean | IpAddress | Value[] | ValueMap;

export type ValueMap = ReadonlyMap<string, Value>;

export type { IpAddress };

/** Node's Buffer where there is one (not in the browser). */
const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;

/** Text → binary string of its UTF-8 bytes (a lone surrogate becomes U+FFFD's, as TextEncoder writes it). */
export function bytesOf(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: testing for plain ASCII
  if (/^[\x00-\x7f]*$/.test(text)) return text;
  // Node encodes and reads the bytes back natively: ten times faster than the loop below on a body of a
  // kilobyte, which spreads each byte as an argument.
  if (NodeBuffer) return NodeBuffer.from(text, 'utf8').toString('latin1');
  const bytes = new TextEncoder().encode(text);
  return binaryOf(bytes, bytes.length);
}

/**
 * A binary string from the first `length` byte values of `bytes`. (Spreading the bytes into `fromCharCode`
 * costs five times as much as passing them with `apply`, and twenty times Buffer's Latin-1 decoding on a
 * few hundred bytes.)
 */
export function binaryOf(bytes: Uint8Array, length: number): string {
  if (NodeBuffer) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, length).toString('latin1');
  let out = '';
  // In slices small enough for `fromCharCode`'s argument list.
  for (let start = 0; start < length; start += 8192) {
    out += String.fromCharCode.apply(
      null,
      bytes.subarray(start, Math.min(start + 8192, length)) as unknown as number[],
    );
  }
  return out;
}

/**
 * Binary string → its bytes. Node's Buffer reads them natively (a body of a kilobyte: 64 µs → 4 µs with
 * textOf, against a typed array filled by a callback per byte).
 */
export function bytesArrayOf(bytes: string): Uint8Array {
  return NodeBuffer ? NodeBuffer.from(bytes, 'latin1') : Uint8Array.from(bytes, (c) => c.charCodeAt(0));
}

const utf8Decoder = new TextDecoder();

/** Binary string → text (invalid UTF-8 becomes U+FFFD), for output. */
export function textOf(bytes: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: testing for plain ASCII
  if (/^[\x00-\x7f]*$/.test(bytes)) return bytes;
  return utf8Decoder.decode(bytesArrayOf(bytes));
}

/**
 * ASCII lower case. Returns the input itself when it has no upper-case ASCII letter, so the common case
 * allocates nothing (the reference engine does the same, engine-semantics §6). `toLowerCase` is exact on a
 * binary string unless it holds a Latin-1 capital (0xC0–0xDE), which it would fold too.
 */
export function asciiLower(bytes: string): string {
  if (!/[A-Z]/.test(bytes)) return bytes;
  return /[\xc0-\xde]/.test(bytes)
    ? bytes.replace(/[A-Z]+/g, (run) => run.toLowerCase())
    : bytes.toLowerCase();
}

/**
 * ASCII upper case; no allocation without a lower-case ASCII letter. `toUpperCase` would also change
 * Latin-1 letters, and turn 0xB5, 0xDF and 0xFF into characters outside the byte range (ß even becomes SS).
 */
export function asciiUpper(bytes: string): string {
  if (!/[a-z]/.test(bytes)) return bytes;
  return /[\xb5\xdf-\xff]/.test(bytes)
    ? bytes.replace(/[a-z]+/g, (run) => run.toUpperCase())
    : bytes.toUpperCase();
}
