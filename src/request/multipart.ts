import { trimOws } from './encoding.js';
import type { HeaderLine } from './model.js';
import { headerValues, parseContentType } from './parsing.js';

/**
 * multipart/form-data bodies (RFC 7578) split into parts, for the `http.request.body.multipart*` fields.
 * Lenient like a WAF must be: a body cut off by the inspection limit still yields the parts it holds.
 */

export interface MultipartPart {
  /** Values of the part's Content-Disposition header(s), and the `name` / `filename` parameters in them. */
  dispositions: string[];
  names: string[];
  filenames: string[];
  contentTypes: string[];
  transferEncodings: string[];
  /** The part's header lines as sent (without their line break), including any that are not `name: value`. */
  headerLines: string[];
  /** The part's content, undecoded. */
  value: string;
}

export function parseMultipart(body: string, boundary: string): MultipartPart[] {
  const parts: MultipartPart[] = [];
  const delimiter = `--${boundary}`;
  // A delimiter starts the body or a line; the line break before it belongs to the delimiter.
  let at = body.startsWith(delimiter) ? 0 : body.indexOf(`\n${delimiter}`);
  if (at === -1) return parts;
  if (at > 0) at++;
  for (;;) {
    const afterDelimiter = at + delimiter.length;
    if (body.startsWith('--', afterDelimiter)) break; // the closing delimiter
    const lineEnd = body.indexOf('\n', afterDelimiter);
    if (lineEnd === -1) break;
    const start = lineEnd + 1;
    const next = body.indexOf(`\n${delimiter}`, start - 1);
    let end = next === -1 ? body.length : next;
    if (next !== -1 && body[next - 1] === '\r' && next - 1 >= start) end = next - 1;
    const part = readPart(body.slice(start, end));
    if (part) parts.push(part);
    if (next === -1) break;
    at = next + 1;
  }
  return parts;
}

function readPart(text: string): MultipartPart | undefined {
  const crlf = text.indexOf('\r\n\r\n');
  const lf = text.indexOf('\n\n');
  let headerEnd: number;
  let contentStart: number;
  if (text.startsWith('\r\n') || text.startsWith('\n')) {
    // No headers at all: the content follows the empty line at once.
    headerEnd = 0;
    contentStart = text.startsWith('\r\n') ? 2 : 1;
  } else if (crlf !== -1 && (lf === -1 || crlf < lf)) {
    headerEnd = crlf;
    contentStart = crlf + 4;
  } else if (lf !== -1) {
    headerEnd = lf;
    contentStart = lf + 2;
  } else {
    return undefined; // headers never ended (cut off): nothing usable
  }
  const headers: HeaderLine[] = [];
  const headerLines = headerEnd === 0 ? [] : text.slice(0, headerEnd).split(/\r?\n/);
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.push([trimOws(line.slice(0, colon)), trimOws(line.slice(colon + 1))]);
  }
  const dispositions = headerValues(headers, 'content-disposition');
  const names: string[] = [];
  const filenames: string[] = [];
  for (const disposition of dispositions) {
    const { params } = parseContentType(disposition);
    const name = params.get('name');
    if (name !== undefined) names.push(name);
    const filename = params.get('filename');
    if (filename !== undefined) filenames.push(filename);
  }
  return {
    dispositions,
    names,
    filenames,
    contentTypes: headerValues(headers, 'content-type'),
    transferEncodings: headerValues(headers, 'content-transfer-encoding'),
    headerLines,
    value: text.slice(contentStart),
  };
}
