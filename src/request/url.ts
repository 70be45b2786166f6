import { parseIpAddress } from '../scheme/ip.js';

/**
 * The URL of a sample request, read by hand rather than with WHATWG `URL`: that parser rewrites what it
 * reads (percent-encodes, resolves `..`, lower-cases hosts), whereas rule fields must see the target as
 * the client sent it.
 */

export interface UrlParts {
  scheme?: 'http' | 'https';
  host?: string;
  port?: number;
  path?: string;
  /** Without `?`; undefined when there is no `?`. */
  query?: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });

// Controls and spaces cannot appear in a request line: a client must percent-encode them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point
const UNSENDABLE = /[\x00-\x20\x7f]/;
const UNSENDABLE_MESSAGE = 'contains a space or control character (percent-encode it, e.g. %20)';

/**
 * An absolute URL (`https://host:port/path?query#fragment`) or an origin-form target (`/path?query`).
 * The fragment is dropped: clients never send it.
 */
export function parseUrl(text: string): Parsed<UrlParts> {
  if (UNSENDABLE.test(text)) return fail(`malformed URL: ${UNSENDABLE_MESSAGE}`);
  const hash = text.indexOf('#');
  const target = hash === -1 ? text : text.slice(0, hash);
  if (target.startsWith('/')) return { ok: true, value: splitTarget(target) };
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?]*)(.*)$/.exec(target);
  if (!match) {
    return fail(
      'malformed URL: expected an absolute URL (https://host/path?query) or a path starting with /',
    );
  }
  const scheme = parseScheme(match[1] as string);
  if (!scheme.ok) return scheme;
  const authority = parseAuthority(match[2] as string);
  if (!authority.ok) return fail(`malformed URL: ${authority.message}`);
  const rest = match[3] as string;
  // `https://host` and `https://host?q` have the path `/`, which is what a client puts in the request line.
  const { path, query } = splitTarget(rest.startsWith('/') ? rest : `/${rest}`);
  const { host, port } = authority.value;
  return { ok: true, value: { scheme: scheme.value, host, port, path, query } };
}

function splitTarget(target: string): { path: string; query?: string } {
  const mark = target.indexOf('?');
  return mark === -1
    ? { path: target, query: undefined }
    : { path: target.slice(0, mark), query: target.slice(mark + 1) };
}

export function parseScheme(text: string): Parsed<'http' | 'https'> {
  const lower = text.toLowerCase();
  if (lower === 'http' || lower === 'https') return { ok: true, value: lower };
  return fail(`unsupported scheme ${JSON.stringify(text)} (expected http or https)`);
}

/** `host`, `host:port`, `[v6]`, `[v6]:port`; no user info (browsers never send it). */
export function parseAuthority(text: string): Parsed<{ host: string; port?: number }> {
  if (text === '') return fail('the host is empty');
  if (UNSENDABLE.test(text)) return fail(`the host ${UNSENDABLE_MESSAGE}`);
  if (text.includes('@')) return fail('user info (user:password@) is not part of an HTTP request');
  if (/[/?#]/.test(text)) return fail('a host cannot contain /, ? or #');
  let host: string;
  let portText: string | undefined;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close === -1) return fail('unclosed [ in an IPv6 host');
    host = text.slice(0, close + 1);
    const address = parseIpAddress(text.slice(1, close));
    if (address?.family !== 6) return fail(`${host} is not an IPv6 address`);
    const after = text.slice(close + 1);
    if (after !== '' && !after.startsWith(':')) return fail('unexpected text after the IPv6 host');
    if (after !== '') portText = after.slice(1);
  } else {
    const colon = text.indexOf(':');
    host = colon === -1 ? text : text.slice(0, colon);
    if (colon !== -1) portText = text.slice(colon + 1);
    if (host === '') return fail('the host is empty');
    if (host.includes('[') || host.includes(']')) return fail('[ and ] may only enclose an IPv6 host');
  }
  if (portText === undefined) return { ok: true, value: { host } };
  const port = /^[0-9]{1,5}$/.test(portText) ? Number(portText) : 0;
  if (port < 1 || port > 65535)
    return fail(`port ${JSON.stringify(portText)} is not a number from 1 to 65535`);
  return { ok: true, value: { host, port } };
}

/** A path given on its own: starts with `/`, no `?` or `#` (the query has its own key). */
export function checkPath(text: string): string | undefined {
  if (!text.startsWith('/')) return 'a path starts with /';
  if (UNSENDABLE.test(text)) return `the path ${UNSENDABLE_MESSAGE}`;
  if (text.includes('?') || text.includes('#'))
    return 'a path cannot contain ? or # (give the query in query)';
  return undefined;
}

/** A query given on its own, without the `?`; no `#`. */
export function checkQuery(text: string): string | undefined {
  if (UNSENDABLE.test(text)) return `the query ${UNSENDABLE_MESSAGE}`;
  if (text.includes('#')) return 'a query cannot contain # (fragments are never sent)';
  return undefined;
}
