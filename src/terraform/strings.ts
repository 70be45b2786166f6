import { isUnsafe } from '../lang/escape.js';

/**
 * HCL's string literals (Terraform's native syntax), both ways: the text a value is written as, and the
 * value a written literal holds, with the map between offsets in one and in the other. The exporter writes
 * with these, and `cfrules validate` and `fmt` read `.tf` files with them, so that the two agree.
 *
 * HCL strings are templates: `${` starts an interpolation and `%{` a directive, in quoted strings and
 * heredocs alike, so a literal `${` or `%{` is written doubled (`$${`, `%%{`); a `$` or `%` not followed by
 * `{` is literal, even at the end, and so is `$$` not followed by `{`. Quoted strings also take backslash
 * escapes (`\\`, `\"`, `\n`, `\r`, `\t`, `\uNNNN`, `\UNNNNNNNN`); heredocs take none.
 */

/** The text of an HCL string literal whose value is `value`: quoted, or a heredoc where that is exact. */
export function hclString(value: string): string {
  return heredocFits(value) ? heredoc(value) : quoted(value);
}

/** `"…"`, escaped: controls and the characters terminals act on as `\uNNNN`, so the file shows them. */
export function quoted(value: string): string {
  return `"${quotedBody(value)}"`;
}

/** What goes between the quotes of a quoted string whose value is `value`. */
export function quotedBody(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const char = value[i] as string;
    const code = value.charCodeAt(i);
    const next = value[i + 1];
    if (char === '\\') out += '\\\\';
    else if (char === '"') out += '\\"';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (isUnsafe(code)) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else if ((char === '$' || char === '%') && next === '{') out += char + char;
    else out += char;
  }
  return out;
}

/**
 * A heredoc's value is its lines, each with its line break, so it can only hold text that ends with a line
 * break (wrapping it in `chomp(…)` would make it an expression, not a literal). It cannot escape anything
 * but the template sequences, so text with a carriage return or another control character is quoted.
 */
export function heredocFits(value: string): boolean {
  if (!value.endsWith('\n')) return false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code !== 0x0a && code !== 0x09 && (code === 0x0d || isUnsafe(code))) return false;
  }
  return true;
}

/** `<<EOT` … `EOT`, with a marker the text never contains. */
export function heredoc(value: string): string {
  let marker = 'EOT';
  for (let n = 1; value.includes(marker); n++) marker = `EOT${n}`;
  return `<<${marker}\n${heredocBody(value, '')}${marker}`;
}

/**
 * The lines of a heredoc whose value is `value` (which ends with a line break), each after `indent` (an
 * indented heredoc, `<<-`, removes it again; an empty line gets none).
 */
export function heredocBody(value: string, indent: string): string {
  const escaped = escapeTemplates(value);
  return escaped
    .slice(0, -1)
    .split('\n')
    .map((line) => (line === '' ? '\n' : `${indent}${line}\n`))
    .join('');
}

/** `${` and `%{` written as HCL writes them literally (`$${`, `%%{`). */
export const escapeTemplates = (text: string): string => text.replace(/([$%])(?=\{)/g, '$1$1');

/**
 * Unicode text is read back in Normalization Form C: HCL normalizes every string literal (escapes
 * included), and Terraform every string value. Text that is not in NFC cannot round-trip.
 */
export const isNfc = (value: string): boolean => value === value.normalize('NFC');

/**
 * Where each code unit of a decoded value was written: `rawOf[i]` is the offset in the raw text of the
 * code unit `i` of the value (the start of its escape sequence, when it was escaped; for the second code
 * unit of an escape that stands for two, a later offset inside the escape), increasing, and
 * `rawOf[value.length]` the end of the raw text. Offsets count UTF-16 code units, as JavaScript strings do.
 */
export class OffsetMap {
  constructor(private readonly rawOf: readonly number[]) {}

  /** The raw offset of the value's offset `offset` (clamped to the value). */
  toRaw(offset: number): number {
    const i = Math.max(0, Math.min(offset, this.rawOf.length - 1));
    return this.rawOf[i] as number;
  }

  /**
   * The value's offset of the raw offset `raw`: the code unit written there, or whose escape sequence covers
   * it (clamped to the raw text). The offsets are increasing, so this is a binary search.
   */
  toValue(raw: number): number {
    const offsets = this.rawOf;
    if (raw <= (offsets[0] as number)) return 0;
    let low = 0;
    let high = offsets.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((offsets[middle] as number) <= raw) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}

/** A decoded literal: its value and where each of its code units is in the file. */
export interface DecodedString {
  value: string;
  map: OffsetMap;
}

/** Something in a literal that HCL refuses, at an offset of the raw text. */
export class HclStringError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/**
 * The value of the quoted string whose text between the quotes is `text.slice(from, to)`, with offsets in
 * `text`. Throws HclStringError for an escape HCL does not know, and for a template sequence (`${`, `%{`):
 * the caller is to tell those apart before (a literal has none).
 */
export function decodeQuoted(text: string, from = 0, to = text.length): DecodedString {
  let value = '';
  const rawOf: number[] = [];
  let i = from;
  // Each code unit gets an offset of its own, so that the map is one-to-one: the second code unit of an
  // escape is placed at the escape's second character.
  const push = (chars: string, at: number, step = 1) => {
    for (let k = 0; k < chars.length; k++) rawOf.push(at + k * step);
    value += chars;
  };
  while (i < to) {
    const char = text[i] as string;
    const next = text[i + 1];
    if (char === '\\') {
      const escaped = i + 1 < to ? next : undefined;
      const simple = escaped === undefined ? undefined : SIMPLE_ESCAPES[escaped];
      if (simple !== undefined) {
        push(simple, i);
        i += 2;
        continue;
      }
      if (escaped === 'u' || escaped === 'U') {
        const digits = escaped === 'u' ? 4 : 8;
        const hex = text.slice(i + 2, Math.min(to, i + 2 + digits));
        const code = Number.parseInt(hex, 16);
        if (hex.length !== digits || !/^[0-9A-Fa-f]+$/.test(hex) || code > 0x10ffff)
          throw new HclStringError(
            `invalid escape sequence: \\${escaped} takes ${digits} hexadecimal digits${escaped === 'U' ? ' (at most 10FFFF)' : ''}`,
            i,
          );
        push(String.fromCodePoint(code), i);
        i += 2 + digits;
        continue;
      }
      throw new HclStringError(
        escaped === undefined
          ? 'a backslash ends the string: write \\\\ for a backslash'
          : `invalid escape sequence \\${escaped}: HCL knows \\n \\r \\t \\" \\\\ \\uNNNN and \\UNNNNNNNN (write \\\\ for a backslash)`,
        i,
      );
    }
    if ((char === '$' || char === '%') && i + 1 < to) {
      if (next === char && text[i + 2] === '{' && i + 2 < to) {
        push(`${char}{`, i, 2);
        i += 3;
        continue;
      }
      if (next === '{') throw new HclStringError(`a template sequence ${char}{ in a literal`, i);
    }
    push(char, i);
    i++;
  }
  rawOf.push(to);
  return { value, map: new OffsetMap(rawOf) };
}

const SIMPLE_ESCAPES: Record<string, string | undefined> = {
  n: '\n',
  r: '\r',
  t: '\t',
  '"': '"',
  '\\': '\\',
};

/** A heredoc's body as read: its value and, for `<<-`, the indentation taken off every line. */
export interface DecodedHeredoc extends DecodedString {
  indent: string;
}

/**
 * The value of a heredoc whose lines (each with its line break, the closing marker's line excluded) are
 * `text.slice(from, to)`. An indented heredoc (`<<-`) loses the smallest indentation (spaces and tabs,
 * each one character) of its lines that are not blank; template sequences are undone as in quoted strings,
 * and nothing else is an escape.
 */
export function decodeHeredoc(text: string, from: number, to: number, indented: boolean): DecodedHeredoc {
  const lines: { start: number; end: number }[] = [];
  for (let start = from; start < to; ) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 || newline >= to ? to : newline + 1;
    lines.push({ start, end });
    start = end;
  }
  let strip = 0;
  let indent = '';
  if (indented) {
    strip = Number.POSITIVE_INFINITY;
    for (const { start, end } of lines) {
      const line = text.slice(start, end);
      if (line.trim() === '') continue;
      const width = /^[ \t]*/.exec(line)?.[0].length ?? 0;
      if (width < strip) {
        strip = width;
        indent = line.slice(0, width);
      }
    }
    if (strip === Number.POSITIVE_INFINITY) strip = 0;
  }
  let value = '';
  const rawOf: number[] = [];
  for (const { start, end } of lines) {
    let i = start;
    // Blank lines may be shorter than the indentation; only their whitespace goes.
    for (let n = 0; n < strip && i < end && (text[i] === ' ' || text[i] === '\t'); n++) i++;
    while (i < end) {
      const char = text[i] as string;
      if ((char === '$' || char === '%') && text[i + 1] === char && text[i + 2] === '{' && i + 2 < end) {
        rawOf.push(i, i + 2);
        value += `${char}{`;
        i += 3;
        continue;
      }
      if ((char === '$' || char === '%') && text[i + 1] === '{' && i + 1 < end)
        throw new HclStringError(`a template sequence ${char}{ in a literal`, i);
      rawOf.push(i);
      value += char;
      i++;
    }
  }
  rawOf.push(to);
  return { value, map: new OffsetMap(rawOf), indent };
}
