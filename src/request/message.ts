import { bytesOf } from '../scheme/values.js';
import { trimOws } from './encoding.js';
import {
  describe,
  entriesOf,
  has,
  indexPath,
  isRecord,
  keyPath,
  optionalString,
  type Problems,
} from './json.js';
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
  const headers = has(json, 'headers') ? readHeaders(json.headers, problems) : [];
  const hasHeader = (lower: string) => headers.some(([name]) => name.toLowerCase() === lower);

  let contentType: string | undefined;
  if (has(json, 'contentType')) {
    const value = headerValue(json.contentType, 'contentType', problems);
    if (value !== undefined && hasHeader('content-type')) {
      problems.add('contentType', 'the headers already have a Content-Type: give it in one place');
    } else {
      contentType = value;
    }
  }
  let body = '';
  if (has(json, 'body')) {
    const read = readBody(json.body, problems);
    body = read?.bytes ?? '';
    if (read?.json && contentType === undefined && !hasHeader('content-type'))
      contentType = 'application/json';
  }
  if (contentType !== undefined) headers.push(['Content-Type', contentType]);
  if (has(json, 'cookies')) {
    const cookie = readCookies(json.cookies, problems);
    if (cookie) headers.push(['Cookie', cookie]);
  }
  // HTTP/2 and HTTP/3 clients must send lower-case names, and `.names` shows them so.
  const lowerNames = version === 'HTTP/2' || version === 'HTTP/3';
  return {
    ...(method === undefined ? {} : { method }),
    ...(version === undefined ? {} : { version }),
    ...target,
    headers: lowerNames ? headers.map(([name, value]) => [name.toLowerCase(), value] as const) : headers,
    body,
    bodyLimit,
  };
}

function readMethod(json: Record<string, unknown>, problems: Problems): string | undefined {
  const text = optionalString(json, 'method', problems);
  if (text === undefined) return undefined;
  if (!TOKEN.test(text)) {
    problems.add('method', `${describe(text)} is not an HTTP method (${TOKEN_CHARS} only)`);
    return undefined;
  }
  // Cloudflare's field holds the method in upper case; "get" in a hand-written request means GET.
  return text.toUpperCase();
}

function readVersion(json: Record<string, unknown>, problems: Problems): string | undefined {
  const text = optionalString(json, 'version', problems);
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
  if (has(json, 'url')) {
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
  const conflicts = (key: string, with_: 'absolute' | 'origin' | undefined) => {
    if (!has(json, key) || given === undefined || (with_ === 'absolute' && given === 'origin')) return false;
    problems.add(key, `conflicts with "url", which already gives the ${key}: give it in one place`);
    return true;
  };
  if (!conflicts('scheme', 'absolute')) {
    const text = optionalString(json, 'scheme', problems);
    if (text !== undefined) {
      const scheme = parseScheme(text);
      if (scheme.ok) parts.scheme = scheme.value;
      else problems.add('scheme', scheme.message);
    }
  }
  if (!conflicts('host', 'absolute')) {
    const text = optionalString(json, 'host', problems);
    if (text !== undefined) {
      const authority = parseAuthority(text);
      if (authority.ok) Object.assign(parts, authority.value);
      else problems.add('host', authority.message);
    }
  }
  if (!conflicts('path', 'origin')) {
    const text = optionalString(json, 'path', problems);
    const problem = text === undefined ? undefined : checkPath(text);
    if (problem) problems.add('path', problem);
    else if (text !== undefined) parts.path = text;
  }
  if (!conflicts('query', 'origin')) {
    // A leading `?` is tolerated: people copy it along with the query.
    const text = optionalString(json, 'query', problems)?.replace(/^\?/, '');
    const problem = text === undefined ? undefined : checkQuery(text);
    if (problem) problems.add('query', problem);
    else if (text !== undefined) parts.query = text;
  }
  // A query needs a path to hang on; the request line of `?a=1` alone is `/?a=1`.
  if (parts.query !== undefined && parts.path === undefined) parts.path = '/';
  // Validated as text; the fields hold the UTF-8 bytes.
  return {
    ...(parts.scheme ? { scheme: parts.scheme } : {}),
    ...(parts.host !== undefined ? { host: bytesOf(parts.host) } : {}),
    ...(parts.port !== undefined ? { port: parts.port } : {}),
    ...(parts.path !== undefined ? { path: bytesOf(parts.path) } : {}),
    ...(parts.query !== undefined ? { query: bytesOf(parts.query) } : {}),
  };
}

/** One entry of `headers` or `cookies`, with the paths to report problems at. */
interface NamedEntry {
  name: string;
  namePath: string;
  value: unknown;
  valuePath: string;
}

/**
 * `headers` and `cookies` share a shape: an object (name → value, or an array of values for a repeated
 * name) or an ordered list of [name, value] pairs (for interleaved repeats or exact order).
 */
function namedEntries(json: unknown, key: string, what: string, problems: Problems): NamedEntry[] {
  const entries: NamedEntry[] = [];
  if (Array.isArray(json)) {
    json.forEach((pair, i) => {
      const path = indexPath(key, i);
      if (!Array.isArray(pair) || pair.length !== 2) {
        problems.add(path, `expected a [name, value] pair, got ${describe(pair)}`);
      } else if (typeof pair[0] !== 'string') {
        problems.add(indexPath(path, 0), `expected a ${what} name (a string), got ${describe(pair[0])}`);
      } else {
        entries.push({
          name: pair[0],
          namePath: indexPath(path, 0),
          value: pair[1],
          valuePath: indexPath(path, 1),
        });
      }
    });
  } else if (isRecord(json)) {
    for (const [name, value] of entriesOf(json)) {
      const path = keyPath(key, name);
      if (!Array.isArray(value)) entries.push({ name, namePath: path, value, valuePath: path });
      else
        value.forEach(
          (item, i) =>
            void entries.push({ name, namePath: path, value: item, valuePath: indexPath(path, i) }),
        );
    }
  } else {
    problems.add(
      key,
      `expected an object (name → value or values) or a list of [name, value] pairs, got ${describe(json)}`,
    );
  }
  return entries;
}

function readHeaders(json: unknown, problems: Problems): HeaderLine[] {
  const lines: HeaderLine[] = [];
  for (const { name, namePath, value, valuePath } of namedEntries(json, 'headers', 'header', problems)) {
    const bytes = headerValue(value, valuePath, problems);
    if (!TOKEN.test(name)) {
      problems.add(namePath, `${describe(name)} is not a valid header name (${TOKEN_CHARS} only)`);
    } else if (bytes !== undefined) {
      lines.push([name, bytes]);
    }
  }
  return lines;
}

/** A header value: text (sent as UTF-8), blanks around it dropped as an HTTP parser does. */
function headerValue(json: unknown, path: string, problems: Problems): string | undefined {
  if (typeof json !== 'string') {
    problems.add(path, `expected a header value (a string), got ${describe(json)}`);
    return undefined;
  }
  if (LINE_BREAKING.test(json)) {
    problems.add(path, 'a header value cannot contain CR, LF or NUL');
    return undefined;
  }
  return trimOws(bytesOf(json));
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
  if (has(json, 'text')) {
    if (typeof json.text === 'string') return { bytes: bytesOf(json.text) };
    problems.add('body.text', `expected a string, got ${describe(json.text)}`);
    return undefined;
  }
  if (has(json, 'base64')) {
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
  for (const { name, namePath, value, valuePath } of namedEntries(json, 'cookies', 'cookie', problems)) {
    if (name === '' || BAD_COOKIE_NAME.test(name)) {
      problems.add(
        namePath,
        `${describe(name)} is not a valid cookie name (not empty; no =, ;, spaces or controls)`,
      );
    } else if (typeof value !== 'string') {
      problems.add(valuePath, `expected a cookie value (a string), got ${describe(value)}`);
    } else if (BAD_COOKIE_VALUE.test(value)) {
      problems.add(valuePath, 'a cookie value cannot contain ;, CR, LF or NUL');
    } else {
      items.push(`${name}=${value}`);
    }
  }
  return items.length === 0 ? undefined : bytesOf(items.join('; '));
}
