import type { Span } from './ast.js';
import { escapeControlCharacters, escapedWidth } from './escape.js';
import { utf8Length } from './position.js';

export type Severity = 'error' | 'warning' | 'info';

/** One finding about an expression, from the parser, the checker or a lint. */
export interface Diagnostic {
  severity: Severity;
  /** Stable machine-readable identifier, e.g. `unrecognised-input`. */
  code: string;
  /** The reference engine's wording where it has one. */
  message: string;
  span: Span;
  /** A friendlier explanation or a suggested fix, when we have one. */
  hint?: string;
}

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
}

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
  const line = source.slice(lineStart, lineEnd);
  const caretEnd = Math.min(Math.max(span.end, span.start), lineEnd);
  const header = `${headers[diagnostic.severity]} (${span.line}:${span.column}):`;
  if (options.escapeControls) {
    const shown = escapeControlCharacters(line.replace(/\r$/, '')); // a CRLF's CR is part of the line break
    const indent = ' '.repeat(escapedWidth(source, lineStart, span.start));
    const carets = Math.max(1, escapedWidth(source, span.start, caretEnd));
    return `${header}\n${shown}\n${indent}${'^'.repeat(carets)} ${escapeControlCharacters(diagnostic.message)}\n`;
  }
  const carets = Math.max(1, utf8Length(source, span.start, caretEnd));
  const indent = ' '.repeat(utf8Length(source, lineStart, span.start));
  return `${header}\n${line}\n${indent}${'^'.repeat(carets)} ${diagnostic.message}\n`;
}
