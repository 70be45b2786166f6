/**
 * Where the signatures of the managed rulesets look for a payload, and how a pattern becomes an
 * expression over those places. Values are URL-decoded first (the path and query recursively, so that
 * double encoding does not hide a payload); patterns are Rust-dialect regexes, usually with `(?i)`.
 */

/** A part of the request a signature inspects, as a Rules-language value (Bytes). */
export const INPUTS = {
  path: 'url_decode(http.request.uri.path, "r")',
  query: 'url_decode(http.request.uri.query, "r")',
  // Only the inspected part of the body (128 KB on Enterprise); form bodies need decoding, JSON bodies
  // are unharmed by it.
  body: 'url_decode(http.request.body.raw)',
  cookies: 'url_decode(http.cookie)',
  userAgent: 'http.user_agent',
  referer: 'http.referer',
  /** Every header value, one at a time (an array, hence `any`). */
  headers: 'http.request.headers.values[*]',
  /** Each query argument's value on its own (anchored patterns see one value). */
  queryValues: 'url_decode(http.request.uri.args.values[*])[*]',
  /** Each field of a url-encoded form body on its own. */
  formValues: 'url_decode(http.request.body.form.values[*])[*]',
  rawPath: 'http.request.uri.path',
  rawQuery: 'http.request.uri.query',
} as const;

export type Input = keyof typeof INPUTS;

/** What a client sends as parameters: query string, body and cookies. */
export const ARGS: readonly Input[] = ['query', 'body', 'cookies'];
/** Parameters plus the path (payloads in path segments of REST-style URLs). */
export const ARGS_AND_PATH: readonly Input[] = ['path', ...ARGS];
/** Each parameter value on its own, for patterns anchored at the start or end of a value. */
export const VALUES: readonly Input[] = ['queryValues', 'formValues'];
/** Everything a client controls, every header included. */
export const ANYWHERE: readonly Input[] = ['path', 'query', 'body', 'headers'];

/**
 * A raw string literal holding `text` unchanged: `r"…"`, or `r#"…"#` (with as many `#` as needed) when
 * the text holds a quote, so that patterns need no escaping.
 */
export function rawString(text: string): string {
  let hashes = '';
  while (text.includes(`"${hashes}`)) hashes += '#';
  return `r${hashes}"${text}"${hashes}`;
}

/** A quoted string literal (for `contains`, `eq`, sets): only `"` and `\` need escaping. */
export function quotedString(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** One comparison of an input with an operator and literal; array inputs are wrapped in `any`. */
function test(input: Input, operator: string, literal: string): string {
  const value = INPUTS[input];
  return value.endsWith('[*]') ? `any(${value} ${operator} ${literal})` : `${value} ${operator} ${literal}`;
}

/** `(a or b or …)`, without parentheses around a single term. */
export function anyOf(terms: readonly string[]): string {
  return terms.length === 1 ? (terms[0] as string) : `(${terms.join(' or ')})`;
}

/** True when the regex matches (searches) any of the inputs. */
export function matchesIn(inputs: readonly Input[], pattern: string): string {
  const literal = rawString(pattern);
  return anyOf(inputs.map((input) => test(input, 'matches', literal)));
}

/** True when any of the inputs contains the text (case-sensitive, as `contains` is). */
export function containsIn(inputs: readonly Input[], text: string): string {
  const literal = quotedString(text);
  return anyOf(inputs.map((input) => test(input, 'contains', literal)));
}

/** True when the request has a header of that name (any case; `name` in lower case). */
export function hasHeader(name: string): string {
  return `any(lower(http.request.headers.names[*])[*] eq ${quotedString(name)})`;
}

/** True when a value of the named header (`name` in lower case) matches the regex. */
export function headerMatches(name: string, pattern: string): string {
  return `any(http.request.headers[${quotedString(name)}][*] matches ${rawString(pattern)})`;
}
