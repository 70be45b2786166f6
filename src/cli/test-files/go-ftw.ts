import { OWASP_RULESET_ID } from '../../engine/managed/catalogue.js';
import { bytesOf } from '../../scheme/values.js';
import type { StructuredFile } from '../structured-file.js';
import type { Expectation, TestCase } from './model.js';

/**
 * Test files of go-ftw, the OWASP Core Rule Set's test runner (YAML: `tests[].stages[].input` / `output`),
 * read as cfrules test cases: each stage is a case whose request is rebuilt as go-ftw would send it, and
 * whose expectations are the rules that must or must not have logged (`log.expect_ids`, `no_expect_ids`,
 * and the older `log_contains: id "942100"`), named by number: a rule matches a number when its
 * description starts with it, as Cloudflare's OWASP rules' descriptions do (`942100: SQL Injection…`).
 *
 * What a simulation cannot tell — an HTTP status other than "blocked" (403) or "passed" (200), a response
 * body, a connection error — leaves a case without that expectation; a case left with none is skipped, with
 * the reason. A request that cannot be put in a sample request (a header value with a line break, a method
 * that is not a token…) is skipped the same way: go-ftw sends such requests on purpose, to test a server's
 * parser, which cfrules does not simulate.
 */

/**
 * The zone go-ftw files run against unless `--zone` names one: the Cloudflare OWASP Core Ruleset deployed
 * alone, at paranoia level 4, so that every rule runs and each expected rule can be seen to log, as CRS's
 * own test setup runs every rule.
 */
export const GO_FTW_ZONE = {
  plan: 'enterprise',
  rulesets: [
    {
      id: 'c0ffee00c0ffee00c0ffee00c0ffee00',
      name: 'go-ftw default zone',
      kind: 'zone',
      phase: 'http_request_firewall_managed',
      rules: [
        {
          id: 'c0ffee00c0ffee00c0ffee00c0ffee01',
          description: 'Cloudflare OWASP Core Ruleset, every rule',
          action: 'execute',
          expression: 'true',
          // Every paranoia level on: the ruleset deploys at level 1.
          action_parameters: {
            id: OWASP_RULESET_ID,
            overrides: {
              categories: [2, 3, 4].map((level) => ({ category: `paranoia-level-${level}`, enabled: true })),
            },
          },
        },
      ],
    },
  ],
};

/** Whether a parsed YAML document is a go-ftw test file rather than a cfrules one. */
export function isGoFtwDocument(value: unknown): boolean {
  if (!isObject(value) || !Array.isArray(value.tests)) return false;
  return value.tests.some((test) => isObject(test) && Array.isArray(test.stages));
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The cases of a go-ftw document, one per stage. */
export function goFtwCases(path: string, document: StructuredFile): TestCase[] {
  const root = document.value as Record<string, unknown>;
  const cases: TestCase[] = [];
  const ruleId = root.rule_id === undefined ? undefined : String(root.rule_id);
  (root.tests as unknown[]).forEach((test, testIndex) => {
    if (!isObject(test) || !Array.isArray(test.stages)) return;
    const stages: unknown[] = test.stages;
    const title =
      typeof test.test_title === 'string'
        ? test.test_title
        : `${ruleId ?? baseName(path)}-${String(test.test_id ?? testIndex + 1)}`;
    stages.forEach((item, stageIndex) => {
      // go-ftw 1.x nests each stage under `stage:`; 2.x does not.
      const stage = isObject(item) && isObject(item.stage) ? item.stage : item;
      const pointer =
        isObject(item) && isObject(item.stage)
          ? `/tests/${testIndex}/stages/${stageIndex}/stage`
          : `/tests/${testIndex}/stages/${stageIndex}`;
      const name = stages.length > 1 ? `${title} (stage ${stageIndex + 1})` : title;
      const line = document.lineOf(pointer);
      const input = isObject(stage) && isObject(stage.input) ? stage.input : {};
      const output = isObject(stage) && isObject(stage.output) ? stage.output : {};
      const built = goFtwRequest(input);
      const expected = goFtwExpectation(output);
      const skipped = built.skip ?? expected.skip;
      cases.push({
        name,
        line,
        pointer,
        request: built.request,
        requestFile: path,
        requestPointer: `${pointer}/input`,
        requestPositionOf: document.positionOf,
        expect: expected.expect,
        ...(skipped === undefined ? {} : { skipped }),
        lenientRequest: true,
      });
    });
  });
  return cases;
}

const baseName = (path: string) => (path.split(/[\\/]/).pop() ?? path).replace(/\.ya?ml$/i, '');

/** The ids a `log_contains` pattern names (`id "942100"`, `id:942100`). */
function idsInLogPattern(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  return [...value.matchAll(/id[\s":=\\]*(\d{6})/g)].map((match) => match[1] as string);
}

const asIds = (value: unknown): string[] =>
  Array.isArray(value) ? value.map((item) => String(item)) : value === undefined ? [] : [String(value)];

/** What a stage's output asks, as far as a simulation can tell it; `skip` says why nothing is left. */
function goFtwExpectation(output: Record<string, unknown>): { expect: Expectation; skip?: string } {
  const log = isObject(output.log) ? output.log : {};
  const fired = [...asIds(log.expect_ids), ...idsInLogPattern(output.log_contains)];
  const notFired = [...asIds(log.no_expect_ids), ...idsInLogPattern(output.no_log_contains)];
  const expect: Expectation = {};
  if (fired.length > 0) expect.fired = [...new Set(fired)];
  if (notFired.length > 0) expect.not_fired = [...new Set(notFired)];
  const statuses = asIds(output.status).map(Number);
  let statusNote: string | undefined;
  if (statuses.length > 0) {
    if (statuses.every((status) => status === 403)) expect.blocked = true;
    else if (statuses.includes(200) && !statuses.includes(403)) expect.blocked = false;
    else
      statusNote = `status ${statuses.join(' or ')} is the server's answer, which cfrules does not simulate`;
  }
  const checks = expect.fired ?? expect.not_fired ?? expect.blocked;
  if (checks !== undefined) return { expect };
  if (output.expect_error === true)
    return { expect, skip: 'expects a connection error, which cfrules does not simulate' };
  if (output.response_contains !== undefined)
    return { expect, skip: "expects text in the server's response, which cfrules does not simulate" };
  if (log.match_regex !== undefined || log.no_match_regex !== undefined)
    return { expect, skip: "expects text in the WAF's log, which cfrules does not write" };
  return { expect, skip: statusNote ?? 'expects nothing cfrules can check' };
}

/** The sample request (docs/request.md) go-ftw would send for a stage's input, or why there is none. */
export function goFtwRequest(input: Record<string, unknown>): { request: unknown; skip?: string } {
  const raw =
    typeof input.encoded_request === 'string'
      ? decodeBase64(input.encoded_request)
      : typeof input.raw_request === 'string'
        ? bytesOf(input.raw_request) // text: go-ftw sends its UTF-8 bytes (YAML's "\xac" is U+00AC, C2 AC)
        : undefined;
  if (raw !== undefined) return rawRequest(raw);
  const headers: [string, string][] = [];
  if (isObject(input.headers)) {
    for (const [name, value] of Object.entries(input.headers)) headers.push([name, String(value ?? '')]);
  } else if (Array.isArray(input.headers)) {
    for (const item of input.headers)
      if (isObject(item)) headers.push([String(item.name ?? ''), String(item.value ?? '')]);
  }
  let body: string | undefined;
  if (typeof input.encoded_data === 'string') body = decodeBase64(input.encoded_data);
  else if (typeof input.data === 'string') body = bytesOf(expandTemplates(input.data));
  else if (Array.isArray(input.data)) body = bytesOf(input.data.map(String).join('\r\n'));
  const method = typeof input.method === 'string' ? input.method : 'GET';
  // go-ftw completes a request as a client would, unless the test says not to (older files: stop_magic).
  if (input.autocomplete_headers !== false && input.stop_magic !== true)
    body = autocomplete(method, headers, body);
  else if (!hasHeader(headers, 'content-length') && !hasHeader(headers, 'transfer-encoding')) {
    // Without a length or chunked encoding, a server reads no body: the WAF sees none.
    body = undefined;
  }
  const uri = typeof input.uri === 'string' ? expandTemplates(input.uri) : '/';
  return build({
    method,
    target: uri === '' ? '/' : uri,
    version: typeof input.version === 'string' ? input.version : 'HTTP/1.1',
    headers,
    ...(body === undefined ? {} : { body: { text: body, bytes: true } }),
    scheme: input.protocol === 'https' ? 'https' : 'http',
  });
}

const hasHeader = (headers: readonly [string, string][], lowerName: string) =>
  headers.some(([name]) => name.toLowerCase() === lowerName);

const headerValue = (headers: readonly [string, string][], lowerName: string) =>
  headers.find(([name]) => name.toLowerCase() === lowerName)?.[1];

/** Methods go-ftw always gives a Content-Length, as its pattern reads them (`^POST|PUT|PATCH|DELETE$`). */
const METHODS_WITH_BODY = /^POST|PUT|PATCH|DELETE$/;

/**
 * What go-ftw adds to a request before it sends it (its "autocomplete headers"): a form Content-Type for
 * a body without one, the form's names and values percent-encoded when the body is not encoded yet, line
 * breaks of a multipart body as CRLF, `Connection: close`, and a Content-Length for a body or a method
 * that takes one. Headers the test gives are kept. Returns the body as sent.
 */
function autocomplete(
  method: string,
  headers: [string, string][],
  data: string | undefined,
): string | undefined {
  let body = data === '' ? undefined : data;
  if (body !== undefined) {
    if (!hasHeader(headers, 'content-type'))
      headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
    if (headerValue(headers, 'content-type') === 'application/x-www-form-urlencoded') body = encodeForm(body);
    if (headerValue(headers, 'content-type')?.startsWith('multipart/form-data;'))
      body = body.replaceAll('\n', '\r\n');
  }
  if (!hasHeader(headers, 'connection')) headers.push(['Connection', 'close']);
  if ((body !== undefined || METHODS_WITH_BODY.test(method)) && !hasHeader(headers, 'content-length'))
    headers.push(['Content-Length', String(body?.length ?? 0)]);
  return body;
}

/**
 * A form body written as text (`a=1 or 1&b=<x>`), encoded the way go-ftw encodes it: each name and value
 * percent-encoded as a query component (space as `+`), unless the body already holds a `%` or a `+`, which
 * go-ftw takes for a body that is encoded already.
 */
function encodeForm(body: string): string {
  if (body.includes('%') || body.includes('+')) return body;
  return body
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq === -1
        ? queryEscape(pair)
        : `${queryEscape(pair.slice(0, eq))}=${queryEscape(pair.slice(eq + 1))}`;
    })
    .join('&');
}

/** Bytes (a binary string) percent-encoded as a query component: letters, digits and `-_.~` kept, space as `+`. */
function queryEscape(bytes: string): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const code = bytes.charCodeAt(i);
    const c = bytes[i] as string;
    if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
    else if (code === 0x20) out += '+';
    else out += `%${code.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

interface Body {
  text: string;
  /** A binary string (one char per byte), not text. */
  bytes: boolean;
}

interface Message {
  method: string;
  target: string;
  version: string;
  headers: [string, string][];
  body?: Body;
  scheme: 'http' | 'https';
}

/** A whole HTTP/1 request as bytes (a binary string): request line, header lines, blank line, body. */
function rawRequest(raw: string): { request: unknown; skip?: string } {
  const end = raw.search(/\r?\n\r?\n/);
  const head = end === -1 ? raw : raw.slice(0, end);
  const body = end === -1 ? '' : raw.slice(end).replace(/^\r?\n\r?\n/, '');
  const [requestLine = '', ...lines] = head.split(/\r?\n/);
  const parts = requestLine.split(' ');
  if (parts.length !== 3)
    return {
      request: {},
      skip: `the request line ${JSON.stringify(requestLine)} is not "METHOD TARGET VERSION"`,
    };
  const headers: [string, string][] = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) return { request: {}, skip: `the header line ${JSON.stringify(line)} has no name` };
    headers.push([line.slice(0, colon), line.slice(colon + 1).trim()]);
  }
  // Bytes of the target that are not ASCII, as a server's parser would read them once decoded.
  const target = (parts[1] as string).replace(
    /[\x80-\xff]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return build({
    method: parts[0] as string,
    target,
    version: parts[2] as string,
    headers,
    body: { text: body, bytes: true },
    scheme: 'http',
  });
}

/**
 * The JSON of a sample request. What the sample-request format cannot carry raw is written the way a
 * server reads it anyway: spaces, control characters and `#` in the target are percent-encoded.
 */
function build(message: Message): { request: unknown; skip?: string } {
  for (const [name, value] of message.headers) {
    if (/[\r\n\0]/.test(value))
      return { request: {}, skip: `the value of header ${name} holds a line break or NUL byte` };
  }
  const target = message.target.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to encode
    /[\x00-\x20\x7f#]/g,
    (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`,
  );
  const request: Record<string, unknown> = {
    method: message.method,
    url: target.startsWith('/') || /^https?:\/\//i.test(target) ? target : `/${target}`,
    version: message.version,
    headers: message.headers,
  };
  if (!/^https?:\/\//i.test(target)) request.scheme = message.scheme;
  if (!message.headers.some(([name]) => name.toLowerCase() === 'host') && !/^https?:\/\//i.test(target))
    request.host = 'localhost';
  if (message.body !== undefined && message.body.text !== '') request.body = bodyJson(message.body);
  return { request };
}

/**
 * A body for the sample request: text as text (sent as UTF-8), anything else as base64 of its bytes. A
 * body read from the YAML is text; one decoded from base64 is bytes (a binary string), flagged `bytes`.
 */
function bodyJson(body: Body): unknown {
  const { text, bytes } = body;
  if (/^[\t\n\r\x20-\x7e]*$/.test(text)) return text;
  if (!bytes) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: text without control characters
    if (!/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(text)) return text;
    let binary = '';
    for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
    return { base64: btoa(binary) };
  }
  return { base64: btoa(text) };
}

function decodeBase64(text: string): string {
  try {
    return atob(text.replace(/\s+/g, ''));
  } catch {
    return '';
  }
}

/** The one template go-ftw's tests use to build long values: `{{ "x" | repeat N }}`. */
function expandTemplates(text: string): string {
  if (!text.includes('{{')) return text;
  return text.replace(
    /\{\{\s*"((?:[^"\\]|\\.)*)"\s*\|\s*repeat\s+(\d+)\s*\}\}/g,
    (_, unit: string, count: string) => JSON.parse(`"${unit}"`).repeat(Math.min(Number(count), 1_000_000)),
  );
}
