/**
 * Builders for the corpus's sample requests (docs/request.md): each returns the JSON a user would write,
 * with the headers real clients send. Payloads are placed the way clients encode them (query values
 * percent-encoded as browsers do, forms as `application/x-www-form-urlencoded`, JSON bodies compact).
 */

export type Headers = [string, string][];
export type SampleRequestJson = Record<string, unknown>;

export interface Entry {
  readonly name: string;
  /** The attack family, or the kind of legitimate traffic. */
  readonly kind: string;
  readonly request: SampleRequestJson;
}

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0';
const SAFARI_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const EDGE =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.67';
const SAFARI_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36';

export const BROWSERS = [CHROME, FIREFOX, SAFARI_IOS, EDGE, SAFARI_MAC, ANDROID] as const;

const LANGUAGES = [
  'en-US,en;q=0.9',
  'de-DE,de;q=0.9,en;q=0.8',
  'fr-FR,fr;q=0.8,en-US;q=0.5',
  'en-GB,en;q=0.9',
];

/** Headers of a browser navigating to a page (`n` picks the browser and language). */
export function browserHeaders(host: string, n: number, extra: Headers = []): Headers {
  const userAgent = BROWSERS[n % BROWSERS.length] as string;
  return [
    ['Host', host],
    ['User-Agent', userAgent],
    ['Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'],
    ['Accept-Language', LANGUAGES[n % LANGUAGES.length] as string],
    ['Accept-Encoding', 'gzip, deflate, br'],
    ...(userAgent.includes('Chrome')
      ? ([
          ['Sec-Fetch-Mode', 'navigate'],
          ['Sec-Fetch-Site', 'same-origin'],
        ] as Headers)
      : []),
    ['Upgrade-Insecure-Requests', '1'],
    ...extra,
  ];
}

/** Headers of a script in a page calling the site's JSON API. */
export function fetchHeaders(host: string, n: number, extra: Headers = []): Headers {
  return [
    ['Host', host],
    ['User-Agent', BROWSERS[n % BROWSERS.length] as string],
    ['Accept', 'application/json, text/plain, */*'],
    ['Accept-Language', LANGUAGES[n % LANGUAGES.length] as string],
    ['Origin', `https://${host}`],
    ['Referer', `https://${host}/app`],
    ...extra,
  ];
}

/** Percent-encodes a query value as browsers do (spaces as `%20`; `'()*!` left alone). */
export const encode = (value: string): string => encodeURIComponent(value);

/** `a=1&b=2` with each value encoded. */
export function query(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([name, value]) => `${encode(name)}=${encode(value)}`)
    .join('&');
}

/** A form body as browsers send it (spaces as `+`). */
export function formBody(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

export function get(url: string, headers: Headers, more: SampleRequestJson = {}): SampleRequestJson {
  return { method: 'GET', url, version: 'HTTP/1.1', headers, clientIp: '203.0.113.24', ...more };
}

export function postForm(url: string, headers: Headers, fields: Record<string, string>): SampleRequestJson {
  return {
    method: 'POST',
    url,
    version: 'HTTP/1.1',
    headers,
    contentType: 'application/x-www-form-urlencoded',
    body: formBody(fields),
    clientIp: '203.0.113.24',
  };
}

export function sendJson(method: string, url: string, headers: Headers, json: unknown): SampleRequestJson {
  return { method, url, version: 'HTTP/2', headers, body: { json }, clientIp: '198.51.100.200' };
}

/** A multipart body with text fields and file parts (`content` as text, or base64 for binary files). */
export function multipart(
  url: string,
  headers: Headers,
  parts: { name: string; value?: string; filename?: string; type?: string; base64?: string }[],
): SampleRequestJson {
  const boundary = '----WebKitFormBoundary7MA4YWxkTrZu0gW';
  let body = '';
  for (const part of parts) {
    const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    const type = part.type === undefined ? '' : `\r\nContent-Type: ${part.type}`;
    const content =
      part.base64 === undefined ? (part.value ?? '') : Buffer.from(part.base64, 'base64').toString('latin1');
    body += `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}${type}\r\n\r\n${content}\r\n`;
  }
  body += `--${boundary}--\r\n`;
  return {
    method: 'POST',
    url,
    version: 'HTTP/1.1',
    headers,
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: { base64: Buffer.from(body, 'latin1').toString('base64') },
    clientIp: '203.0.113.24',
  };
}

/** The headers with `name` set to `value`: replaced where the client already sends it, else added. */
export function withHeader(headers: Headers, name: string, value: string): Headers {
  const lower = name.toLowerCase();
  const present = headers.some(([other]) => other.toLowerCase() === lower);
  return present
    ? headers.map(([other, old]): [string, string] => [other, other.toLowerCase() === lower ? value : old])
    : [...headers, [name, value]];
}
