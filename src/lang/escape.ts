import { utf8Width } from './position.js';

/**
 * Text from users (expressions, file names, header values) is shown on terminals, which act on some
 * characters instead of showing them: `\x1b]0;…\x07` sets the window title, `\x1b[2J` clears the screen,
 * a carriage return overwrites the line, bidirectional controls reorder what is shown ("Trojan Source").
 * Human-readable output shows those characters escaped; tab and line feed are layout and stay.
 */
export function isUnsafe(code: number): boolean {
  return (
    (code < 0x20 && code !== 0x09 && code !== 0x0a) ||
    (code >= 0x7f && code <= 0x9f) || // DEL and the C1 controls (0x9b is a one-byte CSI)
    code === 0x200e ||
    code === 0x200f || // left-to-right and right-to-left marks
    (code >= 0x2028 && code <= 0x202e) || // line and paragraph separators, embeddings and overrides
    (code >= 0x2066 && code <= 0x2069) // isolates
  );
}

function escapeOf(code: number): string {
  const hex = code.toString(16).padStart(2, '0');
  return code <= 0xff ? `\\x${hex}` : `\\u${hex.padStart(4, '0')}`;
}

/** `text` with the characters a terminal would act on written as `\x1b`, `\u202e`. */
export function escapeControlCharacters(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!isUnsafe(code)) continue;
    out += text.slice(from, i) + escapeOf(code);
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * The width that Cloudflare's code frames give `text.slice(from, to)` once escaped: UTF-8 bytes (as its
 * columns count), except that an escaped character takes the width of its escape, so that carets stay
 * under the characters they point at.
 */
export function escapedWidth(text: string, from: number, to: number): number {
  let width = 0;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    width += isUnsafe(code) ? escapeOf(code).length : utf8Width(text, i);
  }
  return width;
}
