import type { Diagnostic, Severity } from './catalogue.js';
import { escapeControlCharacters, escapedWidth } from './escape.js';
import { utf8Length } from './position.js';

// Diagnostics are made through the catalogue, which owns their shape; this module renders them.
export type { Diagnostic, DiagnosticCode, Severity } from './catalogue.js';

const headers: Record<Severity, string> = {
  error: 'Filter parsing error',
  warning: 'Filter warning',
  info: 'Filter note',
};

export interface FormatDiagnosticOptions {
  /**
   * Show the characters a terminal would act on (escape sequences, carriage returns, bidirectional
   * controls) escaped, as `\x1b`, with the carets moved to stay under the right characters. Off by
   * default: the text is then exactly Cloudflare's. Turn it on for text shown on a terminal.
   */
  escapeControls?: boolean;
  /**
   * Show at most this many characters (UTF-16 code units) of the line, a window around the caret, with `…`
   * where the line is cut (each `…` counts as one column for the carets). Unlimited by default: the text is
   * then exactly Cloudflare's. The API sets it, so that an error about a long line stays short.
   */
  maxWidth?: number;
}

/** Marks where a shown line was cut. */
export const CUT_MARK = '…';

/**
 * The `maxWidth` of the code frames shown to people, by the API and the CLI alike: an error about a line of
 * megabytes (or a binary file read as text) stays a few hundred characters, and lines of every-day size
 * (up to FRAME_WIDTH characters) are shown whole, as Cloudflare shows them.
 */
export const FRAME_WIDTH = 200;

/**
 * The part `[from, to)` of the line `[lineStart, lineEnd)` of `source` to show around `caret` in at most
 * `maxWidth` code units: the whole line when it fits, else a window with about a third before the caret.
 * Never starts or ends in the middle of a surrogate pair.
 */
export function lineWindow(
  source: string,
  lineStart: number,
  lineEnd: number,
  caret: number,
  maxWidth: number | undefined,
): { from: number; to: number } {
  if (maxWidth === undefined || lineEnd - lineStart <= maxWidth) return { from: lineStart, to: lineEnd };
  const width = Math.max(1, Math.floor(maxWidth));
  let from = Math.max(lineStart, Math.min(caret - Math.floor(width / 3), lineEnd - width));
  let to = Math.min(lineEnd, from + width);
  if (from > lineStart && isLowSurrogate(source.charCodeAt(from))) from++;
  if (to < lineEnd && isHighSurrogate(source.charCodeAt(to - 1))) to--;
  return { from, to };
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * Renders a diagnostic the way Cloudflare prints parse errors:
 *
 *     Filter parsing error (1:5):
 *     ssl and
 *             ^ expected identifier character
 *
 * The column and the caret offset count UTF-8 bytes, like the reference engine; the carets cover the
 * span clipped at the end of its line, at least one. The text ends with a newline.
 */
export function formatDiagnostic(
  source: string,
  diagnostic: Diagnostic,
  options: FormatDiagnosticOptions = {},
): string {
  const { span } = diagnostic;
  const lineStart = span.start === 0 ? 0 : source.lastIndexOf('\n', span.start - 1) + 1;
  let lineEnd = source.indexOf('\n', span.start);
  if (lineEnd === -1) lineEnd = source.length;
  const { from, to } = lineWindow(source, lineStart, lineEnd, span.start, options.maxWidth);
  const before = from > lineStart ? CUT_MARK : '';
  const after = to < lineEnd ? CUT_MARK : '';
  const line = source.slice(from, to);
  const caretEnd = Math.min(Math.max(span.end, span.start), to);
  const header = `${headers[diagnostic.severity]} (${span.line}:${span.column}):`;
  if (options.escapeControls) {
    // A CRLF's CR is part of the line break.
    const shown = escapeControlCharacters(after === '' ? line.replace(/\r$/, '') : line);
    const indent = ' '.repeat(before.length + escapedWidth(source, from, span.start));
    const carets = Math.max(1, escapedWidth(source, span.start, caretEnd));
    return `${header}\n${before}${shown}${after}\n${indent}${'^'.repeat(carets)} ${escapeControlCharacters(diagnostic.message)}\n`;
  }
  const carets = Math.max(1, utf8Length(source, span.start, caretEnd));
  const indent = ' '.repeat(before.length + utf8Length(source, from, span.start));
  return `${header}\n${before}${line}${after}\n${indent}${'^'.repeat(carets)} ${diagnostic.message}\n`;
}
