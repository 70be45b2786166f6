import { formatRequestProblem, readSampleRequest } from './index.js';
import { fromLogpush, isLogpushRecord } from './logpush.js';
import type { SampleRequest } from './model.js';

/**
 * One line of a requests file (`cfrules replay`, the console's replay): a sample request (docs/request.md)
 * or a Cloudflare Logpush `http_requests` record, as JSON. A blank line is no request; a line that is
 * neither is a problem to report by its line number, never an exception.
 */
export type RequestLine =
  | {
      ok: true;
      /** The sample request's JSON (a Logpush record's, converted). */
      json: unknown;
      request: SampleRequest;
      /** The request's URL as written, for samples ('' when it has none). */
      url: string;
    }
  | { ok: false; message: string };

export function readRequestLine(text: string): RequestLine | undefined {
  if (text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `not JSON: ${(error as Error).message}` };
  }
  const json = isLogpushRecord(parsed) ? fromLogpush(parsed) : parsed;
  const read = readSampleRequest(json);
  if (!read.ok) return { ok: false, message: read.problems.map(formatRequestProblem).join('; ') };
  const url = (json as { url?: unknown }).url;
  return { ok: true, json, request: read.request, url: typeof url === 'string' ? url : '' };
}
