// UTF-8 for Unicode-mode patterns: input bytes → code points (invalid bytes kept as markers), and back

/**
 * A byte that is not part of valid UTF-8 becomes the code point `MARKER_BASE + byte` (U+10FF80–U+10FFFF,
 * the end of a private-use plane). Unicode-mode classes exclude that range, as the reference engine's UTF-8
 * automata never match an invalid byte; byte-mode items may still match it.
 */
export const MARKER_BASE = 0x10ff00;
export const FIRST_MARKER = MARKER_BASE + 0x80;
export const LAST_MARKER = MARKER_BASE + 0xff;

/** The UTF-8 encoding of a code point, as a binary string. */
export function utf8Of(cp: number): string {
  if (cp < 0x80) return String.fromCharCode(cp);
  if (cp < 0x800) return String.fromCharCode(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
  if (cp < 0x10000) {
    return String.fromCharCode(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
  }
  return String.fromCharCode(
    0xf0 | (cp >> 18),
    0x80 | ((cp >> 12) & 0x3f),
    0x80 | ((cp >> 6) & 0x3f),
    0x80 | (cp & 0x3f),
  );
}

/**
 * The code points a lead byte starts (C2–F4), or undefined for a byte that cannot start a multi-byte
 * sequence (continuation bytes 80–BF, and C0, C1, F5–FF which never occur in valid UTF-8).
 */
export function leadByteRange(byte: number): [number, number] | undefined {
  if (byte >= 0xc2 && byte <= 0xdf) return [(byte & 0x1f) << 6, ((byte & 0x1f) << 6) | 0x3f];
  if (byte === 0xe0) return [0x800, 0xfff];
  if (byte === 0xed) return [0xd000, 0xd7ff];
  if (byte >= 0xe1 && byte <= 0xef) return [(byte & 0x0f) << 12, ((byte & 0x0f) << 12) | 0xfff];
  if (byte === 0xf0) return [0x10000, 0x3ffff];
  if (byte === 0xf4) return [0x100000, FIRST_MARKER - 1];
  if (byte >= 0xf1 && byte <= 0xf3) return [(byte & 0x07) << 18, ((byte & 0x07) << 18) | 0x3ffff];
  return undefined;
}

/** Length of the valid UTF-8 sequence at `i`, or 0 when the byte there starts none (Unicode's rules). */
export function sequenceLength(bytes: string, i: number): number {
  const b0 = bytes.charCodeAt(i);
  if (b0 < 0x80) return 1;
  const cont = (k: number, low = 0x80, high = 0xbf): boolean => {
    const b = bytes.charCodeAt(i + k);
    return b >= low && b <= high;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const low = b0 === 0xe0 ? 0xa0 : 0x80;
    const high = b0 === 0xed ? 0x9f : 0xbf;
    return cont(1, low, high) && cont(2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const low = b0 === 0xf0 ? 0x90 : 0x80;
    const high = b0 === 0xf4 ? 0x8f : 0xbf;
    return cont(1, low, high) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** The code point of the valid sequence of `length` bytes at `i`. */
export function decodeSequence(bytes: string, i: number, length: number): number {
  const b0 = bytes.charCodeAt(i);
  if (length === 2) return ((b0 & 0x1f) << 6) | (bytes.charCodeAt(i + 1) & 0x3f);
  if (length === 3) {
    return ((b0 & 0x0f) << 12) | ((bytes.charCodeAt(i + 1) & 0x3f) << 6) | (bytes.charCodeAt(i + 2) & 0x3f);
  }
  return (
    ((b0 & 0x07) << 18) |
    ((bytes.charCodeAt(i + 1) & 0x3f) << 12) |
    ((bytes.charCodeAt(i + 2) & 0x3f) << 6) |
    (bytes.charCodeAt(i + 3) & 0x3f)
  );
}

/** Whether a binary string is all ASCII (then it reads the same as bytes and as text). */
export function isAscii(bytes: string): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes.charCodeAt(i) >= 0x80) return false;
  return true;
}

/** Binary string → text for RE2: valid UTF-8 decoded, every other byte a marker. */
export function decodeWithMarkers(bytes: string): string {
  if (isAscii(bytes)) return bytes;
  const parts: string[] = [];
  let runStart = 0;
  let i = 0;
  while (i < bytes.length) {
    if (bytes.charCodeAt(i) < 0x80) {
      i++;
      continue;
    }
    if (runStart < i) parts.push(bytes.slice(runStart, i));
    const length = sequenceLength(bytes, i);
    if (length === 0) {
      parts.push(String.fromCodePoint(MARKER_BASE + bytes.charCodeAt(i)));
      i++;
    } else {
      parts.push(String.fromCodePoint(decodeSequence(bytes, i, length)));
      i += length;
    }
    runStart = i;
  }
  if (runStart < bytes.length) parts.push(bytes.slice(runStart));
  return parts.join('');
}

/** The byte offset in the input of the character at `index` (counted in code points, as RE2 reports it). */
export function byteOffset(text: string, index: number): number {
  let offset = 0;
  let count = 0;
  for (const ch of text) {
    if (count++ === index) break;
    const cp = ch.codePointAt(0) as number;
    offset += cp >= FIRST_MARKER ? 1 : cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return offset;
}

/** The inverse of `decodeWithMarkers`: text from RE2 → the input bytes it came from. */
export function encodeWithMarkers(text: string): string {
  if (isAscii(text)) return text;
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    out += cp >= FIRST_MARKER ? String.fromCharCode(cp - MARKER_BASE) : utf8Of(cp);
  }
  return out;
}
