import type { Value } from '../scheme/values.js';
import { type HttpMessage, memo, type SampleRequest } from './model.js';
import { type MultipartPart, parseMultipart } from './multipart.js';
import { headerValues, type Pair, pairsToMap, parseContentType, splitArguments } from './parsing.js';

/**
 * The body fields. They see only the first `bodyLimit` bytes of the body, as Cloudflare's inspection does;
 * `size` is the whole body's size and `truncated` says whether bytes were cut off.
 */

export const inspectedBody = (h: HttpMessage): string =>
  h.body.length > h.bodyLimit ? h.body.slice(0, h.bodyLimit) : h.body;

const contentType = (h: HttpMessage) => {
  const value = headerValues(h.headers, 'content-type')[0];
  return value === undefined ? undefined : parseContentType(value);
};

/** The url-encoded form's pairs; undefined unless the Content-Type says the body is one. */
export function formPairs(request: SampleRequest, h: HttpMessage): Pair[] | undefined {
  return memo(request, 'form', () =>
    contentType(h)?.mediaType === 'application/x-www-form-urlencoded'
      ? splitArguments(inspectedBody(h))
      : undefined,
  );
}

/** The multipart parts; undefined unless the Content-Type is multipart with a boundary. */
export function multipartParts(request: SampleRequest, h: HttpMessage): MultipartPart[] | undefined {
  return memo(request, 'multipart', () => {
    const type = contentType(h);
    const boundary = type?.params.get('boundary');
    if (!type?.mediaType.startsWith('multipart/') || !boundary) return undefined;
    return parseMultipart(inspectedBody(h), boundary);
  });
}

export function multipartMap(parts: readonly MultipartPart[]): Map<string, Value> {
  const pairs: Pair[] = [];
  for (const part of parts) for (const name of part.names) pairs.push([name, part.value]);
  return pairsToMap(pairs);
}

/**
 * Signatures of common binary formats. Cloudflare does not publish its sniffing rules, so only
 * unmistakable magic numbers are recognised; other bodies have no value (set the field explicitly).
 */
const SIGNATURES: readonly [prefix: string, mime: string, at?: number][] = [
  ['\xff\xd8\xff', 'image/jpeg'],
  ['\x89PNG\r\n\x1a\n', 'image/png'],
  ['GIF87a', 'image/gif'],
  ['GIF89a', 'image/gif'],
  ['WEBP', 'image/webp', 8],
  ['%PDF-', 'application/pdf'],
  ['PK\x03\x04', 'application/zip'],
  ['\x1f\x8b', 'application/gzip'],
  ['\x00asm', 'application/wasm'],
];

export function sniffMime(body: string): string | undefined {
  for (const [prefix, mime, at = 0] of SIGNATURES) {
    if (body.startsWith(prefix, at) && (at === 0 || body.startsWith('RIFF'))) return mime;
  }
  return undefined;
}
