import { type IncomingMessage, maxHeaderSize, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { type ApiMessage, CODES } from '../service/errors.js';
import { VERSION } from '../version.js';
import { failure, shownText } from './envelope.js';

/**
 * Answers written outside Fastify, for requests that never reach it, in the envelope all the same (with
 * its headers, and `Connection: close`).
 */

/** The headers of an envelope written outside Fastify (it adds the same to its own answers). */
function envelopeHeaders(body: string): Record<string, string | number> {
  return {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-cfrules-version': VERSION,
    connection: 'close',
  };
}

/** Node's parse errors that are not a plain 400, by code. */
const CLIENT_ERRORS: Record<string, { status: number; message: ApiMessage }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    message: {
      code: CODES.malformedRequest,
      message: `Request headers too large: the limit is ${maxHeaderSize / 1024} KiB`,
    },
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    message: { code: CODES.requestTimeout, message: 'Request timeout: the request was not received in time' },
  },
};

/**
 * Node's `clientError`: the request could not be read (or not in time). A complete HTTP/1.1 answer, with the
 * envelope, is written on the socket, which is then closed; nothing is written over a response in progress.
 */
export function answerClientError(error: Error & { code?: string; reason?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || current?.headersSent) {
    socket.destroy();
    return;
  }
  const known = CLIENT_ERRORS[error.code ?? ''];
  const status = known?.status ?? 400;
  const message = known?.message ?? {
    code: CODES.malformedRequest,
    message: `Malformed HTTP request: ${error.reason ?? error.message}`,
  };
  const body = JSON.stringify(failure([message]));
  const head = Object.entries(envelopeHeaders(body))
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${head}\r\n${body}`);
}

/** An `Expect` other than 100-continue (Node would answer 417 with no body). */
export function answerUnsupportedExpectation(request: IncomingMessage, response: ServerResponse): void {
  const expectation = shownText(String(request.headers.expect ?? ''));
  const body = JSON.stringify(
    failure([
      {
        code: CODES.malformedRequest,
        message: `Expectation not supported: Expect: ${expectation} (only 100-continue is)`,
      },
    ]),
  );
  response.writeHead(417, envelopeHeaders(body)).end(body);
}
