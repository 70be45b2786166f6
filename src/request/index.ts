import { cloudflareScheme, type Scheme } from '../scheme/scheme.js';
import { asciiLower, type Value } from '../scheme/values.js';
import { ALIASES, DERIVATIONS, RESPONSE_DERIVATIONS } from './derive.js';
import type { RequestProblem, SampleRequest } from './model.js';
import { readRequest } from './read.js';

/**
 * Sample requests: the JSON format users write by hand (docs/request.md) and the field values it gives.
 * A value comes from, in order: `fields` (explicit, wins), the `edge` data (client IP, geolocation, scores,
 * timestamp), then the HTTP message (method, URL, headers, body). A field none of them provides is
 * missing (undefined), never a made-up default.
 */

export { EDGE_KEYS } from './edge.js';
export { pathSegments } from './json.js';
export type { HeaderLine, HttpMessage, RequestProblem, SampleRequest, SampleResponse } from './model.js';
export { withEdgeDefaults, withMessage, withResponse } from './model.js';
export { DEFAULT_BODY_LIMIT, REQUEST_KEYS } from './read.js';

/** Reads a sample request from parsed JSON; never throws. `scheme` (default Cloudflare's) types `fields`. */
export function readSampleRequest(
  json: unknown,
  scheme: Scheme = cloudflareScheme,
): { ok: true; request: SampleRequest } | { ok: false; problems: RequestProblem[] } {
  try {
    return readRequest(json, scheme);
  } catch (error) {
    // Not expected (the property tests feed arbitrary values), but callers were promised no exceptions.
    return {
      ok: false,
      problems: [{ path: '', message: `internal error reading the request: ${String(error)}` }],
    };
  }
}

/** `headers[2][0]: not a valid header name…`, or the message alone for the request as a whole. */
export function formatRequestProblem(problem: RequestProblem): string {
  return problem.path === '' ? problem.message : `${problem.path}: ${problem.message}`;
}

export type FieldDeriver = (request: SampleRequest) => Value | undefined;

const derivers = new Map<string, FieldDeriver>();

/**
 * The function giving a field's value for any request, resolved once per field (the compiler does it at
 * compile time, then calls it at most once per request).
 */
export function fieldDeriver(field: string): FieldDeriver {
  let deriver = derivers.get(field);
  if (!deriver) {
    deriver = makeDeriver(field);
    // Only catalogue names are cached, so that arbitrary names (custom schemes, fuzzing) cannot grow it.
    if (cloudflareScheme.fields.has(field)) derivers.set(field, deriver);
  }
  return deriver;
}

/**
 * `field[key]` without building the map, for a map field a request's message gives: the headers of one
 * lower-case name (`http.request.headers["x-api-key"]`), found among the message's lines. Undefined for
 * other fields. The same value as the map's entry for any request; one that gives the field some other way
 * (in `fields`, a custom scheme) goes through the map. A zone's rules mostly read a header or two, and the
 * whole map cost a sixth of a request decided by 1,000 firewall rules (bench/zone.ts).
 */
export function mapEntryDeriver(field: string, key: string): FieldDeriver | undefined {
  if (field !== 'http.request.headers') return undefined;
  const whole = fieldDeriver(field);
  return (request) => {
    const http = request.http;
    if (
      http === undefined ||
      request.fields.size > 0 ||
      request.derivable !== undefined ||
      request.edge.has(field)
    ) {
      const map = whole(request);
      return map instanceof Map ? map.get(key) : undefined;
    }
    // As the map's keys are made (asciiLower), not as headerValues compares names (toLowerCase, which also
    // folds non-ASCII letters a rewritten header's name may hold).
    const values: string[] = [];
    for (const [name, value] of http.headers)
      if (name.length === key.length && asciiLower(name) === key) values.push(value);
    return values.length > 0 ? values : undefined;
  };
}

/** The value of a field for a request; undefined when the request cannot provide it. */
export function fieldValue(request: SampleRequest, field: string): Value | undefined {
  return fieldDeriver(field)(request);
}

const PARTNERS = new Map<string, string>([
  ...ALIASES,
  ...[...ALIASES].map(([a, b]): [string, string] => [b, a]),
]);

function makeDeriver(field: string): FieldDeriver {
  // A constant of the catalogue (`true`) is not derived from the request. A sample request of Cloudflare's
  // scheme cannot set it (read.ts); one of a custom scheme that declares an ordinary field of that name can.
  const constant = cloudflareScheme.fields.get(field)?.constant;
  if (constant !== undefined) return (request) => request.fields.get(field) ?? constant;
  const partner = PARTNERS.get(field);
  const canonical = ALIASES.get(field) ?? field;
  const derive = DERIVATIONS.get(canonical);
  const fromResponse = RESPONSE_DERIVATIONS.get(canonical);
  return (request) => {
    const own = request.fields.get(field);
    if (own !== undefined) return own;
    if (partner !== undefined) {
      const other = request.fields.get(partner);
      if (other !== undefined) return other;
    }
    // A custom scheme's field derives only when it means what Cloudflare's field of that name means.
    if (request.derivable !== undefined && !request.derivable.has(field)) return undefined;
    const edge = request.edge.get(canonical);
    if (edge !== undefined) return edge;
    if (fromResponse !== undefined)
      return request.response === undefined ? undefined : fromResponse(request.response);
    const http = request.http;
    return derive !== undefined && http !== undefined ? derive(request, http) : undefined;
  };
}

/** The fields a request can derive (beyond `fields` and `edge`), for documentation and tests. */
export const DERIVED_FIELDS: readonly string[] = [...DERIVATIONS.keys(), ...RESPONSE_DERIVATIONS.keys()];
