import type { Value } from '../scheme/values.js';

/**
 * The normalized form of a sample request, produced by `readSampleRequest`. Everything is already
 * validated and converted to run-time values (binary strings, IpAddress…), so deriving a field never fails.
 */

/** A problem in the request JSON: where (a JS-like path, '' for the whole request) and what. */
export interface RequestProblem {
  path: string;
  message: string;
}

/** One header line: the name as written (original case) and the value, both binary strings. */
export type HeaderLine = readonly [name: string, value: string];

/** The HTTP message described by a request: what the client sent, before any rule changed it. */
export interface HttpMessage {
  /** Upper-cased method; undefined when the request does not say. */
  readonly method?: string;
  /** `HTTP/1.0`, `HTTP/1.1`, `HTTP/2` or `HTTP/3`. */
  readonly version?: string;
  readonly scheme?: 'http' | 'https';
  /** The URL's host as written (IPv6 in brackets), without the port. */
  readonly host?: string;
  /** The URL's explicit port. */
  readonly port?: number;
  /** The path (binary); undefined when the request gives no URL path. */
  readonly path?: string;
  /** The query without `?` (binary); undefined when the target has no `?`. */
  readonly query?: string;
  /** Header lines in order, with the `contentType` and `cookies` conveniences appended. */
  readonly headers: readonly HeaderLine[];
  /** The whole body (binary), '' when none. */
  readonly body: string;
  /** How many body bytes the body fields see (the rest is cut off, `.truncated` is then true). */
  readonly bodyLimit: number;
}

/** A response to run the response phases on (`response` in the JSON). */
export interface SampleResponse {
  /** The status code (100–999). */
  readonly status: number;
  /** Header lines in order; after a rule changed them, as changed. */
  readonly headers: readonly HeaderLine[];
  /** The header lines as the origin sent them, when a rule changed `headers` (`raw.http.response.…`). */
  readonly original?: readonly HeaderLine[];
}

export interface SampleRequest {
  /** The request's label (`name` in the JSON), for reports. */
  readonly name?: string;
  /** Values given in `fields`, by field name: they win over everything else. */
  readonly fields: ReadonlyMap<string, Value>;
  /**
   * Values known at the edge rather than from the message (client IP, geolocation, bot and WAF scores,
   * timestamp…), by canonical field name.
   */
  readonly edge: ReadonlyMap<string, Value>;
  /**
   * The HTTP message; undefined when the request describes none (e.g. only `fields`). After a rule of an
   * earlier phase changed it (a URL rewrite, a header modification: src/engine/zone/pipeline.ts), the
   * message as changed, which the later phases see.
   */
  readonly http?: HttpMessage;
  /** The message as the client sent it, when a rule changed `http`: what the `raw.http.…` fields read. */
  readonly original?: HttpMessage;
  /** The origin's response, when the request gives one: what the response phases run on. */
  readonly response?: SampleResponse;
  /**
   * For a custom scheme, the fields that may be derived (same name and type as Cloudflare's);
   * undefined for Cloudflare's scheme, where all may.
   */
  readonly derivable?: ReadonlySet<string>;
  /** Intermediate results shared by sibling fields (parsed query, multipart parts…), filled on first use. */
  readonly memo: Map<string, unknown>;
}

/** A value computed once per request and shared by the fields that need it. */
export function memo<T>(request: SampleRequest, key: string, make: () => T): T {
  if (request.memo.has(key)) return request.memo.get(key) as T;
  const value = make();
  request.memo.set(key, value);
  return value;
}

/**
 * The request with its message changed by a rule (a URL rewrite, a header modification): fields are
 * derived afresh from the new message, and `raw.http.…` fields from the message as first sent.
 */
export function withMessage(request: SampleRequest, http: HttpMessage): SampleRequest {
  return { ...request, http, original: request.original ?? request.http, memo: new Map() };
}

/** The request with its response changed by a rule (a custom error, a response header modification). */
export function withResponse(request: SampleRequest, response: SampleResponse): SampleRequest {
  const original = request.response?.original ?? request.response?.headers;
  return { ...request, response: { ...response, ...(original ? { original } : {}) }, memo: new Map() };
}

/** The request with edge values added where it has none of its own (the zone's name, for one). */
export function withEdgeDefaults(
  request: SampleRequest,
  defaults: ReadonlyMap<string, Value>,
): SampleRequest {
  const missing = [...defaults].filter(([field]) => !request.edge.has(field) && !request.fields.has(field));
  if (missing.length === 0) return request;
  return { ...request, edge: new Map([...request.edge, ...missing]), memo: new Map() };
}
