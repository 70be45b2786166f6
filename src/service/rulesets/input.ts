import { CODES, type ServiceError } from '../errors.js';
import { type BodyObject, childPlace, invalid, isPlainObject, type Place, shown } from '../input.js';

/**
 * Readers the Rulesets API adds to the shared ones of ../input.ts: Cloudflare's sentence for a refused
 * value, arrays with the place of each element, and objects that must not carry unknown members.
 */

/** The last segment of a JSON pointer, unescaped: the name of the field the pointer reaches. */
const fieldOf = (place: Place): string =>
  (place.pointer.split('/').pop() ?? '').replaceAll('~1', '/').replaceAll('~0', '~');

/** How a refused value is repeated: strings quoted, other JSON as it was sent. */
const valueText = (value: unknown): string =>
  shown(typeof value === 'string' ? value : JSON.stringify(value));

/** Cloudflare's form: `'<value>' is not a valid value for <field> because <reason>`, at `place`. */
export function notValid(
  place: Place,
  value: unknown,
  reason: string,
  code = place.code,
  problem?: string,
): ServiceError {
  return invalid(
    place,
    `'${valueText(value)}' is not a valid value for ${fieldOf(place)} because ${reason}`,
    code,
    problem,
  );
}

/** The elements of an optional array member, each with its place; `nonEmpty` refuses `[]`. */
export function arrayMember(
  object: BodyObject,
  key: string,
  what: string,
  nonEmpty = false,
): { value: unknown; place: Place }[] | undefined {
  const value = object.get(key);
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) object.fail(key, `${key} must be an array of ${what}`);
  if (nonEmpty && value.length === 0) object.fail(key, `${key} must list at least one ${what}`);
  const place = object.placeOf(key);
  return value.map((item: unknown, index) => ({ value: item, place: childPlace(place, index) }));
}

/**
 * Refuses members other than `known` (a typo such as `enable` would otherwise be dropped without a word).
 * `ignored` members are accepted and not read: the read-only fields of an answer, so that what GET gave can
 * be sent back.
 */
export function onlyMembers(
  raw: unknown,
  place: Place,
  known: readonly string[],
  ignored: readonly string[] = [],
): void {
  if (!isPlainObject(raw)) return;
  for (const key of Object.keys(raw)) {
    if (known.includes(key) || ignored.includes(key)) continue;
    throw invalid(
      childPlace(place, key),
      `${shown(key)} is not a field cfrules knows here: use ${known.join(', ')}`,
      CODES.invalidRulesetValue,
      'unknown-member',
    );
  }
}
