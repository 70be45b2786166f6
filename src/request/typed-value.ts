import { parseIpAddress } from '../scheme/ip.js';
import { type Type, typeName } from '../scheme/types.js';
import { bytesOf, type Value } from '../scheme/values.js';
import { decodeBase64 } from './encoding.js';
import { describe, entriesOf, indexPath, isRecord, keyPath, type Problems } from './json.js';

/**
 * JSON → run-time value of a given type (src/scheme/values.ts): a Bytes value is a string (UTF-8) or
 * `{"base64": "…"}` for bytes that are not UTF-8 text, Int an integer number, Bool a boolean, Ip an address
 * string (strict, as after `eq`), Array<T> an array, Map<T> an object. Reports every bad value found
 * (with its path) and returns undefined when there was one.
 */
export function readTypedValue(
  json: unknown,
  type: Type,
  path: string,
  problems: Problems,
): Value | undefined {
  const before = problems.count;
  const value = convert(json, type, path, problems);
  return problems.count === before ? value : undefined;
}

function convert(json: unknown, type: Type, path: string, problems: Problems): Value | undefined {
  const expected = (what: string): undefined => {
    problems.add(path, `expected ${what} (${typeName(type)}), got ${describe(json)}`);
    return undefined;
  };
  if (typeof type === 'object') {
    if ('array' in type) {
      if (!Array.isArray(json)) return expected('an array');
      const out: Value[] = [];
      json.forEach((item, i) => {
        const value = convert(item, type.array, indexPath(path, i), problems);
        if (value !== undefined) out.push(value);
      });
      return out;
    }
    if (!isRecord(json)) return expected('an object');
    const out = new Map<string, Value>();
    for (const [key, item] of entriesOf(json)) {
      const value = convert(item, type.map, keyPath(path, key), problems);
      if (value !== undefined) out.set(bytesOf(key), value);
    }
    return out;
  }
  switch (type) {
    case 'Bytes':
      return readBytes(json, path, problems);
    case 'Int':
      if (typeof json !== 'number' || !Number.isInteger(json)) return expected('an integer');
      if (!Number.isSafeInteger(json)) {
        problems.add(path, `integer out of range: ${json} (Int values here must be within ±(2^53 - 1))`);
        return undefined;
      }
      return json;
    case 'Bool':
      return typeof json === 'boolean' ? json : expected('true or false');
    case 'Ip':
      return readIp(json, path, problems);
  }
}

/** A Bytes value: a string (its UTF-8 bytes), or `{"base64": "…"}` (exact bytes). */
export function readBytes(json: unknown, path: string, problems: Problems): string | undefined {
  if (typeof json === 'string') return bytesOf(json);
  if (isRecord(json) && Object.keys(json).length === 1 && Object.hasOwn(json, 'base64')) {
    return readBase64(json.base64, keyPath(path, 'base64'), problems);
  }
  problems.add(path, `expected a string (Bytes), got ${describe(json)}`);
  return undefined;
}

export function readBase64(json: unknown, path: string, problems: Problems): string | undefined {
  if (typeof json !== 'string') {
    problems.add(path, `expected a base64 string, got ${describe(json)}`);
    return undefined;
  }
  const bytes = decodeBase64(json);
  if (bytes === undefined) {
    problems.add(path, 'not valid base64 (letters, digits, + and / or - and _, = padding; no spaces)');
  }
  return bytes;
}

export function readIp(json: unknown, path: string, problems: Problems) {
  if (typeof json !== 'string') {
    problems.add(path, `expected an IP address string (Ip), got ${describe(json)}`);
    return undefined;
  }
  const address = parseIpAddress(json);
  if (!address) {
    problems.add(
      path,
      `${describe(json)} is not a valid IPv4 or IPv6 address (no leading zeros, no prefix length)`,
    );
  }
  return address;
}
