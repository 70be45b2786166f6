import { utf8Width } from '../lang/position.js';

/**
 * The offset (UTF-16 code units) of a 1-based line and 1-based column counted in UTF-8 bytes, the way
 * cfrules and Cloudflare state positions; past the end of its line, the end of the line.
 */
export function offsetOfUtf8Position(text: string, line: number, column: number): number {
  let offset = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  let bytes = 1;
  while (bytes < column && offset < text.length && text.charCodeAt(offset) !== 10) {
    bytes += utf8Width(text, offset);
    offset += 1;
  }
  return offset;
}
