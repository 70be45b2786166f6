/**
 * The POSIX classes `[[:name:]]` as regex-syntax defines them: ASCII in byte mode and Unicode mode alike.
 * One table of byte ranges, read by the parser (which names exist), the size estimate (a class costs per
 * range) and both translations (RE2's byte sets, V8's classes), so that they cannot disagree.
 */

export type ByteRange = readonly [first: number, last: number];

// biome-ignore format: a table reads best one class a line
export const ASCII_CLASS_RANGES: ReadonlyMap<string, readonly ByteRange[]> = new Map<string, ByteRange[]>([
  ['alnum', [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]]],
  ['alpha', [[0x41, 0x5a], [0x61, 0x7a]]],
  ['ascii', [[0x00, 0x7f]]],
  ['blank', [[0x09, 0x09], [0x20, 0x20]]],
  ['cntrl', [[0x00, 0x1f], [0x7f, 0x7f]]],
  ['digit', [[0x30, 0x39]]],
  ['graph', [[0x21, 0x7e]]],
  ['lower', [[0x61, 0x7a]]],
  ['print', [[0x20, 0x7e]]],
  ['punct', [[0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]]],
  ['space', [[0x09, 0x0d], [0x20, 0x20]]],
  ['upper', [[0x41, 0x5a]]],
  ['word', [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]]],
  ['xdigit', [[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]]],
]);

/**
 * Byte-mode `\d`, `\s` and `\w` are the POSIX classes of these names (Rust's ASCII `\s` is
 * `[\t\n\v\f\r ]`), so bytes ≥ 0x80 are never digits, spaces or word characters.
 */
export const PERL_CLASS_NAMES = { d: 'digit', s: 'space', w: 'word' } as const;
