import type { RuleAction, RulesetPhase } from './model.js';
import type { Shape } from './shapes.js';

/**
 * `action_parameters` of the Rules products' actions, as data: what Cloudflare's API schema accepts for
 * each (member names, types, allowed values and ranges). The WAF's own actions (block, execute, skip) are
 * read by ./action-parameters.ts.
 */

const bool: Shape = { type: 'boolean' };
const onlyTrue: Shape = { type: 'boolean', onlyTrue: true };
const text: Shape = { type: 'string', min: 1 };
const texts: Shape = { type: 'list', of: text };
const expression: Shape = { type: 'expression' };
const object = (
  members: Record<string, Shape>,
  rest: Omit<Extract<Shape, { type: 'object' }>, 'type' | 'members'> = {},
): Shape => ({ type: 'object', members, ...rest });

/** A static value or an expression computing one: `{value}` or `{expression}`. */
const valueOrExpression: Shape = object({ value: text, expression }, { exactlyOne: ['value', 'expression'] });

/** A header operation of a Transform Rule: set or add (with a value or an expression), or remove. */
const headerOperation = (operations: readonly string[]): Shape =>
  object(
    { operation: { type: 'string', values: operations }, value: text, expression },
    {
      required: ['operation'],
      check: ({ operation, value, expression: computed }) => {
        const given = [value, computed].filter((member) => member !== undefined).length;
        if (operation === 'remove')
          return given === 0 ? undefined : 'the remove operation takes neither value nor expression';
        return given === 1 ? undefined : `the ${operation} operation takes exactly one of value, expression`;
      },
    },
  );

/** Header names as HTTP allows them (a token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const headers = (operations: readonly string[]): Shape => ({
  type: 'map',
  of: headerOperation(operations),
  keyPattern: HEADER_NAME,
  keyText: 'a header name',
});

/**
 * rewrite: URL rewrites (path, query) in http_request_transform, header modifications in every transform
 * phase; response headers may also be added to.
 */
function rewrite(phase: RulesetPhase): Shape {
  if (phase === 'http_response_headers_transform')
    return object({ headers: headers(['set', 'add', 'remove']) }, { required: ['headers'] });
  const requestHeaders = headers(['set', 'add', 'remove']);
  if (phase === 'http_request_late_transform')
    return object({ headers: requestHeaders }, { required: ['headers'] });
  return object(
    {
      // `origin`: the provider 4 sends it (false); the API takes it.
      uri: object({ path: valueOrExpression, query: valueOrExpression, origin: bool }, { nonEmpty: true }),
      headers: requestHeaders,
    },
    { nonEmpty: true },
  );
}

/** redirect: a Single Redirect (Bulk Redirects' from_list belongs to account-level http_request_redirect). */
const redirect: Shape = object(
  {
    from_value: object(
      {
        status_code: { type: 'integer', min: 301, max: 308, values: [301, 302, 303, 307, 308] },
        target_url: valueOrExpression,
        preserve_query_string: bool,
      },
      { required: ['target_url'] },
    ),
  },
  { required: ['from_value'] },
);

/** route: Origin Rules. */
const route: Shape = object(
  {
    host_header: text,
    origin: object({ host: text, port: { type: 'integer', min: 1, max: 65535 } }, { nonEmpty: true }),
    sni: object({ value: text }, { required: ['value'] }),
  },
  { nonEmpty: true },
);

/** set_config: Configuration Rules. */
const setConfig: Shape = object(
  {
    automatic_https_rewrites: bool,
    autominify: object({ css: bool, html: bool, js: bool }),
    bic: bool,
    disable_apps: onlyTrue,
    disable_rum: onlyTrue,
    disable_zaraz: onlyTrue,
    email_obfuscation: bool,
    fonts: bool,
    hotlink_protection: bool,
    mirage: bool,
    opportunistic_encryption: bool,
    polish: { type: 'string', values: ['off', 'lossless', 'lossy', 'webp'] },
    rocket_loader: bool,
    security_level: {
      type: 'string',
      values: ['off', 'essentially_off', 'low', 'medium', 'high', 'under_attack'],
    },
    server_side_excludes: bool,
    ssl: { type: 'string', values: ['off', 'flexible', 'full', 'strict', 'origin_pull'] },
    sxg: bool,
  },
  { nonEmpty: true },
);

const TTL_MODES = ['respect_origin', 'bypass_by_default', 'override_origin'];
const seconds: Shape = { type: 'integer', min: 0, max: Number.MAX_SAFE_INTEGER };
const statusCode: Shape = { type: 'integer', min: 100, max: 999 };
/** Query parameters of a cache key: `{all, list}`, or the older form, a list of names (`["*"]`: all). */
const queryParameters: Shape = { type: 'anyOf', options: [object({ all: bool, list: texts }), texts] };

/** set_cache_settings: Cache Rules. */
const setCacheSettings: Shape = object(
  {
    cache: bool,
    edge_ttl: object(
      {
        mode: { type: 'string', values: TTL_MODES },
        default: seconds,
        status_code_ttl: {
          type: 'list',
          of: object(
            {
              status_code: statusCode,
              status_code_range: object({ from: statusCode, to: statusCode }, { nonEmpty: true }),
              value: { type: 'integer', min: -1, max: Number.MAX_SAFE_INTEGER },
            },
            { required: ['value'], exactlyOne: ['status_code', 'status_code_range'] },
          ),
        },
      },
      { required: ['mode'] },
    ),
    browser_ttl: object(
      { mode: { type: 'string', values: TTL_MODES }, default: seconds },
      { required: ['mode'] },
    ),
    serve_stale: object({ disable_stale_while_updating: bool }),
    respect_strong_etags: bool,
    cache_key: object({
      cache_by_device_type: bool,
      cache_deception_armor: bool,
      ignore_query_strings_order: bool,
      custom_key: object({
        cookie: object({ include: texts, check_presence: texts }),
        header: object({
          include: texts,
          check_presence: texts,
          exclude_origin: bool,
          contains: { type: 'map', of: texts },
        }),
        host: object({ resolved: bool }),
        query_string: object({ include: queryParameters, exclude: queryParameters }),
        user: object({ device_type: bool, geo: bool, lang: bool }),
      }),
    }),
    cache_reserve: object(
      { eligible: bool, minimum_file_size: seconds },
      { required: ['eligible', 'minimum_file_size'] },
    ),
    origin_cache_control: bool,
    origin_error_page_passthru: bool,
    read_timeout: { type: 'integer', min: 1, max: 6000 },
    additional_cacheable_ports: { type: 'list', of: { type: 'integer', min: 1, max: 65535 } },
    strip_etags: bool,
    strip_last_modified: bool,
    strip_set_cookie: bool,
  },
  { nonEmpty: true },
);

/** serve_error: Custom Error Rules (inline content, or an uploaded asset by name). */
const serveError: Shape = object(
  {
    content: { type: 'string', min: 1, max: 10_240 },
    asset_name: text,
    content_type: { type: 'string', values: ['application/json', 'text/html', 'text/plain', 'text/xml'] },
    status_code: { type: 'integer', min: 400, max: 999 },
  },
  { exactlyOne: ['content', 'asset_name'] },
);

/** compress_response: Compression Rules, algorithms in the order of preference. */
const compressResponse: Shape = object(
  {
    algorithms: {
      type: 'list',
      min: 1,
      of: object(
        { name: { type: 'string', values: ['none', 'auto', 'default', 'gzip', 'brotli', 'zstd'] } },
        { required: ['name'] },
      ),
    },
  },
  { required: ['algorithms'] },
);

/** log_custom_field: the request, response and cookie fields added to Logpush's HTTP requests. */
const fieldNames: Shape = { type: 'list', min: 1, of: object({ name: text }, { required: ['name'] }) };
const logCustomField: Shape = object(
  {
    request_fields: fieldNames,
    transformed_request_fields: fieldNames,
    raw_response_fields: fieldNames,
    response_fields: fieldNames,
    cookie_fields: fieldNames,
  },
  { nonEmpty: true },
);

/** The shape of the action's parameters in the phase, for the actions this file describes. */
export function parameterShape(action: RuleAction, phase: RulesetPhase): Shape | undefined {
  switch (action) {
    case 'rewrite':
      return rewrite(phase);
    case 'redirect':
      return redirect;
    case 'route':
      return route;
    case 'set_config':
      return setConfig;
    case 'set_cache_settings':
      return setCacheSettings;
    case 'serve_error':
      return serveError;
    case 'compress_response':
      return compressResponse;
    case 'log_custom_field':
      return logCustomField;
    default:
      return undefined;
  }
}
