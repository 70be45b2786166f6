import { isHexDigit, utf8SequenceLength } from '../lang/literals.js';

/**
 * One query parameter read from the query string as sent, strictly. Fastify's parser keeps a value whose
 * percent-encoding does not decode (`%zz`, or bytes that are not UTF-8) as its raw text, which nothing can
 * tell from a value that was sent encoded: a reader to whom the exact text matters (validate-expr's
 * expression, whose errors point into it) reads the parameter here, and refuses what does not decode.
 */

/** Why an encoded value does not decode: the escapes at `index` (0-based) are not a byte, or not UTF-8. */
export interface MalformedEncoding {
  index: number;
  /** The offending escapes as sent: `%zz`, or a UTF-8 lead byte with its continuation bytes (`%ED%A0%80`). */
  sequence: string;
  reason: 'not-a-byte' | 'not-utf-8';
}

/** The values of parameter `name` in `queryString` (the text after `?`), as sent: still percent-encoded. */
export function encodedQueryValues(queryString: string, name: string): string[] {
  const values: string[] = [];
  if (queryString === '') return values;
  for (const pair of queryString.split('&')) {
    const equals = pair.indexOf('=');
    // A name that does not decode is not `name` (every name read this way is plain ASCII).
    if (decodeQueryValue(equals === -1 ? pair : pair.slice(0, equals)) !== name) continue;
    values.push(equals === -1 ? '' : pair.slice(equals + 1));
  }
  return values;
}

const ESCAPE_LENGTH = 3; // `%XX`
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes a value as forms encode it, strictly: `+` is a space, `%XX` a byte, and the bytes of a run of
 * escapes are the UTF-8 form of its characters. Anything else is kept as it is.
 */
export function decodeQueryValue(encoded: string): string | MalformedEncoding {
  const parts: string[] = [];
  let i = 0;
  for (let percent = encoded.indexOf('%'); percent !== -1; percent = encoded.indexOf('%', i)) {
    parts.push(encoded.slice(i, percent).replaceAll('+', ' '));
    const run = readEscapeRun(encoded, percent);
    if ('reason' in run) return run;
    parts.push(run.text);
    i = run.end;
  }
  parts.push(encoded.slice(i).replaceAll('+', ' '));
  return parts.join('');
}

/**
 * The characters of the run of escapes at `start` (a `%`), and where the run ends. Its bytes must be UTF-8
 * by themselves: the text between two runs is ASCII.
 */
function readEscapeRun(encoded: string, start: number): { text: string; end: number } | MalformedEncoding {
  const bytes: number[] = [];
  let end = start;
  for (; encoded.charCodeAt(end) === 0x25; end += ESCAPE_LENGTH) {
    if (!isHexDigit(encoded.charCodeAt(end + 1)) || !isHexDigit(encoded.charCodeAt(end + 2))) {
      return { index: end, sequence: encoded.slice(end, end + ESCAPE_LENGTH), reason: 'not-a-byte' };
    }
    bytes.push(Number.parseInt(encoded.slice(end + 1, end + ESCAPE_LENGTH), 16));
  }
  const binary = bytes.map((byte) => String.fromCharCode(byte)).join('');
  for (let k = 0; k < bytes.length; ) {
    const length = binary.charCodeAt(k) < 0x80 ? 1 : utf8SequenceLength(binary, k);
    if (length === 0) {
      // The lead byte and the continuation bytes after it: what a reader would take for one character.
      let last = k + 1;
      while (last < bytes.length && last < k + 4 && (binary.charCodeAt(last) & 0xc0) === 0x80) last++;
      const index = start + ESCAPE_LENGTH * k;
      return {
        index,
        sequence: encoded.slice(index, start + ESCAPE_LENGTH * last),
        reason: 'not-utf-8',
      };
    }
    k += length;
  }
  return { text: utf8.decode(Uint8Array.from(bytes)), end };
}
