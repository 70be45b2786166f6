import { validate } from '../../check/validate.js';
import type { Plan } from '../../scheme/profile.js';
import { apiFrame } from '../code-frame.js';
import { childPlace, invalid, isPlainObject, type Place } from '../input.js';
import { notValid, onlyMembers } from './input.js';
import type { RulesetPhase } from './model.js';

/**
 * The shape of a JSON value as the Rulesets API accepts it, as data (./parameter-shapes.ts holds the
 * action parameters of the Rules products), and the one reader that checks a value against a shape: types,
 * ranges, allowed values, required and exclusive members, and expressions checked for the rule's phase.
 */
export type Shape =
  | { type: 'boolean'; onlyTrue?: boolean }
  | { type: 'string'; min?: number; max?: number; values?: readonly string[]; pattern?: RegExp }
  | { type: 'integer'; min: number; max: number; values?: readonly number[] }
  /** A value expression (`concat(…)`, `regex_replace(…)`…), valid in the rule's phase. */
  | { type: 'expression' }
  | {
      type: 'object';
      members: Readonly<Record<string, Shape>>;
      required?: readonly string[];
      /** Exactly one of these members must be given. */
      exactlyOne?: readonly string[];
      /** At least one member must be given (an empty object would do nothing). */
      nonEmpty?: boolean;
      /** A rule across members: the reason the object is refused, or undefined. */
      check?: (members: Readonly<Record<string, unknown>>) => string | undefined;
    }
  | { type: 'list'; of: Shape; min?: number }
  /** The first of these shapes the value has (the API's older and newer forms of one member). */
  | { type: 'anyOf'; options: readonly Shape[] }
  /** An object whose member names are the client's (header names): each value of one shape. */
  | { type: 'map'; of: Shape; keyPattern?: RegExp; keyText?: string };

export interface ShapeContext {
  plan: Plan;
  phase: RulesetPhase;
  /** `false`: expressions are checked by the caller (`cfrules validate`, with their positions in a file). */
  checkExpression?: boolean;
}

/** The value checked against the shape, as the JSON to store (objects' members in the shape's order). */
export function readShape(value: unknown, place: Place, shape: Shape, context: ShapeContext): unknown {
  switch (shape.type) {
    case 'boolean':
      if (typeof value !== 'boolean') throw notValid(place, value, 'it must be true or false');
      if (shape.onlyTrue && !value) throw notValid(place, value, 'it can only be true');
      return value;
    case 'string':
      return readString(value, place, shape);
    case 'integer':
      return readInteger(value, place, shape);
    case 'expression':
      return readExpression(value, place, context);
    case 'list': {
      if (!Array.isArray(value)) throw notValid(place, value, 'it must be an array');
      if (value.length < (shape.min ?? 0))
        throw notValid(place, value, `it must list at least ${shape.min} item${shape.min === 1 ? '' : 's'}`);
      return value.map((item, index) => readShape(item, childPlace(place, index), shape.of, context));
    }
    case 'map': {
      if (!isPlainObject(value)) throw notValid(place, value, 'it must be an object');
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => {
          if (shape.keyPattern && !shape.keyPattern.test(key))
            throw notValid(childPlace(place, key), key, `it is not ${shape.keyText ?? 'a valid name'}`);
          return [key, readShape(item, childPlace(place, key), shape.of, context)];
        }),
      );
    }
    case 'object':
      return readObject(value, place, shape, context);
    case 'anyOf': {
      let first: unknown;
      for (const option of shape.options) {
        try {
          return readShape(value, place, option, context);
        } catch (error) {
          first ??= error;
        }
      }
      // None fits: say what is wrong by the first (the current form).
      throw first;
    }
  }
}

function readString(value: unknown, place: Place, shape: Extract<Shape, { type: 'string' }>): string {
  if (typeof value !== 'string') throw notValid(place, value, 'it must be a string');
  if (shape.values && !shape.values.includes(value))
    throw notValid(place, value, `it must be one of ${shape.values.join(', ')}`);
  if (value.length < (shape.min ?? 0)) throw notValid(place, value, 'it must not be empty');
  if (shape.max !== undefined && value.length > shape.max)
    throw notValid(place, value, `it is longer than ${shape.max} characters`);
  if (shape.pattern && !shape.pattern.test(value))
    throw notValid(place, value, `it must match ${shape.pattern.source}`);
  return value;
}

function readInteger(value: unknown, place: Place, shape: Extract<Shape, { type: 'integer' }>): number {
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw notValid(place, value, 'it must be an integer');
  if (shape.values && !shape.values.includes(value))
    throw notValid(place, value, `it must be one of ${shape.values.join(', ')}`);
  if (value < shape.min || value > shape.max)
    throw notValid(place, value, `it must be from ${shape.min} to ${shape.max}`);
  return value;
}

function readExpression(
  value: unknown,
  place: Place,
  { plan, phase, checkExpression }: ShapeContext,
): string {
  if (typeof value !== 'string' || value === '') throw notValid(place, value, 'it must be an expression');
  if (checkExpression === false) return value;
  const { diagnostics } = validate(value, { plan, phase, expression: 'rewrite', lints: false });
  const error = diagnostics.find((diagnostic) => diagnostic.severity === 'error');
  if (error !== undefined)
    throw notValid(place, value, `the expression is invalid: ${apiFrame(value, error)}`);
  return value;
}

function readObject(
  value: unknown,
  place: Place,
  shape: Extract<Shape, { type: 'object' }>,
  context: ShapeContext,
): Record<string, unknown> {
  if (!isPlainObject(value)) throw notValid(place, value, 'it must be an object');
  const names = Object.keys(shape.members);
  onlyMembers(value, place, names);
  const given = names.filter((name) => value[name] !== undefined && value[name] !== null);
  for (const name of shape.required ?? [])
    if (!given.includes(name)) throw invalid(childPlace(place, name), `${name} is required here`);
  if (shape.exactlyOne) {
    const chosen = shape.exactlyOne.filter((name) => given.includes(name));
    if (chosen.length !== 1)
      throw invalid(place, `give exactly one of ${shape.exactlyOne.join(', ')} (got ${chosen.length})`);
  }
  if (shape.nonEmpty && given.length === 0) throw invalid(place, `give at least one of ${names.join(', ')}`);
  const out: Record<string, unknown> = {};
  for (const name of given)
    out[name] = readShape(value[name], childPlace(place, name), shape.members[name] as Shape, context);
  const reason = shape.check?.(out);
  if (reason !== undefined) throw invalid(place, reason);
  return out;
}
