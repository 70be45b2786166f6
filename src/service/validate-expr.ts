import { validateExprFrame } from './code-frame.js';
import { at, CODES, ServiceError } from './errors.js';
import { BodyObject, rootPlace } from './input.js';
import { decodeQueryValue, encodedQueryValues, type MalformedEncoding } from './query-value.js';
import { expressionError, readExpression } from './rules/filter.js';

/**
 * `GET|POST /filters/validate-expr`: checks an expression without storing anything. It is not tied to a
 * zone, so it applies the most permissive plan (Enterprise); the zone endpoints apply the zone's own.
 */

/**
 * Where the expression comes from: the GET form's query string (the text after `?`, as sent) or the POST
 * form's JSON body.
 */
export type ExpressionRequest = { queryString: string } | { body: unknown };

const place = rootPlace(CODES.invalidFilter);

/**
 * The expression of either form as the text to check, read as filter creation reads it (readExpression):
 * the same value is refused with the same words, whichever way it was sent. Only the GET form has more to
 * say, when its value does not decode.
 */
export function expressionToCheck(request: ExpressionRequest): string {
  if ('body' in request) {
    const body = BodyObject.read(request.body, place, 'the request body');
    return readExpression(body.get('expression'), body.placeOf('expression'));
  }
  const values = encodedQueryValues(request.queryString, 'expression');
  if (values.length > 1) throw refusal('expression must be given at most once');
  if (values.length === 0) return readExpression(undefined, place);
  const decoded = decodeQueryValue(values[0] as string);
  if (typeof decoded !== 'string') throw refusal(malformedMessage(decoded));
  return readExpression(decoded, place);
}

/** Checks the expression of the request; throws the 400 Cloudflare would answer. */
export function validateExpression(request: ExpressionRequest): void {
  const expression = expressionToCheck(request);
  const error = expressionError(expression, 'enterprise');
  if (error !== undefined) throw refusal(validateExprFrame(expression, error));
}

const refusal = (message: string) => new ServiceError('bad-request', at(CODES.invalidFilter, message));

function malformedMessage({ index, sequence, reason }: MalformedEncoding): string {
  const where = `${JSON.stringify(sequence)} at character ${index + 1} of the query value`;
  return reason === 'not-a-byte'
    ? `expression is not valid percent-encoding: ${where} is not "%" and two hexadecimal digits (send "%" itself as %25)`
    : `expression is not valid percent-encoding: ${where} is not UTF-8`;
}
