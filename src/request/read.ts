import { cloudflareScheme, type Scheme } from '../scheme/scheme.js';
import { sameType } from '../scheme/types.js';
import type { Value } from '../scheme/values.js';
import { readEdge } from './edge.js';
import {
  describe,
  entriesOf,
  isRecord,
  keyPath,
  optionalString,
  Problems,
  unknownKeyMessage,
} from './json.js';
import { HTTP_KEYS, readHeaders, readHttp } from './message.js';
import type { RequestProblem, SampleRequest, SampleResponse } from './model.js';
import { readIp, readTypedValue } from './typed-value.js';

/** Reading the sample-request JSON format (docs/request.md) into a SampleRequest. */

export const REQUEST_KEYS: readonly string[] = [
  'name',
  'description',
  ...HTTP_KEYS,
  'clientIp',
  'timestamp',
  'edge',
  'fields',
  'response',
];

const KNOWN_KEYS: ReadonlySet<string> = new Set(REQUEST_KEYS);
const HTTP_KEY_SET: ReadonlySet<string> = new Set(HTTP_KEYS);

/** Body bytes the body fields see by default: Cloudflare's Enterprise inspection limit, 128 KB. */
export const DEFAULT_BODY_LIMIT = 128 * 1024;

export type ReadResult = { ok: true; request: SampleRequest } | { ok: false; problems: RequestProblem[] };

export function readRequest(json: unknown, scheme: Scheme): ReadResult {
  const problems = new Problems();
  if (!isRecord(json)) {
    problems.add('', `a sample request is a JSON object, got ${describe(json)}`);
    return { ok: false, problems: problems.list };
  }
  let describesMessage = false;
  for (const key of Object.keys(json)) {
    if (json[key] === undefined) continue;
    if (HTTP_KEY_SET.has(key)) describesMessage = true;
    else if (!KNOWN_KEYS.has(key))
      problems.add(keyPath('', key), unknownKeyMessage('key', key, REQUEST_KEYS));
  }
  const name = optionalString(json.name, 'name', problems);
  optionalString(json.description, 'description', problems);

  const edge = new Map<string, Value>();
  let bodyLimit = DEFAULT_BODY_LIMIT;
  if (json.edge !== undefined) bodyLimit = readEdge(json.edge, problems, edge).bodyLimit ?? bodyLimit;
  if (json.clientIp !== undefined) {
    const address = readIp(json.clientIp, 'clientIp', problems);
    if (address) edge.set('ip.src', address);
  }
  if (json.timestamp !== undefined) readTimestamp(json.timestamp, problems, edge);

  const http = describesMessage ? readHttp(json, problems, bodyLimit) : undefined;
  const fields = json.fields !== undefined ? readFields(json.fields, scheme, problems) : NO_FIELDS;
  const response = json.response !== undefined ? readResponse(json.response, problems) : undefined;

  if (problems.count > 0) return { ok: false, problems: problems.list };
  // One object shape for every request (absent members are undefined): replay reads millions of them.
  const request: SampleRequest = {
    name,
    fields,
    edge,
    http,
    derivable: scheme.cloudflare ? undefined : derivableFields(scheme),
    memo: new Map(),
    original: undefined,
    response,
  };
  return { ok: true, request };
}

/** The fields of a request that gives none: one map for all (a request's fields are only read). */
const NO_FIELDS: ReadonlyMap<string, Value> = new Map();

const RESPONSE_KEYS = ['status', 'headers'];

/** `response`: `{status, headers?}`, what the origin answered, for the response phases. */
function readResponse(json: unknown, problems: Problems): SampleResponse | undefined {
  if (!isRecord(json)) {
    problems.add('response', `expected {"status": 200, "headers"?: …}, got ${describe(json)}`);
    return undefined;
  }
  for (const key of Object.keys(json))
    if (!RESPONSE_KEYS.includes(key))
      problems.add(keyPath('response', key), unknownKeyMessage('key', key, RESPONSE_KEYS));
  const { status } = json;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 999) {
    problems.add('response.status', `expected a status code from 100 to 999, got ${describe(status)}`);
    return undefined;
  }
  const headers = json.headers !== undefined ? readHeaders(json.headers, problems, 'response.headers') : [];
  return { status, headers };
}

function readFields(json: unknown, scheme: Scheme, problems: Problems): Map<string, Value> {
  const fields = new Map<string, Value>();
  if (!isRecord(json)) {
    problems.add('fields', `expected an object of field name → value, got ${describe(json)}`);
    return fields;
  }
  for (const [name, raw] of entriesOf(json)) {
    const path = keyPath('fields', name);
    const definition = scheme.fields.get(name);
    // A constant (`true`) is the same for every request: nothing to set.
    if (!definition || definition.constant !== undefined) {
      problems.add(path, unknownKeyMessage('field', name, scheme.fields.keys()));
      continue;
    }
    const value = readTypedValue(raw, definition.type, path, problems);
    if (value !== undefined) fields.set(name, value);
  }
  return fields;
}

const derivableByScheme = new WeakMap<Scheme, ReadonlySet<string>>();

/** A custom scheme's fields that mean what Cloudflare's do: same name, same type. */
function derivableFields(scheme: Scheme): ReadonlySet<string> {
  let set = derivableByScheme.get(scheme);
  if (!set) {
    const names = new Set<string>();
    for (const [name, definition] of scheme.fields) {
      const cloudflare = cloudflareScheme.fields.get(name);
      if (cloudflare && sameType(cloudflare.type, definition.type)) names.add(name);
    }
    set = names;
    derivableByScheme.set(scheme, set);
  }
  return set;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** `timestamp`: Unix seconds (a fraction gives the milliseconds) or an ISO 8601 time with a zone. */
function readTimestamp(json: unknown, problems: Problems, into: Map<string, Value>): void {
  let ms: number;
  if (typeof json === 'number') {
    ms = Math.round(json * 1000);
  } else if (typeof json === 'string' && ISO_TIME.test(json)) {
    ms = Date.parse(json);
  } else {
    problems.add(
      'timestamp',
      `expected Unix seconds or an ISO 8601 time (2024-05-01T12:00:00Z), got ${describe(json)}`,
    );
    return;
  }
  if (!Number.isSafeInteger(ms) || ms < 0) {
    problems.add('timestamp', `${describe(json)} is not a time from 1970 on`);
    return;
  }
  into.set('http.request.timestamp.sec', Math.floor(ms / 1000));
  into.set('http.request.timestamp.msec', ms % 1000);
}
