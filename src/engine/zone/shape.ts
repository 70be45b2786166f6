import type { ZoneProblem } from './types.js';

/**
 * A small vocabulary for checking the shape of JSON documents key by key: every problem is collected with
 * its JSON pointer, and an object with a key its shape does not name is a problem too (a misspelt key
 * must not be ignored silently).
 */

export type Shape = (value: unknown, path: string, problems: ZoneProblem[]) => void;

/** A JSON pointer segment (RFC 6901: `~` → `~0`, `/` → `~1`). */
export const segment = (key: string | number): string =>
  `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;

const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

const invalid = (problems: ZoneProblem[], path: string, message: string) =>
  problems.push({ path, code: 'invalid-value', message });

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const string: Shape = (value, path, problems) => {
  if (typeof value !== 'string') invalid(problems, path, `expected a string, got ${shown(value)}`);
};

export const boolean: Shape = (value, path, problems) => {
  if (typeof value !== 'boolean') invalid(problems, path, `expected true or false, got ${shown(value)}`);
};

export const integer: Shape = (value, path, problems) => {
  if (!Number.isSafeInteger(value)) invalid(problems, path, `expected an integer, got ${shown(value)}`);
};

/** Anything JSON (members the simulator does not read, kept for round trips with the API). */
export const anything: Shape = () => {};

export const nullable =
  (shape: Shape): Shape =>
  (value, path, problems) => {
    if (value !== null) shape(value, path, problems);
  };

export const oneOf =
  (allowed: readonly string[]): Shape =>
  (value, path, problems) => {
    if (typeof value !== 'string' || !allowed.includes(value))
      invalid(problems, path, `expected one of ${allowed.join(', ')}, got ${shown(value)}`);
  };

export const arrayOf =
  (item: Shape): Shape =>
  (value, path, problems) => {
    if (!Array.isArray(value)) return invalid(problems, path, `expected an array, got ${shown(value)}`);
    for (const [index, element] of value.entries()) item(element, path + segment(index), problems);
  };

/** An object whose values all have one shape (`{"<ruleset id>": [...]}`). */
export const recordOf =
  (item: Shape): Shape =>
  (value, path, problems) => {
    if (!isObject(value)) return invalid(problems, path, `expected an object, got ${shown(value)}`);
    for (const [key, member] of Object.entries(value)) item(member, path + segment(key), problems);
  };

/** Members: `name` is required, `name?` optional. Unknown members are `unknown-key` problems. */
export const objectOf =
  (members: Record<string, Shape>): Shape =>
  (value, path, problems) => {
    if (!isObject(value)) return invalid(problems, path, `expected an object, got ${shown(value)}`);
    const known = new Map(Object.entries(members).map(([key, shape]) => [key.replace(/\?$/, ''), shape]));
    for (const [key, shape] of Object.entries(members)) {
      const name = key.replace(/\?$/, '');
      if (value[name] === undefined) {
        if (!key.endsWith('?'))
          problems.push({ path: path + segment(name), code: 'missing-key', message: `${name} is required` });
      } else {
        shape(value[name], path + segment(name), problems);
      }
    }
    for (const key of Object.keys(value)) {
      if (!known.has(key))
        problems.push({
          path: path + segment(key),
          code: 'unknown-key',
          message: `unknown key '${key}' (known: ${[...known.keys()].join(', ')})`,
        });
    }
  };
