import { validateExprFrame } from './code-frame.js';
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
    throw new ServiceError('bad-request', at(CODES.invalidFilter, validateExprFrame(expression, error)));
  }
}
