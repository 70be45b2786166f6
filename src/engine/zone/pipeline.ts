import type { Filter } from '../../eval/compile.js';
import type { RequestContext } from '../../eval/context.js';
import type { HeaderLine, HttpMessage, SampleRequest } from '../../request/index.js';
import { fieldValue, withMessage, withResponse } from '../../request/index.js';
import type { RequestChange, RewrittenRequest } from '../outcome.js';
import type { HeaderChange, RuleEffect, ValueSource } from './program.js';
import { isObject, segment } from './shape.js';

/**
 * The Rules products' actions (docs/engine.md, "The request pipeline"): read from a rule's
 * `action_parameters` when the zone is compiled, and applied to the request when the rule matches. A URL
 * rewrite or a header modification gives the later rules and phases a changed request, whose `raw.http.…`
 * fields still read the request as sent; redirects end the request; configuration, origin and cache rules
 * put settings in effect.
 */

/** What reading a rule's parameters needs from the zone compiler. */
export interface EffectReader {
  problem(path: string, code: string, message: string): void;
  /** A rewrite expression compiled for the rule's phase; undefined when invalid (reported). */
  rewriteExpression(source: string, path: string): Filter | undefined;
}

const REDIRECT_STATUSES = [301, 302, 303, 307, 308];
const HEADER_OPERATIONS = ['set', 'add', 'remove'] as const;

/** The actions that put their parameters in effect as settings, and the group they go to. */
const SETTINGS_GROUPS: Readonly<Record<string, Extract<RuleEffect, { kind: 'settings' }>['group']>> = {
  set_config: 'config',
  route: 'origin',
  set_cache_settings: 'cache',
  compress_response: 'compression',
  log_custom_field: 'log',
};

/** The effect of a rule whose action is a Rules product's; undefined for the WAF's actions. */
export function readEffect(
  action: string,
  phase: string,
  parameters: Record<string, unknown>,
  path: string,
  reader: EffectReader,
): RuleEffect | undefined {
  const group = SETTINGS_GROUPS[action];
  if (group) return { kind: 'settings', group, values: parameters };
  if (action === 'redirect') return readRedirect(parameters, path, reader);
  if (action === 'serve_error') return readServeError(parameters, path, reader);
  if (action !== 'rewrite') return undefined;
  const of = phase === 'http_response_headers_transform' ? 'response' : 'request';
  return readRewrite(parameters, path, reader, of);
}

/** `{value}` or `{expression}`: exactly one, a string. */
function readSource(json: unknown, path: string, reader: EffectReader): ValueSource | undefined {
  if (!isObject(json)) {
    reader.problem(path, 'invalid-value', 'expected {"value": "…"} or {"expression": "…"}');
    return undefined;
  }
  const { value, expression } = json;
  if ((value === undefined) === (expression === undefined)) {
    reader.problem(path, 'invalid-value', 'expected exactly one of value and expression');
    return undefined;
  }
  if (value !== undefined) {
    if (typeof value === 'string') return { value };
    reader.problem(`${path}/value`, 'invalid-value', 'expected a string');
    return undefined;
  }
  if (typeof expression !== 'string') {
    reader.problem(`${path}/expression`, 'invalid-value', 'expected a string');
    return undefined;
  }
  const filter = reader.rewriteExpression(expression, `${path}/expression`);
  return filter && { expression, filter };
}

function readRewrite(
  parameters: Record<string, unknown>,
  path: string,
  reader: EffectReader,
  of: 'request' | 'response',
): RuleEffect {
  const effect: Extract<RuleEffect, { kind: 'rewrite' }> = { kind: 'rewrite', of, headers: [] };
  const { uri, headers } = parameters;
  if (uri !== undefined) {
    if (!isObject(uri)) reader.problem(`${path}/uri`, 'invalid-value', 'expected {"path"?, "query"?}');
    else {
      if (uri.path !== undefined) effect.path = readSource(uri.path, `${path}/uri/path`, reader);
      if (uri.query !== undefined) effect.query = readSource(uri.query, `${path}/uri/query`, reader);
    }
  }
  if (headers !== undefined) {
    if (!isObject(headers))
      reader.problem(`${path}/headers`, 'invalid-value', 'expected {"<header name>": {"operation": …}}');
    else
      for (const [name, change] of Object.entries(headers)) {
        const read = readHeaderChange(name, change, `${path}/headers${segment(name)}`, reader);
        if (read) effect.headers.push(read);
      }
  }
  return effect;
}

function readHeaderChange(
  name: string,
  json: unknown,
  path: string,
  reader: EffectReader,
): HeaderChange | undefined {
  const operation = isObject(json) ? json.operation : undefined;
  if (!isObject(json) || !HEADER_OPERATIONS.includes(operation as HeaderChange['operation'])) {
    reader.problem(path, 'invalid-value', `expected {"operation": ${HEADER_OPERATIONS.join(' | ')}, …}`);
    return undefined;
  }
  const change: HeaderChange = { name, operation: operation as HeaderChange['operation'] };
  if (operation === 'remove') return change;
  const { operation: _operation, ...source } = json;
  change.source = readSource(source, path, reader);
  return change.source && change;
}

function readServeError(parameters: Record<string, unknown>, path: string, reader: EffectReader): RuleEffect {
  const { status_code: status, content_type: contentType } = parameters;
  const effect: Extract<RuleEffect, { kind: 'serve_error' }> = { kind: 'serve_error' };
  if (typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 999)
    effect.status = status;
  else if (status !== undefined)
    reader.problem(`${path}/status_code`, 'invalid-value', 'expected a status code from 100 to 999');
  if (typeof contentType === 'string') effect.contentType = contentType;
  else if (contentType !== undefined)
    reader.problem(`${path}/content_type`, 'invalid-value', 'expected a string');
  return effect;
}

function readRedirect(
  parameters: Record<string, unknown>,
  path: string,
  reader: EffectReader,
): RuleEffect | undefined {
  const { from_value: fromValue, from_list: fromList } = parameters;
  if (isObject(fromList)) {
    const name = typeof fromList.name === 'string' ? fromList.name : '(unnamed)';
    return { kind: 'redirect', list: name, status: 301, preserveQuery: false };
  }
  if (!isObject(fromValue)) {
    reader.problem(path, 'invalid-value', 'a redirect needs from_value (or from_list)');
    return undefined;
  }
  const status = fromValue.status_code ?? 301;
  if (!REDIRECT_STATUSES.includes(status as number)) {
    reader.problem(
      `${path}/from_value/status_code`,
      'invalid-value',
      `expected one of ${REDIRECT_STATUSES.join(', ')}`,
    );
    return undefined;
  }
  const target = readSource(fromValue.target_url, `${path}/from_value/target_url`, reader);
  if (!target) return undefined;
  return {
    kind: 'redirect',
    target,
    status: status as number,
    preserveQuery: fromValue.preserve_query_string === true,
  };
}

/** A source's value for the request: the static value, or the expression's (undefined when missing). */
export function sourceValue(source: ValueSource, context: RequestContext): string | undefined {
  if ('value' in source) return source.value;
  const value = source.filter.value(context);
  return typeof value === 'string' ? value : undefined;
}

/** What a rewrite did: the request the later rules see, and the changes for the trace. */
export interface Rewrite {
  request: SampleRequest;
  changes: RequestChange[];
  /** The parts whose expression had no value for this request (left unchanged). */
  missing: string[];
}

/**
 * Applies a URL rewrite or header modification, of the request or of its response; undefined when the
 * request has no message (or response) to change.
 */
export function applyRewrite(
  effect: Extract<RuleEffect, { kind: 'rewrite' }>,
  request: SampleRequest,
  context: RequestContext,
): Rewrite | undefined {
  if (effect.of === 'response') return applyResponseRewrite(effect, request, context);
  const http = request.http;
  if (!http) return undefined;
  const changes: RequestChange[] = [];
  const missing: string[] = [];
  let path = http.path;
  let query = http.query;
  let headers: HeaderLine[] = [...http.headers];
  const valueFor = valuesNoting(context, missing);
  if (effect.path) {
    const value = valueFor(effect.path, 'http.request.uri.path');
    if (value !== undefined && value !== path) {
      changes.push(change('http.request.uri.path', path, value));
      path = value;
    }
  }
  if (effect.query) {
    const value = valueFor(effect.query, 'http.request.uri.query');
    // An empty query removes the `?` as well.
    const next = value === '' ? undefined : value;
    if (value !== undefined && next !== query) {
      changes.push(change('http.request.uri.query', query, next));
      query = next;
    }
  }
  headers = changedHeaders(headers, effect.headers, 'http.request.headers', valueFor, changes);
  if (changes.length === 0) return { request, changes, missing };
  const message: HttpMessage = { ...http, path, query, headers };
  return { request: withMessage(request, message), changes, missing };
}

/** A source's value for the request, the target noted in `missing` when it has none. */
const valuesNoting =
  (context: RequestContext, missing: string[]) =>
  (source: ValueSource, target: string): string | undefined => {
    const value = sourceValue(source, context);
    if (value === undefined) missing.push(target);
    return value;
  };

/** The header lines after a rule's header changes, each change recorded under `field["name"]`. */
function changedHeaders(
  lines: readonly HeaderLine[],
  edits: readonly HeaderChange[],
  field: string,
  valueFor: (source: ValueSource, target: string) => string | undefined,
  changes: RequestChange[],
): HeaderLine[] {
  let headers = [...lines];
  for (const header of edits) {
    const lower = header.name.toLowerCase();
    const target = `${field}[${JSON.stringify(lower)}]`;
    const before = headers.filter(([name]) => name.toLowerCase() === lower).map(([, value]) => value);
    const value = header.source ? valueFor(header.source, target) : undefined;
    if (header.operation !== 'remove' && value === undefined) continue;
    if (header.operation !== 'add') headers = headers.filter(([name]) => name.toLowerCase() !== lower);
    if (value !== undefined) headers.push([header.name, value]);
    const after = headers.filter(([name]) => name.toLowerCase() === lower).map(([, v]) => v);
    if (before.join('\n') !== after.join('\n')) changes.push(change(target, joined(before), joined(after)));
  }
  return headers;
}

function applyResponseRewrite(
  effect: Extract<RuleEffect, { kind: 'rewrite' }>,
  request: SampleRequest,
  context: RequestContext,
): Rewrite | undefined {
  const response = request.response;
  if (!response) return undefined;
  const changes: RequestChange[] = [];
  const missing: string[] = [];
  const valueFor = valuesNoting(context, missing);
  const headers = changedHeaders(
    response.headers,
    effect.headers,
    'http.response.headers',
    valueFor,
    changes,
  );
  if (changes.length === 0) return { request, changes, missing };
  return { request: withResponse(request, { ...response, headers }), changes, missing };
}

/** Serves a custom error: the response's status and content type become the rule's. */
export function serveError(
  effect: Extract<RuleEffect, { kind: 'serve_error' }>,
  request: SampleRequest,
  context: RequestContext,
): Rewrite | undefined {
  const response = request.response;
  if (!response) return undefined;
  const changes: RequestChange[] = [];
  const status = effect.status ?? response.status;
  if (status !== response.status)
    changes.push(change('http.response.code', String(response.status), String(status)));
  let headers = [...response.headers];
  if (effect.contentType !== undefined) {
    const edit: HeaderChange = {
      name: 'Content-Type',
      operation: 'set',
      source: { value: effect.contentType },
    };
    headers = changedHeaders(headers, [edit], 'http.response.headers', valuesNoting(context, []), changes);
  }
  if (changes.length === 0) return { request, changes, missing: [] };
  return { request: withResponse(request, { ...response, status, headers }), changes, missing: [] };
}

/** The response as the phases left it, for the result, when a rule changed it. */
export function changedResponse(
  request: SampleRequest,
): { status: number; headers: [string, string][] } | undefined {
  const response = request.response;
  if (!response?.original) return undefined;
  return { status: response.status, headers: response.headers.map(([name, value]) => [name, value]) };
}

const joined = (values: string[]): string | undefined =>
  values.length === 0 ? undefined : values.join(', ');

function change(target: string, before: string | undefined, after: string | undefined): RequestChange {
  return { target, ...(before !== undefined ? { before } : {}), ...(after !== undefined ? { after } : {}) };
}

/** The URL a redirect sends the client to: its target, with the request's query when it keeps it. */
export function redirectUrl(target: string, query: string | undefined, preserveQuery: boolean): string {
  if (!preserveQuery || query === undefined || query === '') return target;
  return `${target}${target.includes('?') ? '&' : '?'}${query}`;
}

/** The request as the phases left it, for the result: its URL as the request's own fields give it. */
export function rewrittenRequest(request: SampleRequest): RewrittenRequest | undefined {
  const http = request.http;
  if (!http || !request.original) return undefined;
  const url = fieldValue(request, 'http.request.full_uri') ?? fieldValue(request, 'http.request.uri');
  return {
    url: typeof url === 'string' ? url : '',
    ...(http.path !== undefined ? { path: http.path } : {}),
    ...(http.query !== undefined ? { query: http.query } : {}),
    headers: http.headers.map(([name, value]) => [name, value]),
  };
}
