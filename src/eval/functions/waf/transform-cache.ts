import type { WafTransformation } from '../../../scheme/waf-functions.js';
import { RecentMap } from '../../recent.js';
import { TRANSFORMATIONS } from './transforms.js';

/**
 * Transformed values, computed once per request and shared: the managed rules transform the same few
 * targets (every argument, every cookie…) with chains that often begin alike (`utf8toUnicode,
 * urlDecodeUni,…`), in hundreds of rules. A target's values after each prefix of a chain are remembered
 * with the target, whose array is the request's own (a field's value is derived once per request and
 * keeps its identity): a rule whose chain shares a prefix with another's starts where that one left off,
 * and a step that changes no value gives back the same array.
 */

/** A target's values after each chain prefix, by the prefix's number (`prefixNumbers`), by target array. */
type PrefixValues = (readonly string[] | undefined)[];
const prefixes = new WeakMap<readonly string[], PrefixValues>();

/**
 * Every chain prefix met so far (`,urlDecodeUni,lowercase`), numbered: a target's cache is then an array
 * read by number, not a map read by a string (some 500 reads per request for a zone's managed rules).
 */
const prefixNumbers = new Map<string, number>();

/** One value as a target: the same array for the same text, so that its prefixes are shared too. */
const singles = new RecentMap<string, readonly string[]>(1024);

export function asTarget(value: string): readonly string[] {
  let target = singles.get(value);
  if (!target) {
    target = [value];
    singles.set(value, target);
  }
  return target;
}

/** A transformation chain ready to run: its steps without `none`, and the number of each prefix. */
export interface Chain {
  readonly names: readonly WafTransformation[];
  readonly prefixes: readonly number[];
}

export function chainOf(names: readonly WafTransformation[]): Chain {
  const steps = names.filter((name) => name !== 'none');
  const numbers: number[] = [];
  let key = '';
  for (const name of steps) {
    key += `,${name}`;
    let number = prefixNumbers.get(key);
    if (number === undefined) {
      number = prefixNumbers.size;
      prefixNumbers.set(key, number);
    }
    numbers.push(number);
  }
  return { names: steps, prefixes: numbers };
}

/** The target's values after one more step, from the cache or computed (and then remembered). */
function step(
  cache: PrefixValues,
  current: readonly string[],
  chain: Chain,
  index: number,
): readonly string[] {
  const prefix = chain.prefixes[index] as number;
  let next = prefix < cache.length ? cache[prefix] : undefined;
  if (!next) {
    const transform = TRANSFORMATIONS[chain.names[index] as WafTransformation];
    let changed: string[] | undefined;
    for (let i = 0; i < current.length; i++) {
      const before = current[i] as string;
      const after = transform(before);
      if (after !== before && !changed) changed = current.slice(0, i);
      changed?.push(after);
    }
    next = changed ?? current;
    // Kept packed (a chain registered since the cache was made numbers past its end).
    while (cache.length <= prefix) cache.push(undefined);
    cache[prefix] = next;
  }
  return next;
}

function cacheOf(values: readonly string[]): PrefixValues {
  let cache = prefixes.get(values);
  if (!cache) {
    cache = new Array<readonly string[] | undefined>(prefixNumbers.size).fill(undefined);
    prefixes.set(values, cache);
  }
  return cache;
}

/** The values after the whole chain, in order. */
export function transformed(values: readonly string[], chain: Chain): readonly string[] {
  if (chain.names.length === 0) return values;
  const cache = cacheOf(values);
  let current = values;
  for (let index = 0; index < chain.names.length; index++) current = step(cache, current, chain, index);
  return current;
}

/**
 * ModSecurity's multiMatch: each value before the chain and after each step, without repeats of the same
 * value, in order (value by value).
 */
export function transformedSteps(values: readonly string[], chain: Chain): readonly string[] {
  const cache = cacheOf(values);
  const all = [values];
  let changed = false;
  for (let index = 0; index < chain.names.length; index++) {
    const next = step(cache, all[index] as readonly string[], chain, index);
    changed ||= next !== values;
    all.push(next);
  }
  // No step changed a value (the usual case): the values themselves, as the same array.
  if (!changed) return values;
  const out: string[] = [];
  for (let i = 0; i < values.length; i++) {
    const first = out.length;
    for (const stage of all) {
      const value = stage[i] as string;
      let seen = false;
      for (let k = first; k < out.length && !seen; k++) seen = out[k] === value;
      if (!seen) out.push(value);
    }
  }
  return out;
}
