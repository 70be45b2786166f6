import type { Value } from '../scheme/values.js';
import { asciiLower } from '../scheme/values.js';
import { percentDecode, trimOws } from './encoding.js';
import type { HeaderLine } from './model.js';

/**
 * How Cloudflare splits the parts of a request into field values. Everything works on binary strings and
 * nothing is decoded unless Cloudflare documents it (cookie names are the one case).
 */

export type Pair = readonly [name: string, value: string];

/**
 * Query string or url-encoded form → pairs in order: split on `&` (empty pieces skipped), the name ends at
 * the first `=`; a piece without `=` is a name with an empty value. No decoding, original case.
 */
export function splitArguments(text: string): Pair[] {
  const pairs: Pair[] = [];
  if (text === '') return pairs;
  for (const piece of text.split('&')) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    pairs.push(eq === -1 ? [piece, ''] : [piece.slice(0, eq), piece.slice(eq + 1)]);
  }
  return pairs;
}

/** Pairs → `Map<Array<Bytes>>`: name → its values in order (a repeated name collects all of them). */
export function pairsToMap(
  pairs: readonly Pair[],
  key: (name: string) => string = (name) => name,
): Map<string, Value> {
  const map = new Map<string, string[]>();
  for (const [name, value] of pairs) {
    const k = key(name);
    const values = map.get(k);
    if (values) values.push(value);
    else map.set(k, [value]);
  }
  return map;
}

/**
 * The Cookie header(s) → pairs: `name=value` items separated by `;`, blanks around them dropped, items
 * without `=` or with an empty name ignored; names are URL-decoded (`%XX`), values kept as sent.
 */
export function splitCookies(headerValues: readonly string[]): Pair[] {
  const pairs: Pair[] = [];
  for (const header of headerValues) {
    for (const item of header.split(';')) {
      const eq = item.indexOf('=');
      if (eq === -1) continue;
      const name = trimOws(item.slice(0, eq));
      if (name === '') continue;
      pairs.push([percentDecode(name), trimOws(item.slice(eq + 1))]);
    }
  }
  return pairs;
}

/**
 * Accept-Language → tags by preference: `q` weight descending (stable, so equal weights keep header
 * order), no weight means 1; `*`, `q=0` and items with a malformed weight are dropped.
 */
export function acceptedLanguages(headerValues: readonly string[]): string[] {
  const weighted: { tag: string; q: number }[] = [];
  for (const header of headerValues) {
    for (const item of header.split(',')) {
      const [tagPart = '', ...params] = item.split(';');
      const tag = trimOws(tagPart);
      if (tag === '' || tag === '*') continue;
      let q = 1;
      for (const param of params) {
        const match = /^[ \t]*[qQ][ \t]*=[ \t]*([0-9.]+)[ \t]*$/.exec(param);
        if (!match) continue;
        q = /^(0(\.[0-9]{0,3})?|1(\.0{0,3})?)$/.test(match[1] as string) ? Number(match[1]) : Number.NaN;
      }
      if (q > 0) weighted.push({ tag, q });
    }
  }
  return weighted.sort((a, b) => b.q - a.q).map((item) => item.tag);
}

/**
 * The extension of a path: lower-cased text after the last dot of the last segment, without the dot;
 * empty when there is none, when the segment starts with its only dot (`/.mp3`) or ends with it (`/foo.`).
 */
export function pathExtension(path: string): string {
  const segment = path.slice(path.lastIndexOf('/') + 1);
  const dot = segment.lastIndexOf('.');
  if (dot <= 0 || dot === segment.length - 1) return '';
  return asciiLower(segment.slice(dot + 1));
}

/** Values of one header (name compared case-insensitively), in order. */
export function headerValues(headers: readonly HeaderLine[], lowerName: string): string[] {
  const out: string[] = [];
  for (const [name, value] of headers)
    if (name.length === lowerName.length && name.toLowerCase() === lowerName) out.push(value);
  return out;
}

export interface ContentType {
  /** Lower-cased `type/subtype`. */
  mediaType: string;
  /** Parameters by lower-cased name, quoted strings unquoted. */
  params: Map<string, string>;
}

/** `multipart/form-data; boundary="x"` → media type and parameters. */
export function parseContentType(value: string): ContentType {
  const semicolon = value.indexOf(';');
  const mediaType = asciiLower(trimOws(semicolon === -1 ? value : value.slice(0, semicolon)));
  const params = new Map<string, string>();
  if (semicolon !== -1) {
    const re = /;[ \t]*([^=;\s]+)[ \t]*=[ \t]*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
    for (const match of value.slice(semicolon).matchAll(re)) {
      const quoted = match[2];
      const text = quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : trimOws(match[3] ?? '');
      params.set(asciiLower(match[1] as string), text);
    }
  }
  return { mediaType, params };
}
