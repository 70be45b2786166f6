import { quotedString, rawString } from '../../inputs.js';
import { targetValues } from '../../targets.js';

/** A regex as a raw string literal of the Rules language. */
export const raw = rawString;

/**
 * Whether some value of the targets, transformed, meets every condition — for the CRS rules whose chain
 * tests the same value again (`MATCHED_VAR`): `["matches r\"…\"", "contains \"/\"", "not matches r\"…\""]`.
 */
export function anyValueWhere(
  targets: string,
  transformations: string,
  conditions: readonly string[],
): string {
  const values = `waf_transform(${quotedString(transformations)}, ${targetValues(targets).join(', ')})[*]`;
  const tests = conditions.map((condition) =>
    condition.startsWith('not ') ? `not ${values} ${condition.slice(4)}` : `${values} ${condition}`,
  );
  return `any(${tests.join(' and ')})`;
}

/**
 * Whether some value of the targets, transformed, matches one of several regexes: one regex too large for
 * V8 to optimize (its source past 20 KB) split in parts.
 */
export function anyValueMatching(
  targets: string,
  transformations: string,
  regexes: readonly string[],
): string {
  const values = `waf_transform(${quotedString(transformations)}, ${targetValues(targets).join(', ')})[*]`;
  return `any(${regexes.map((regex) => `${values} matches ${rawString(regex)}`).join(' or ')})`;
}
