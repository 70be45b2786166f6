import type { Value } from '../../scheme/values.js';
import { type FunctionRuntime, hexDigit, isBytes, plain, utf8Bytes } from './runtime.js';

/**
 * Base64 and URL encodings over binary strings. `btoa` and `atob` work on exactly that representation
 * (one char per byte) and exist wherever JavaScript runs, so no Node built-in is needed.
 */

/**
 * Base64 of the bytes: standard alphabet without padding by default; `p` adds the `=` padding, `u` uses the
 * URL-safe alphabet (`-` and `_`). `encode_base64("hello world")` is `aGVsbG8gd29ybGQ` (rules-language §7).
 */
export function encodeBase64(bytes: string, flags = ''): string {
  let text = btoa(bytes);
  if (flags.includes('u')) text = text.replace(/[+/]/g, (c) => (c === '+' ? '-' : '_'));
  if (!flags.includes('p')) text = text.replace(/=+$/, '');
  return text;
}

/**
 * The bytes of standard Base64 text, or undefined when it is not Base64. Cloudflare documents neither the
 * alphabet nor padding rules of `decode_base64`; we accept the standard alphabet with or without the `=`
 * padding (what `encode_base64` produces by default has none) and reject anything else: the URL-safe
 * alphabet, whitespace, padding in the middle or a length no encoder produces.
 */
export function decodeBase64(text: string): string | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  const unpadded = text.replace(/=+$/, '');
  if (unpadded.length % 4 === 1) return undefined;
  // Padding, when present, must complete the last group.
  if (unpadded.length !== text.length && text.length % 4 !== 0) return undefined;
  return atob(unpadded);
}

const encodeBase64Runtime: FunctionRuntime = {
  prepare:
    ([, flagsLiteral]) =>
    ([input, flagsArgument]) => {
      const flags = flagsLiteral ?? flagsArgument ?? '';
      return isBytes(input) && isBytes(flags) ? encodeBase64(input, flags) : undefined;
    },
};

const decodeBase64Runtime = plain(([source]) => (isBytes(source) ? decodeBase64(source) : undefined));

/**
 * One pass of URL decoding: `%XX` becomes the byte XX and `+` a space; with `unicode`, `%uXXXX` becomes the
 * UTF-8 bytes of U+XXXX (documented: `%u2601` gives `\xe2\x98\x81`). A `%` that starts no valid escape is
 * kept as it is. A surrogate pair written as two `%u` escapes is one code point; a lone surrogate has no
 * UTF-8 form, so its escape is kept as text.
 */
function urlDecodeOnce(source: string, unicode: boolean, plusIsSpace: boolean): string {
  if (!source.includes('%') && !(plusIsSpace && source.includes('+'))) return source;
  let out = '';
  let runStart = 0;
  for (let i = 0; i < source.length; i++) {
    const code = source.charCodeAt(i);
    if (code === 0x2b /* + */ && plusIsSpace) {
      out += `${source.slice(runStart, i)} `;
      runStart = i + 1;
    } else if (code === 0x25 /* % */) {
      let decoded: string | undefined;
      let length = 0;
      if (unicode && (source[i + 1] === 'u' || source[i + 1] === 'U')) {
        const unit = hex4(source, i + 2);
        if (unit >= 0xd800 && unit <= 0xdbff && /^%[uU]/.test(source.slice(i + 6, i + 8))) {
          const low = hex4(source, i + 8);
          if (low >= 0xdc00 && low <= 0xdfff) {
            decoded = utf8Bytes(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00));
            length = 12;
          }
        } else if (unit >= 0 && (unit < 0xd800 || unit > 0xdfff)) {
          decoded = utf8Bytes(unit);
          length = 6;
        }
      } else {
        const high = hexDigit(source.charCodeAt(i + 1));
        const low = hexDigit(source.charCodeAt(i + 2));
        if (high >= 0 && low >= 0) {
          decoded = String.fromCharCode(high * 16 + low);
          length = 3;
        }
      }
      if (decoded !== undefined) {
        out += source.slice(runStart, i) + decoded;
        i += length - 1;
        runStart = i + 1;
      }
    }
  }
  return out + source.slice(runStart);
}

/** Four hex digits at `at` as a number, or -1. */
function hex4(source: string, at: number): number {
  let value = 0;
  for (let i = at; i < at + 4; i++) {
    const digit = hexDigit(source.charCodeAt(i));
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/**
 * `url_decode(source, options)`: `r` decodes again until nothing changes (`%2520` → `%20` → space), `u`
 * enables `%uXXXX`. Only the first pass reads `+` as a space: a `+` that a later pass finds came from an
 * encoded `%2B` (`%252B` → `%2B` → `+`) and is a plus sign. Every later pass that changes something
 * shortens the text, so the recursion ends.
 */
export function urlDecode(source: string, options = ''): string {
  const unicode = options.includes('u');
  let current = urlDecodeOnce(source, unicode, true);
  if (!options.includes('r')) return current;
  for (;;) {
    const next = urlDecodeOnce(current, unicode, false);
    if (next === current) return current;
    current = next;
  }
}

/**
 * The last value decoded, per options: rules of a zone often decode the same field (a body of hundreds of
 * kilobytes, the query), and one request asks for it once per rule. Decoding is a pure function of its
 * input, so the answer for the same input is the one already computed.
 */
const lastDecoded = new Map<string, { source: string; result: string }>();

function urlDecodeRemembered(source: string, options: string): string {
  const last = lastDecoded.get(options);
  if (last && last.source === source) return last.result;
  const result = urlDecode(source, options);
  if (lastDecoded.size > 16) lastDecoded.clear();
  lastDecoded.set(options, { source, result });
  return result;
}

const urlDecodeRuntime: FunctionRuntime = {
  prepare:
    ([, optionsLiteral]) =>
    ([source, optionsArgument]) => {
      const options = optionsLiteral ?? optionsArgument ?? '';
      return isBytes(source) && isBytes(options) ? urlDecodeRemembered(source, options) : undefined;
    },
};

/**
 * Removes every `name=value` (or bare `name`) argument whose name is listed, keeping the others in their
 * order (documented: `"category=Foo&order=desc&category=Bar"` without `category` is `"order=desc"`).
 * Names are compared byte for byte as they are written in the query, without URL decoding: the docs show
 * only plain names, and the function works on the raw query too.
 */
export function removeQueryArgs(query: string, names: ReadonlySet<string>): string {
  if (query === '') return query;
  const kept: string[] = [];
  let removed = false;
  for (const argument of query.split('&')) {
    const equals = argument.indexOf('=');
    if (names.has(equals < 0 ? argument : argument.slice(0, equals))) removed = true;
    else kept.push(argument);
  }
  return removed ? kept.join('&') : query;
}

const removeQueryArgsRuntime: FunctionRuntime = {
  prepare(literals) {
    const names = literals.slice(1);
    // The names are literals (catalogue): one set for every request when the compiler passes them.
    const fixedNames = names.length > 0 && names.every(isBytes) ? new Set(names) : undefined;
    return ([query, ...rest]) => {
      if (!isBytes(query)) return undefined;
      const set = fixedNames ?? namesFrom(rest.map((arg, i) => names[i] ?? arg));
      return set ? removeQueryArgs(query, set) : undefined;
    };
  },
};

function namesFrom(values: readonly (Value | undefined)[]): ReadonlySet<string> | undefined {
  return values.every(isBytes) ? new Set(values) : undefined;
}

export const encodingRuntimes: ReadonlyMap<string, FunctionRuntime> = new Map([
  ['decode_base64', decodeBase64Runtime],
  ['encode_base64', encodeBase64Runtime],
  ['remove_query_args', removeQueryArgsRuntime],
  ['url_decode', urlDecodeRuntime],
]);
