import type { RequestProblem } from './model.js';

/**
 * Helpers to read untrusted parsed JSON (or any JS value) without throwing: type tests, JS-like paths for
 * problems, and short descriptions of bad values.
 */

export class Problems {
  readonly list: RequestProblem[] = [];

  add(path: string, message: string): void {
    this.list.push({ path, message });
  }

  get count(): number {
    return this.list.length;
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `base.key`, or `base["key"]` when the key is not an identifier (`fields["cf.waf.score"]`). */
export function keyPath(base: string, key: string): string {
  if (IDENTIFIER.test(key)) return base === '' ? key : `${base}.${key}`;
  return `${base}[${JSON.stringify(key)}]`;
}

export const indexPath = (base: string, index: number): string => `${base}[${index}]`;

/**
 * A plain object (what JSON.parse makes for `{…}`). Arrays, null, class instances (Date, Map…) are not:
 * their keys are not request data.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Own enumerable entries, skipping `undefined` values (JSON has none; callers building requests in JS
 * often leave optional keys undefined). Own properties only, so `constructor` or `__proto__` are never
 * inherited from Object.prototype.
 */
export function entriesOf(record: Record<string, unknown>): [string, unknown][] {
  const entries: [string, unknown][] = [];
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (value !== undefined) entries.push([key, value]);
  }
  return entries;
}

/**
 * A member that must be a string when it is given: `value` is the member (`json.method`), `key` its name.
 * The callers read members by name: a key named at run time is a slower look-up, which a reader asking
 * about a dozen members per request pays each time, and no member of the formats is one that
 * Object.prototype has.
 */
export function optionalString(value: unknown, key: string, problems: Problems): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  problems.add(keyPath('', key), `expected a string, got ${describe(value)}`);
  return undefined;
}

/** A short description of a bad value for messages: strings quoted and cut, containers by kind. */
export function describe(value: unknown): string {
  switch (typeof value) {
    case 'string': {
      const shown = value.length > 40 ? `${value.slice(0, 37)}...` : value;
      return JSON.stringify(shown);
    }
    case 'number':
    case 'boolean':
      return String(value);
    case 'bigint':
      return `${value}n`;
    case 'undefined':
      return 'undefined';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) return 'an array';
      if (isRecord(value)) return 'an object';
      const tag = Object.prototype.toString.call(value).slice(8, -1);
      return tag === 'Object' ? 'an object with a prototype (not plain JSON)' : `a ${tag}`;
    }
    default:
      return `a ${typeof value}`;
  }
}

/** Edit distance, for "did you mean" hints on misspelt keys. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(
        Math.min(
          (previous[j] as number) + 1,
          (current[j - 1] as number) + 1,
          (previous[j - 1] as number) + cost,
        ),
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/** The closest known name when it is close enough to be a likely typo. */
export function closest(name: string, known: Iterable<string>): string | undefined {
  if (name.length > 100) return undefined;
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 4)) + 1;
  const lower = name.toLowerCase();
  for (const candidate of known) {
    const d = distance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** `unknown key "mehtod" (did you mean "method"?)`. */
export function unknownKeyMessage(what: string, name: string, known: Iterable<string>): string {
  const suggestion = closest(name, known);
  return suggestion === undefined
    ? `unknown ${what} ${JSON.stringify(name)}`
    : `unknown ${what} ${JSON.stringify(name)} (did you mean ${JSON.stringify(suggestion)}?)`;
}

const PATH_SEGMENT = /^(?:\.?([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\])/;

/**
 * The segments of a problem's path (`headers[2][0]` → `headers`, `2`, `0`; `fields["cf.waf.score"]` →
 * `fields`, `cf.waf.score`), for callers that report JSON pointers. What it cannot read is a last segment.
 */
export function pathSegments(path: string): string[] {
  const segments: string[] = [];
  let rest = path;
  while (rest !== '') {
    const match = PATH_SEGMENT.exec(rest);
    if (match === null) return [...segments, rest];
    const [whole, name, index, quoted] = match;
    segments.push(name ?? index ?? (JSON.parse(quoted as string) as string));
    rest = rest.slice(whole.length);
  }
  return segments;
}
