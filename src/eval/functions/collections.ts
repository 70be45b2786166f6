import type { Value } from '../../scheme/values.js';
import { type FunctionRuntime, isBytes, isIp, plain } from './runtime.js';

/** `has_key` and `has_value`, on the Map and Array values of src/scheme/values.ts. */

/** Structural equality of two run-time values (Ip by family and value, arrays and maps item by item). */
export function sameValue(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameValue(item, b[i] as Value));
  }
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    for (const [key, item] of a) {
      const other = b.get(key);
      if (other === undefined || !sameValue(item, other)) return false;
    }
    return true;
  }
  return isIp(a) && isIp(b) && a.family === b.family && a.value === b.value;
}

/** `has_key(map, key)`: whether the map has the key (header maps have lower-case keys). */
const hasKey = plain(([map, key]) => (map instanceof Map && isBytes(key) ? map.has(key) : undefined));

/**
 * `has_value(collection, value)`: whether an item of the array, or a value of the map, equals the value.
 * For a collection of arrays (a header map is Map<Array<Bytes>>) the checker also accepts a value of the
 * inner element type (src/check/arguments.ts), which Cloudflare's docs neither show nor rule out; we read
 * that as "one of the arrays holds the value", so an item that is an array also counts when one of its
 * elements equals the value. An item equal to the whole value counts too, so
 * has_value(Map<Array<Bytes>>, Array<Bytes>) compares whole arrays.
 */
const hasValue = plain(([collection, value]) => {
  if (value === undefined) return undefined;
  let items: Iterable<Value>;
  if (Array.isArray(collection)) items = collection;
  else if (collection instanceof Map) items = collection.values();
  else return undefined;
  for (const item of items) {
    if (sameValue(item, value)) return true;
    if (Array.isArray(item) && item.some((element) => sameValue(element, value))) return true;
  }
  return false;
});

export const collectionRuntimes: ReadonlyMap<string, FunctionRuntime> = new Map([
  ['has_key', hasKey],
  ['has_value', hasValue],
]);
