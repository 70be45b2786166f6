import type { IncomingHttpHeaders } from 'node:http';
import { type ApiMessage, CODES, ServiceError } from '../service/errors.js';
import { shownText } from './envelope.js';

/**
 * A JSON body read as sent: in UTF-8, without Content-Encoding, decoded strictly, so that a body that is
 * not UTF-8 is refused rather than read with U+FFFD in place of its bad bytes.
 */

/** The text of a JSON body; throws the refusal (415, or 400 with 6007) when it cannot be read as sent. */
export function bodyText(headers: IncomingHttpHeaders, bytes: Buffer): string {
  const refusal = unreadBody(headers['content-type'], headers['content-encoding']);
  if (refusal) throw refusal;
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ServiceError('bad-request', {
      code: CODES.malformedJson,
      message: 'Malformed JSON in request body: it is not valid UTF-8',
    });
  }
}

/** Strict UTF-8: a bad byte is an error, not U+FFFD. A byte order mark is dropped. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A refusal of the HTTP layer with its own status (415), outside the services' error kinds. */
export class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    readonly apiMessage: ApiMessage,
  ) {
    super(apiMessage.message);
  }
}

/**
 * Why a JSON body cannot be read as sent, if it cannot: a `Content-Encoding` (the service decodes none, so a
 * compressed body would be read as malformed JSON), or a charset other than UTF-8 (it would be read as UTF-8
 * all the same).
 */
function unreadBody(
  contentType: string | undefined,
  contentEncoding: string | string[] | undefined,
): HttpRefusal | undefined {
  const encodings = [contentEncoding ?? []]
    .flat()
    .flatMap((value) => value.split(','))
    .map((value) => value.trim().toLowerCase())
    .filter((value) => value !== '' && value !== 'identity');
  if (encodings.length > 0) {
    return new HttpRefusal(415, {
      code: CODES.unsupportedEncoding,
      message: `Unsupported Content-Encoding: ${shownText(encodings.join(', '))}; send the body uncompressed`,
    });
  }
  for (const parameter of (contentType ?? '').split(';').slice(1)) {
    const equals = parameter.indexOf('=');
    if (parameter.slice(0, equals).trim().toLowerCase() !== 'charset') continue;
    const charset = parameter
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') {
      return new HttpRefusal(415, {
        code: CODES.unsupportedEncoding,
        message: `Unsupported charset: ${shownText(charset)}; the body must be UTF-8`,
      });
    }
  }
  return undefined;
}
