import type { ApiMessage, ErrorKind } from '../service/errors.js';

/** Cloudflare's v4 envelope, on every response. */
export interface Envelope {
  result: unknown;
  success: boolean;
  errors: ApiMessage[];
  messages: ApiMessage[];
  result_info?: unknown;
}

export const success = (result: unknown, resultInfo?: unknown, messages: ApiMessage[] = []): Envelope =>
  resultInfo === undefined
    ? { result, success: true, errors: [], messages }
    : { result, success: true, errors: [], messages, result_info: resultInfo };

export const failure = (errors: ApiMessage[]): Envelope => ({
  result: null,
  success: false,
  errors,
  messages: [],
});

export const STATUS: Record<ErrorKind, number> = {
  'bad-request': 400,
  forbidden: 403,
  'not-found': 404,
  gone: 410,
  internal: 500,
};

/** A client-given text repeated in an answer, cut short when long. */
export function shownText(text: string, max = 64): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
