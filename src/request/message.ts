import { bytesOf } from '../scheme/values.js';
import { trimOws } from './encoding.js';
import { describe, entriesOf, indexPath, isRecord, keyPath, optionalString, type Problems } from './json.js';
import type { HeaderLine, HttpMessage } from './model.js';
import { readBase64 } from './typed-value.js';
import { checkPath, checkQuery, parseAuthority, parseScheme, parseUrl, type UrlParts } from './url.js';

/** The HTTP message of a sample request: method, version, URL, headers, cookies, body. */

/** Keys that describe the HTTP message; any of them makes the request an HTTP request. */
export const HTTP_KEYS = [
  'method',
  'url',
  'scheme',
  'host',
  'path',
  'query',
  'version',
  'headers',
  'cookies',
  'body',
  'contentType',
] as const;

/** An HTTP token (RFC 9110): methods and header names. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const TOKEN_CHARS = "letters, digits and !#$%&'*+-.^_`|~";
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the bytes a header line cannot carry
const LINE_BREAKING = /[\r\n\x00]/;

export function readHttp(json: Record<string, unknown>, problems: Problems, bodyLimit: number): HttpMessage {
  const method = readMethod(json, problems);
  const version = readVersion(json, problems);
  const target = readTarget(json, problems);
  const headers = json.headers !== undefined ? readHeaders(json.headers, problems) : [];
  const hasHeader = (lower: string) => headers.some(([name]) => name.toLowerCase() === lower);

  let contentType: string | undefined;
  if (json.contentType !== undefined) {
    const value = headerValue(json.contentType, 'contentType', problems);
    if (value !== undefined && hasHeader('content-type')) {
      problems.add('contentType', 'the headers already have a Content-Type: give it in one place');
    } else {
      contentType = value;
    }
  }
  let body = '';
  if (json.body !== undefined) {
    const read = readBody(json.body, problems);
    body = read?.bytes ?? '';
    if (read?.json && contentType === undefined && !hasHeader('content-type'))
      contentType = 'application/json';
  }
  if (contentType !== undefined) headers.push(['Content-Type', contentType]);
  if (json.cookies !== undefined) {
    const cookie = readCookies(json.cookies, problems);
    if (cookie) headers.push(['Cookie', cookie]);
  }
  // HTTP/2 and HTTP/3 clients must send lower-case names, and `.names` shows them so.
  const lowerNames = version === 'HTTP/2' || version === 'HTTP/3';
  // One object shape for every message (absent members are undefined): replay reads millions of them.
  return {
    method,
    version,
    scheme: target.scheme,
    host: target.host,
    port: target.port,
    path: target.path,
    query: target.query,
    headers: lowerNames ? headers.map(([name, value]) => [name.toLowerCase(), value] as const) : headers,
    body,
    bodyLimit,
  };
}

function readMethod(json: Record<string, unknown>, problems: Problems): string | undefined {
  const text = optionalString(json.method, 'method', problems);
  if (text === undefined) return undefined;
  if (!TOKEN.test(text)) {
    problems.add('method', `${describe(text)} is not an HTTP method (${TOKEN_CHARS} only)`);
    return undefined;
  }
  // Cloudflare's field holds the method in upper case; "get" in a hand-written request means GET.
  return text.toUpperCase();
}

function readVersion(json: Record<string, unknown>, problems: Problems): string | undefined {
  const text = optionalString(json.version, 'version', problems);
  if (text === undefined) return undefined;
  const match = /^(?:HTTP\/)?(1\.0|1\.1|2|2\.0|3|3\.0)$/i.exec(text);
  if (!match) {
    problems.add('version', `expected HTTP/1.0, HTTP/1.1, HTTP/2 or HTTP/3, got ${describe(text)}`);
    return undefined;
  }
  const number = match[1] as string;
  return `HTTP/${number.startsWith('1') ? number : number[0]}`;
}

/** The URL: `url`, or its parts `scheme`, `host`, `path`, `query`, each given in one place only. */
function readTarget(json: Record<string, unknown>, problems: Problems): UrlParts {
  let parts: UrlParts = {};
  let given: 'absolute' | 'origin' | undefined;
  if (json.url !== undefined) {
    const text = json.url;
    if (typeof text !== 'string') {
      problems.add('url', `expected a string, got ${describe(text)}`);
    } else {
      const parsed = parseUrl(text);
      if (parsed.ok) {
        parts = parsed.value;
        given = parts.scheme ? 'absolute' : 'origin';
      } else {
        problems.add('url', parsed.message);
      }
    }
  }
  const conflicts = (key: string, value: unknown, with_: 'absolute' | 'origin' | undefined) => {
    if (value === undefined || given === undefined || (with_ === 'absolute' && given === 'origin'))
      return false;
    problems.add(key, `conflicts with "url", which already gives the ${key}: give it in one place`);
    return true;
  };
  if (!conflicts('scheme', json.scheme, 'absolute')) {
    const text = optionalString(json.scheme, 'scheme', problems);
    if (text !== undefined) {
      const scheme = parseScheme(text);
      if (scheme.ok) parts.scheme = scheme.value;
      else problems.add('scheme', scheme.message);
    }
  }
  if (!conflicts('host', json.host, 'absolute')) {
    const text = optionalString(json.host, 'host', problems);
    if (text !== undefined) {
      const authority = parseAuthority(text);
      if (authority.ok) Object.assign(parts, authority.value);
      else problems.add('host', authority.message);
    }
  }
  if (!conflicts('path', json.path, 'origin')) {
    const text = optionalString(json.path, 'path', problems);
    const problem = text === undefined ? undefined : checkPath(text);
    if (problem) problems.add('path', problem);
    else if (text !== undefined) parts.path = text;
  }
  if (!conflicts('query', json.query, 'origin')) {
    // A leading `?` is tolerated: people copy it along with the query.
    const text = optionalString(json.query, 'query', problems)?.replace(/^\?/, '');
    const problem = text === undefined ? undefined : checkQuery(text);
    if (problem) problems.add('query', problem);
    else if (text !== undefined) parts.query = text;
  }
  // A query needs a path to hang on; the request line of `?a=1` alone is `/?a=1`.
  if (parts.query !== undefined && parts.path === undefined) parts.path = '/';
  // Validated as text; the fields hold the UTF-8 bytes.
  return {
    scheme: parts.scheme,
    host: parts.host === undefined ? undefined : bytesOf(parts.host),
    port: parts.port,
    path: parts.path === undefined ? undefined : bytesOf(parts.path),
    query: parts.query === undefined ? undefined : bytesOf(parts.query),
  };
}

/**
 * One entry of `headers` or `cookies`. Where it sits (for problems) is kept as indices and turned into a
 * path only when there is a problem to report: most requests have none.
 */
interface NamedEntry {
  name: string;
  value: unknown;
  /** The index of the [name, value] pair, in the list form. */
  pair?: number;
  /** The index in the name's array of values, in the object form. */
  item?: number;
}

function namePath(key: string, entry: NamedEntry): string {
  return entry.pair === undefined ? keyPath(key, entry.name) : indexPath(indexPath(key, entry.pair), 0);
}

function valuePath(key: string, entry: NamedEntry): string {
  if (entry.pair !== undefined) return indexPath(indexPath(key, entry.pair), 1);
  const path = keyPath(key, entry.name);
  return entry.item === undefined ? path : indexPath(path, entry.item);
}

/**
 * `headers` and `cookies` share a shape: an object (name → value, or an array of values for a repeated
 * name) or an ordered list of [name, value] pairs (for interleaved repeats or exact order).
 */
function namedEntries(json: unknown, key: string, what: string, problems: Problems): NamedEntry[] {
  const entries: NamedEntry[] = [];
  if (Array.isArray(json)) {
    for (let i = 0; i < json.length; i++) {
      const pair: unknown = json[i];
      if (!Array.isArray(pair) || pair.length !== 2) {
        problems.add(indexPath(key, i), `expected a [name, value] pair, got ${describe(pair)}`);
      } else if (typeof pair[0] !== 'string') {
        problems.add(
          indexPath(indexPath(key, i), 0),
          `expected a ${what} name (a string), got ${describe(pair[0])}`,
        );
      } else {
        entries.push({ name: pair[0], value: pair[1], pair: i, item: undefined });
      }
    }
  } else if (isRecord(json)) {
    for (const [name, value] of entriesOf(json)) {
      if (!Array.isArray(value)) entries.push({ name, value, pair: undefined, item: undefined });
      else
        for (let i = 0; i < value.length; i++)
          entries.push({ name, value: value[i], pair: undefined, item: i });
    }
  } else {
    problems.add(
      key,
      `expected an object (name → value or values) or a list of [name, value] pairs, got ${describe(json)}`,
    );
  }
  return entries;
}

/** Header lines (`key`: where they are, `headers` or `response.headers`). */
export function readHeaders(json: unknown, problems: Problems, key = 'headers'): HeaderLine[] {
  const lines: HeaderLine[] = [];
  for (const entry of namedEntries(json, key, 'header', problems)) {
    const problem = headerValueProblem(entry.value);
    if (problem !== undefined) problems.add(valuePath(key, entry), problem);
    if (!TOKEN.test(entry.name)) {
      problems.add(
        namePath(key, entry),
        `${describe(entry.name)} is not a valid header name (${TOKEN_CHARS} only)`,
      );
    } else if (problem === undefined) {
      lines.push([entry.name, trimOws(bytesOf(entry.value as string))]);
    }
  }
  return lines;
}

/** A header value: text (sent as UTF-8), blanks around it dropped as an HTTP parser does. */
function headerValue(json: unknown, path: string, problems: Problems): string | undefined {
  const problem = headerValueProblem(json);
  if (problem === undefined) return trimOws(bytesOf(json as string));
  problems.add(path, problem);
  return undefined;
}

function headerValueProblem(json: unknown): string | undefined {
  if (typeof json !== 'string') return `expected a header value (a string), got ${describe(json)}`;
  if (LINE_BREAKING.test(json)) return 'a header value cannot contain CR, LF or NUL';
  return undefined;
}

/** `body`: text, or `{"text": …}`, `{"base64": …}`, `{"json": …}` (serialized; implies application/json). */
function readBody(json: unknown, problems: Problems): { bytes: string; json?: boolean } | undefined {
  if (typeof json === 'string') return { bytes: bytesOf(json) };
  const keys = isRecord(json) ? Object.keys(json) : [];
  if (!isRecord(json) || keys.length !== 1 || !['text', 'base64', 'json'].includes(keys[0] as string)) {
    problems.add(
      'body',
      `expected a string, or an object with one key: "text", "base64" or "json"; got ${describe(json)}`,
    );
    return undefined;
  }
  if (json.text !== undefined) {
    if (typeof json.text === 'string') return { bytes: bytesOf(json.text) };
    problems.add('body.text', `expected a string, got ${describe(json.text)}`);
    return undefined;
  }
  if (json.base64 !== undefined) {
    const bytes = readBase64(json.base64, 'body.base64', problems);
    return bytes === undefined ? undefined : { bytes };
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(json.json);
  } catch {
    // Cycles or BigInts, from callers building the request in JS.
  }
  if (text === undefined) {
    problems.add('body.json', 'this value cannot be written as JSON');
    return undefined;
  }
  return { bytes: bytesOf(text), json: true };
}

/**
 * `cookies`: an object (name → value or values) or a list of [name, value] pairs, sent as one more Cookie
 * header `a=1; b=2`. Names and values are written as given (encode them yourself if they need it).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: a cookie name is a token of printable bytes
const BAD_COOKIE_NAME = /[=;\s\x00-\x1f\x7f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: a cookie value cannot break the header line
const BAD_COOKIE_VALUE = /[;\r\n\x00]/;

function readCookies(json: unknown, problems: Problems): string | undefined {
  const items: string[] = [];
  for (const entry of namedEntries(json, 'cookies', 'cookie', problems)) {
    const { name, value } = entry;
    if (name === '' || BAD_COOKIE_NAME.test(name)) {
      problems.add(
        namePath('cookies', entry),
        `${describe(name)} is not a valid cookie name (not empty; no =, ;, spaces or controls)`,
      );
    } else if (typeof value !== 'string') {
      problems.add(valuePath('cookies', entry), `expected a cookie value (a string), got ${describe(value)}`);
    } else if (BAD_COOKIE_VALUE.test(value)) {
      problems.add(valuePath('cookies', entry), 'a cookie value cannot contain ;, CR, LF or NUL');
    } else {
      items.push(`${name}=${value}`);
    }
  }
  return items.length === 0 ? undefined : bytesOf(items.join('; '));
}
