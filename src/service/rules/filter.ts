import { validate } from '../../check/validate.js';
import type { Diagnostic } from '../../lang/diagnostics.js';
import type { Plan } from '../../scheme/profile.js';
import { apiFrame } from '../code-frame.js';
import { type BodyObject, type Place, requiredString } from '../input.js';

/**
 * The checks of a filter object, without a store: the Filters API and firewall rules' inline filters apply
 * them, and `cfrules validate` applies them to the filters of a rules file (see ./check.ts).
 */

/** Cloudflare's limits on a filter's text fields, in characters. */
export const FILTER_LIMITS = { description: 500, ref: 50 } as const;

/**
 * The members a filter object may have: what a client sets, and what the API answers (`id` and the times,
 * ignored), so that a filter read with GET can be sent back.
 */
export const FILTER_MEMBERS = [
  'id',
  'expression',
  'description',
  'paused',
  'ref',
  'created_on',
  'modified_on',
];

/** What a client sets on a filter; absent optional fields take their defaults (PUT replaces them too). */
export interface FilterFields {
  expression: string;
  description: string;
  paused: boolean;
  ref: string | null;
}

/** How a reader treats the expression of the object it reads. */
export interface ExpressionChecks {
  /**
   * False when the caller checks the expression itself (`cfrules validate` reports all its findings, with
   * their positions); it must still be a non-empty string.
   */
  checkExpression?: boolean;
}

/**
 * Reads a filter's fields from `object` and checks the expression as Cloudflare would for the zone's plan
 * (the `matches` operator, for instance, needs Business). Errors carry `object`'s code and context.
 */
export function readFilterFields(
  object: BodyObject,
  plan: Plan,
  checks: ExpressionChecks = {},
): FilterFields {
  object.allowOnly(FILTER_MEMBERS, 'a filter');
  const expression = readExpression(object.get('expression'), object.placeOf('expression'));
  const error = checks.checkExpression === false ? undefined : expressionError(expression, plan);
  if (error !== undefined) object.fail('expression', apiFrame(expression, error));
  return {
    expression,
    description: object.string('description', FILTER_LIMITS.description) ?? '',
    paused: object.boolean('paused') ?? false,
    ref: object.string('ref', FILTER_LIMITS.ref) ?? null,
  };
}

/**
 * An expression as a request gives it, made the text to check: a non-empty string of Unicode text (a lone
 * surrogate has no UTF-8 form, so no parser would see the same text). Filter creation and both forms of
 * validate-expr read it here, so that they refuse the same value with the same words; errors point at `place`.
 */
export const readExpression = (value: unknown, place: Place): string =>
  requiredString(value, place, 'expression', Number.POSITIVE_INFINITY);

/**
 * The first error Cloudflare would report for the expression in Firewall Rules on this plan; undefined when
 * it is valid (warnings do not count).
 */
export function expressionError(expression: string, plan: Plan): Diagnostic | undefined {
  const { diagnostics } = validate(expression, { plan, phase: 'firewall_rules', lints: false });
  return diagnostics.find((diagnostic) => diagnostic.severity === 'error');
}
