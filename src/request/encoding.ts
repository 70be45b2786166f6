/** Byte-level helpers on binary strings (one char per byte), as HTTP parsers see the message. */

const BASE64_DIGITS = new Map<string, number>();
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'].entries()) {
  BASE64_DIGITS.set(c, i);
}
// Both alphabets: `+/` (standard) and `-_` (URL-safe), since users paste either.
BASE64_DIGITS.set('+', 62).set('/', 63).set('-', 62).set('_', 63);

/**
 * Base64 → binary string; undefined when malformed. Padding is optional but, when present, must complete
 * the last quantum. By hand rather than `atob`/Buffer: exact about what it accepts, and runs anywhere.
 */
export function decodeBase64(text: string): string | undefined {
  let digits = text;
  if (digits.endsWith('==')) digits = digits.slice(0, -2);
  else if (digits.endsWith('=')) digits = digits.slice(0, -1);
  if (digits.length !== text.length && text.length % 4 !== 0) return undefined;
  if (digits.length % 4 === 1) return undefined;
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (let i = 0; i < digits.length; i++) {
    const digit = BASE64_DIGITS.get(digits[i] as string);
    if (digit === undefined) return undefined;
    buffer = ((buffer << 6) | digit) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.slice(i, i + 8192));
  return out;
}

/** `%XX` escapes → bytes; anything else (including a malformed `%`) is kept as is. No `+` → space. */
export function percentDecode(bytes: string): string {
  if (!bytes.includes('%')) return bytes;
  return bytes.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

const isBlank = (code: number): boolean => code === 0x20 || code === 0x09;

/** Drops optional whitespace (space and tab) around header values and list items. */
export function trimOws(bytes: string): string {
  // By hand: a regex for trailing blanks backtracks quadratically on long inner runs of spaces.
  let start = 0;
  let end = bytes.length;
  while (start < end && isBlank(bytes.charCodeAt(start))) start++;
  while (end > start && isBlank(bytes.charCodeAt(end - 1))) end--;
  return start === 0 && end === bytes.length ? bytes : bytes.slice(start, end);
}
