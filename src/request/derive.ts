import type { Value } from '../scheme/values.js';
import { asciiLower } from '../scheme/values.js';
import { formPairs, inspectedBody, multipartMap, multipartParts, sniffMime } from './body.js';
import { type HeaderLine, type HttpMessage, memo, type SampleRequest, type SampleResponse } from './model.js';
import {
  acceptedLanguages,
  headerValues,
  type Pair,
  pairsToMap,
  pathExtension,
  splitArguments,
  splitCookies,
} from './parsing.js';
import {
  argsCombinedSize,
  bodyProcessor,
  filesCombinedSize,
  multipartHeaders,
  requestBasename,
  requestBodyVariable,
  requestFilename,
  requestLine,
  wafArguments,
  wafCookies,
  wafFiles,
  xmlValues,
} from './waf-targets.js';

/**
 * Fields derived from the HTTP message, each as Cloudflare documents it. A derivation returns undefined
 * (a missing value) when the message lacks what it needs; header-based text fields are '' when the header
 * is absent, which is what Cloudflare gives rules such as `http.user_agent eq ""`.
 */
type Derivation = (request: SampleRequest, h: HttpMessage) => Value | undefined;

const uri = (h: HttpMessage) =>
  h.path === undefined ? undefined : h.query === undefined ? h.path : `${h.path}?${h.query}`;

/** The query's pairs, parsed once for `.args`, `.args.names` and `.args.values`. */
const queryPairs = (request: SampleRequest, h: HttpMessage): Pair[] | undefined =>
  h.path === undefined ? undefined : memo(request, 'query', () => splitArguments(h.query ?? ''));

const urlAuthority = (h: HttpMessage) =>
  h.host === undefined ? undefined : h.port === undefined ? h.host : `${h.host}:${h.port}`;

const firstHeader = (h: HttpMessage, lowerName: string) => headerValues(h.headers, lowerName)[0];

function fullUri(h: HttpMessage): string | undefined {
  const authority = urlAuthority(h) ?? firstHeader(h, 'host');
  const target = uri(h);
  if (h.scheme === undefined || authority === undefined || target === undefined) return undefined;
  return `${h.scheme}://${authority}${target}`;
}

const names = (pairs: readonly Pair[] | undefined) => pairs?.map(([name]) => name);
const values = (pairs: readonly Pair[] | undefined) => pairs?.map(([, value]) => value);
const toMap = (pairs: readonly Pair[] | undefined) => (pairs === undefined ? undefined : pairsToMap(pairs));

/**
 * Fields that also have an untransformed `raw.http.…` copy: both agree until a rule changes the message
 * (SampleRequest.original), then the raw copy reads the message as sent.
 */
const withRawCopy: Record<string, Derivation> = {
  'request.full_uri': (_, h) => fullUri(h),
  'request.uri': (_, h) => uri(h),
  'request.uri.path': (_, h) => h.path,
  'request.uri.path.extension': (_, h) => (h.path === undefined ? undefined : pathExtension(h.path)),
  'request.uri.query': (_, h) => (h.path === undefined ? undefined : (h.query ?? '')),
  'request.uri.args': (r, h) => toMap(queryPairs(r, h)),
  'request.uri.args.names': (r, h) => names(queryPairs(r, h)),
  'request.uri.args.values': (r, h) => values(queryPairs(r, h)),
  'request.headers': (_, h) => pairsToMap(h.headers, asciiLower),
  'request.headers.names': (_, h) => names(h.headers),
  'request.headers.values': (_, h) => values(h.headers),
};

/** The request as the client sent it, with memos of its own (a parsed query is the sent query's). */
const asSent = (request: SampleRequest, original: HttpMessage): SampleRequest =>
  memo(request, 'as-sent', () => ({ ...request, http: original, original: undefined, memo: new Map() }));

const cookieHeaders = (h: HttpMessage) => headerValues(h.headers, 'cookie');

export const DERIVATIONS: ReadonlyMap<string, Derivation> = new Map<string, Derivation>([
  ...Object.entries(withRawCopy).flatMap(([suffix, derive]): [string, Derivation][] => [
    [`http.${suffix}`, derive],
    [`raw.http.${suffix}`, (r, h) => (r.original ? derive(asSent(r, r.original), r.original) : derive(r, h))],
  ]),
  ['http.request.method', (_, h) => h.method],
  ['http.request.version', (_, h) => h.version],
  // Sample requests never carry more headers than the edge keeps.
  ['http.request.headers.truncated', () => false],
  ['http.host', (_, h) => firstHeader(h, 'host') ?? urlAuthority(h)],
  ['http.user_agent', (_, h) => firstHeader(h, 'user-agent') ?? ''],
  ['http.referer', (_, h) => firstHeader(h, 'referer') ?? ''],
  // Repeated headers are one list: cookies join with `; ` (as HTTP/2 requires), X-Forwarded-For with `, `.
  ['http.cookie', (_, h) => cookieHeaders(h).join('; ')],
  ['http.x_forwarded_for', (_, h) => headerValues(h.headers, 'x-forwarded-for').join(', ')],
  ['http.request.cookies', (_, h) => pairsToMap(splitCookies(cookieHeaders(h)))],
  [
    'http.request.accepted_languages',
    (_, h) => acceptedLanguages(headerValues(h.headers, 'accept-language')),
  ],
  ['ssl', (_, h) => (h.scheme === undefined ? undefined : h.scheme === 'https')],
  [
    'cf.edge.server_port',
    (_, h) => h.port ?? (h.scheme === 'https' ? 443 : h.scheme === 'http' ? 80 : undefined),
  ],
  ['http.request.body.raw', (_, h) => inspectedBody(h)],
  ['http.request.body.size', (_, h) => h.body.length],
  ['http.request.body.truncated', (_, h) => h.body.length > h.bodyLimit],
  ['http.request.body.mime', (_, h) => sniffMime(inspectedBody(h))],
  ['http.request.body.form', (r, h) => toMap(formPairs(r, h))],
  ['http.request.body.form.names', (r, h) => names(formPairs(r, h))],
  ['http.request.body.form.values', (r, h) => values(formPairs(r, h))],
  [
    'http.request.body.multipart',
    (r, h) => {
      const parts = multipartParts(r, h);
      return parts && multipartMap(parts);
    },
  ],
  ['http.request.body.multipart.names', (r, h) => multipartParts(r, h)?.map((part) => part.names)],
  ['http.request.body.multipart.values', (r, h) => multipartParts(r, h)?.map((part) => part.value)],
  [
    'http.request.body.multipart.content_types',
    (r, h) => multipartParts(r, h)?.map((part) => part.contentTypes),
  ],
  [
    'http.request.body.multipart.content_dispositions',
    (r, h) => multipartParts(r, h)?.map((part) => part.dispositions),
  ],
  [
    'http.request.body.multipart.content_transfer_encodings',
    (r, h) => multipartParts(r, h)?.map((part) => part.transferEncodings),
  ],
  ['http.request.body.multipart.filenames', (r, h) => multipartParts(r, h)?.map((part) => part.filenames)],
  ...wafDerivations(),
]);

/** The `waf.*` fields of managed rules: what a WAF inspects, read as ModSecurity reads it (waf-targets.ts). */
function wafDerivations(): [string, Derivation][] {
  const allArguments = (r: SampleRequest, h: HttpMessage) => {
    const { query, body } = wafArguments(r, h);
    return [...query, ...body];
  };
  return [
    ['waf.args', (r, h) => pairsToMap(allArguments(r, h))],
    ['waf.args.names', (r, h) => names(allArguments(r, h))],
    ['waf.args.values', (r, h) => values(allArguments(r, h))],
    ['waf.args.get.names', (r, h) => names(wafArguments(r, h).query)],
    ['waf.args.get.values', (r, h) => values(wafArguments(r, h).query)],
    ['waf.args.post.names', (r, h) => names(wafArguments(r, h).body)],
    ['waf.args.post.values', (r, h) => values(wafArguments(r, h).body)],
    ['waf.cookies', (r, h) => pairsToMap(wafCookies(r, h))],
    ['waf.cookies.names', (r, h) => names(wafCookies(r, h))],
    ['waf.cookies.values', (r, h) => values(wafCookies(r, h))],
    ['waf.headers.names', (_, h) => names(h.headers)],
    ['waf.headers.values', (_, h) => values(h.headers)],
    ['waf.files.names', (r, h) => values(wafFiles(r, h))],
    ['waf.files.fields', (r, h) => names(wafFiles(r, h))],
    ['waf.files.combined_size', (r, h) => filesCombinedSize(r, h)],
    ['waf.args.combined_size', (r, h) => argsCombinedSize(r, h)],
    ['waf.multipart.headers', (r, h) => multipartHeaders(r, h)],
    ['waf.xml.values', (_, h) => xmlValues(h)],
    ['waf.request.filename', (_, h) => requestFilename(h)],
    ['waf.request.basename', (_, h) => requestBasename(h)],
    ['waf.request.uri', (_, h) => uri(h)],
    ['waf.request.line', (_, h) => requestLine(h)],
    ['waf.request.body', (_, h) => requestBodyVariable(h)],
    ['waf.request.body.processor', (_, h) => bodyProcessor(h)?.toUpperCase() ?? ''],
  ];
}

/**
 * Fields that are two names for one value: the deprecated `ip.geoip.*` names and `cf.client.bot`. A value
 * given for either name (in `fields`) is the value of both.
 */
export const ALIASES: ReadonlyMap<string, string> = new Map([
  ['ip.geoip.asnum', 'ip.src.asnum'],
  ['ip.geoip.continent', 'ip.src.continent'],
  ['ip.geoip.country', 'ip.src.country'],
  ['ip.geoip.subdivision_1_iso_code', 'ip.src.subdivision_1_iso_code'],
  ['ip.geoip.subdivision_2_iso_code', 'ip.src.subdivision_2_iso_code'],
  ['ip.geoip.is_in_european_union', 'ip.src.is_in_european_union'],
  ['cf.client.bot', 'cf.bot_management.verified_bot'],
]);

/** The response fields, from the request's `response` (the headers as changed, or as sent for `raw.`). */
const responseHeaders: Record<string, (lines: readonly HeaderLine[]) => Value> = {
  'response.headers': (lines) => pairsToMap(lines, asciiLower),
  'response.headers.names': (lines) => lines.map(([name]) => name),
  'response.headers.values': (lines) => lines.map(([, value]) => value),
};

export const RESPONSE_DERIVATIONS: ReadonlyMap<string, (response: SampleResponse) => Value | undefined> =
  new Map<string, (response: SampleResponse) => Value | undefined>([
    ['http.response.code', (response) => response.status],
    [
      'http.response.content_type.media_type',
      (response) => {
        const value = headerValues(response.headers, 'content-type')[0];
        return value === undefined ? undefined : asciiLower((value.split(';')[0] as string).trim());
      },
    ],
    ...Object.entries(responseHeaders).flatMap(
      ([suffix, derive]): [string, (r: SampleResponse) => Value][] => [
        [`http.${suffix}`, (response) => derive(response.headers)],
        [`raw.http.${suffix}`, (response) => derive(response.original ?? response.headers)],
      ],
    ),
  ]);
