import type { Diagnostic } from '../lang/diagnostics.js';
import { utf8Length } from '../lang/position.js';
import { at, CODES, ServiceError } from './errors.js';
import { expressionError } from './rules/filter.js';

/**
 * `GET|POST /filters/validate-expr`: checks an expression without storing anything. It is not tied to a
 * zone, so it applies the most permissive plan (Enterprise); the zone endpoints apply the zone's own.
 */
export function validateExpression(expression: unknown): void {
  if (typeof expression !== 'string') {
    throw new ServiceError('bad-request', at(CODES.invalidFilter, 'expression is required'));
  }
  const error = expressionError(expression, 'enterprise');
  if (error !== undefined) {
    throw new ServiceError('bad-request', at(CODES.invalidFilter, validateExprMessage(expression, error)));
  }
}

/**
 * This endpoint's older rendering of a parse error: no position in the header, the whole expression between
 * backticks on one line (line breaks shown as spaces, which keeps byte offsets), carets under the offending
 * text counted in UTF-8 bytes. Both responses Cloudflare documents put the carets two columns right of the
 * offending text's byte offset (one for the opening backtick, one more from the old renderer), e.g. for
 * `ip.src==34` ten spaces before `^^`; this reproduces that.
 */
export function validateExprMessage(expression: string, error: Diagnostic): string {
  const line = expression.replace(/[\r\n]/g, ' ');
  const start = Math.min(error.span.start, expression.length);
  const end = Math.min(Math.max(error.span.end, start), expression.length);
  const indent = ' '.repeat(utf8Length(expression, 0, start) + 2);
  const carets = '^'.repeat(Math.max(1, utf8Length(expression, start, end)));
  return `Filter parsing error:\n\`${line}\`\n${indent}${carets} ${error.message}\n`;
}
