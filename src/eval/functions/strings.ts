import { formatIp } from '../../scheme/ip.js';
import { asciiLower, asciiUpper, type Value } from '../../scheme/values.js';
import { builtFrom, type FunctionRuntime, isBytes, isInt, isIp, plain } from './runtime.js';

/**
 * Functions on Bytes (binary strings, one char per byte) and arrays: every offset and length is in bytes,
 * and case mapping touches ASCII letters only (rules-language §7, "lower / upper: ASCII bytes only").
 */

const lower = plain(([value]) => (isBytes(value) ? asciiLower(value) : undefined));
const upper = plain(([value]) => (isBytes(value) ? asciiUpper(value) : undefined));

const len = plain(([value]) => (isBytes(value) || Array.isArray(value) ? value.length : undefined));

const startsWith: FunctionRuntime = {
  prepare:
    ([, prefixLiteral]) =>
    ([source, prefixArgument]) => {
      const prefix = prefixLiteral ?? prefixArgument;
      return isBytes(source) && isBytes(prefix) ? source.startsWith(prefix) : undefined;
    },
};

const endsWith: FunctionRuntime = {
  prepare:
    ([, suffixLiteral]) =>
    ([source, suffixArgument]) => {
      const suffix = suffixLiteral ?? suffixArgument;
      return isBytes(source) && isBytes(suffix) ? source.endsWith(suffix) : undefined;
    },
};

/**
 * Byte offsets, end excluded, negative offsets counted from the end (rules-language §7 and the documented
 * examples: `substring("asdfghjk", 0, -2)` is `"asdfgh"`). Offsets beyond either end are clamped, as
 * `slice` does; Cloudflare documents no error case, so out-of-range offsets give a shorter (or empty)
 * result rather than a missing value.
 */
const substring = plain(([value, start, end]) => {
  if (!isBytes(value) || !isInt(start)) return undefined;
  if (end === undefined) return value.slice(start);
  return isInt(end) ? value.slice(start, end) : undefined;
});

/** A 256-entry table of the bytes to remove. */
function byteTable(bytes: Value): Uint8Array {
  const table = new Uint8Array(256);
  if (isBytes(bytes)) for (let i = 0; i < bytes.length; i++) table[bytes.charCodeAt(i) & 0xff] = 1;
  return table;
}

/** Removes every occurrence of each listed byte (`remove_bytes(http.host, "\x2e\x77")`). */
const removeBytes: FunctionRuntime = {
  prepare([, bytesLiteral]) {
    const tableOf = builtFrom(bytesLiteral, byteTable);
    return ([value, bytesArgument]) => {
      const table = tableOf(bytesArgument);
      if (!isBytes(value) || !table) return undefined;
      let out = '';
      let runStart = 0;
      for (let i = 0; i < value.length; i++) {
        if (table[value.charCodeAt(i)] === 1) {
          out += value.slice(runStart, i);
          runStart = i + 1;
        }
      }
      // Nothing removed: the input itself, without a copy.
      return runStart === 0 ? value : out + value.slice(runStart);
    };
  },
};

/**
 * Strings, or arrays into one array. Unlike other functions, a missing argument does not make the result
 * missing: it counts as empty (rules-language §4, "concat() treats a missing arg as empty string").
 * Whether the call concatenates Bytes or arrays is known from the present arguments; when all are
 * missing it comes from the return type the compiler passes (an empty array for Array calls), and without
 * one the documented Bytes case ("") is assumed.
 */
const concat: FunctionRuntime = {
  prepare(_literals, context) {
    const arraysExpected = context?.returnType !== undefined && typeof context.returnType !== 'string';
    return (args) => {
      let arrays: boolean | undefined;
      for (const arg of args) {
        if (arg !== undefined) {
          arrays = Array.isArray(arg);
          break;
        }
      }
      if (arrays ?? arraysExpected) {
        const out: Value[] = [];
        for (const arg of args) if (Array.isArray(arg)) for (const item of arg) out.push(item);
        return out;
      }
      let out = '';
      for (const arg of args) if (isBytes(arg)) out += arg;
      return out;
    };
  },
};

/**
 * The items joined by the separator; an empty array gives "", a single item is returned as is, a missing
 * argument gives a missing result (the documented rules of `join`).
 */
const join: FunctionRuntime = {
  prepare:
    ([, separatorLiteral]) =>
    ([items, separatorArgument]) => {
      const separator = separatorLiteral ?? separatorArgument;
      if (!Array.isArray(items) || !isBytes(separator)) return undefined;
      return items.every(isBytes) ? items.join(separator) : undefined;
    },
};

/**
 * At most `limit` items; the last one keeps the rest of the input, separators included (documented:
 * `split("groceries,electronics,diy,auto", ",", 3)` gives `["groceries", "electronics", "diy,auto"]`). An
 * empty input gives one empty item, like splitting any string without the separator. The checker requires
 * a non-empty separator and a limit of 1 to 128; anything else gives a missing result here.
 */
export function splitBytes(input: string, separator: string, limit: number): string[] | undefined {
  if (separator === '' || !(limit >= 1)) return undefined;
  const out: string[] = [];
  let from = 0;
  while (out.length < limit - 1) {
    const at = input.indexOf(separator, from);
    if (at < 0) break;
    out.push(input.slice(from, at));
    from = at + separator.length;
  }
  out.push(input.slice(from));
  return out;
}

const split = plain(([input, separator, limit]) =>
  isBytes(input) && isBytes(separator) && isInt(limit) ? splitBytes(input, separator, limit) : undefined,
);

/**
 * The text of an Int, a Bool or an Ip. IPv6 addresses are written as Rust's `Ipv6Addr` displays them (the
 * reference engine is Rust): RFC 5952 compression by formatIp, except IPv4-mapped addresses, which Rust
 * writes with a dotted tail (`::ffff:1.2.3.4`).
 */
const toText = plain(([value]) => {
  if (isInt(value)) return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (!isIp(value)) return undefined;
  if (value.family === 6 && value.value >> 32n === 0xffffn) {
    return `::ffff:${formatIp({ family: 4, value: Number(value.value & 0xffffffffn) })}`;
  }
  return formatIp(value);
});

export const stringRuntimes: ReadonlyMap<string, FunctionRuntime> = new Map([
  ['concat', concat],
  ['ends_with', endsWith],
  ['join', join],
  ['len', len],
  ['lower', lower],
  ['remove_bytes', removeBytes],
  ['split', split],
  ['starts_with', startsWith],
  ['substring', substring],
  ['to_string', toText],
  ['upper', upper],
]);
