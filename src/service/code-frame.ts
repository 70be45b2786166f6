import { CUT_MARK, type Diagnostic, FRAME_WIDTH, formatDiagnostic, lineWindow } from '../lang/diagnostics.js';
import { utf8Length } from '../lang/position.js';

/**
 * Code frames in API errors: the line of the expression with carets under the problem, as Cloudflare shows
 * them, but at most FRAME_WIDTH characters of the line, around the caret (`…` where it is cut). An error about
 * an expression of megabytes stays a few hundred bytes (docs/api.md §3); the expressions of every-day size
 * (a line of up to FRAME_WIDTH characters) get Cloudflare's text unchanged. The width is lang's, which the CLI
 * and the engine cut their frames to as well.
 */

/**
 * An expression over the length limit is refused before it is parsed, and the text past the limit is no
 * place to point at: its error is the message alone, which says the length and the limit.
 */
const TOO_LONG = 'expression-too-long';

/** `formatDiagnostic`'s frame, cut to FRAME_WIDTH characters around the caret. */
export const apiFrame = (expression: string, error: Diagnostic): string =>
  error.code === TOO_LONG ? error.message : formatDiagnostic(expression, error, { maxWidth: FRAME_WIDTH });

/**
 * validate-expr's older rendering of a parse error: no position in the header, the whole expression between
 * backticks on one line (line breaks shown as spaces, which keeps byte offsets), carets under the offending
 * text counted in UTF-8 bytes. Both responses Cloudflare documents put the carets two columns right of the
 * offending text's byte offset (one for the opening backtick, one more from the old renderer), e.g. for
 * `ip.src==34` ten spaces before `^^`; this reproduces that. Cut to FRAME_WIDTH characters like the others.
 */
export function validateExprFrame(expression: string, error: Diagnostic): string {
  if (error.code === TOO_LONG) return error.message;
  const start = Math.min(error.span.start, expression.length);
  const { from, to } = lineWindow(expression, 0, expression.length, start, FRAME_WIDTH);
  const before = from > 0 ? CUT_MARK : '';
  const after = to < expression.length ? CUT_MARK : '';
  const line = expression.slice(from, to).replace(/[\r\n]/g, ' ');
  const end = Math.min(Math.max(error.span.end, start), to);
  const indent = ' '.repeat(before.length + utf8Length(expression, from, start) + 2);
  const carets = '^'.repeat(Math.max(1, utf8Length(expression, start, end)));
  return `Filter parsing error:\n\`${before}${line}${after}\`\n${indent}${carets} ${error.message}\n`;
}
