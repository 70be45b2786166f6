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

/** Text → binary string of its UTF-8 bytes. */
export function bytesOf(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: testing for plain ASCII
  if (/^[\x00-\x7f]*$/.test(text)) return text;
  const bytes = new TextEncoder().encode(text);
  let out = '';
  // In chunks: spreading a large array into one call would overflow the stack.
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return out;
}

/** Binary string → text (invalid UTF-8 becomes U+FFFD), for output. */
export function textOf(bytes: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: testing for plain ASCII
  if (/^[\x00-\x7f]*$/.test(bytes)) return bytes;
  return new TextDecoder().decode(Uint8Array.from(bytes, (c) => c.charCodeAt(0)));
}
