import { at, ServiceError } from './errors.js';
import { type QueryParams, queryIds } from './pagination.js';

/**
 * Readers for JSON request bodies. A body is whatever the client sent (any JSON value), so every reader
 * takes `unknown` and either returns a typed value or throws a 400 ServiceError that says which field is
 * wrong (a JSON pointer) and what it should be. Only own properties are read: a key such as `constructor`
 * or `__proto__` is never mistaken for a field.
 */

/** Where a value sits in the body, and how errors about it are reported. */
export interface Place {
  /** JSON pointer from the body's root (`''` is the root itself). */
  pointer: string;
  /** The error code of the resource being read (10100 for filters, 10200 for rules…). */
  code: number;
  /** Prepended to every message about this place and inside it (`filter at index 2`). */
  context?: string;
}

export const rootPlace = (code: number): Place => ({ pointer: '', code });

/** The place of a member or an element; keys are escaped as JSON pointers require (`~0`, `~1`). */
export const childPlace = (place: Place, key: string | number): Place => ({
  ...place,
  pointer: `${place.pointer}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`,
});

/**
 * A 400 about the value at `place`; `code` overrides the place's code for this one error, `problem` names
 * the problem for reports outside the API (see ServiceError).
 */
export function invalid(place: Place, message: string, code = place.code, problem?: string): ServiceError {
  const text = place.context === undefined ? message : `${place.context}: ${message}`;
  const pointer = place.pointer === '' ? undefined : place.pointer;
  return new ServiceError('bad-request', at(code, text, pointer), problem);
}

/** At most this many characters of a client's value are repeated in a message. */
const SHOWN_LENGTH = 64;

/** A client-given text to repeat in a message, cut short if long. */
export const shown = (text: string): string =>
  text.length <= SHOWN_LENGTH ? text : `${text.slice(0, SHOWN_LENGTH)}…`;

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A lone UTF-16 surrogate: not Unicode text, and it would not survive storage unchanged. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Unicode characters (code points), stopping early once past `max`. */
function longerThan(text: string, max: number): boolean {
  if (text.length <= max) return false;
  let count = 0;
  for (const _ of text) if (++count > max) return true;
  return false;
}

/**
 * The members of one object of the body. A member that is absent or `null` counts as not given: optional
 * fields then take their default (Go and PHP clients send `null` for unset fields).
 */
export class BodyObject {
  private constructor(
    private readonly members: Record<string, unknown>,
    readonly place: Place,
  ) {}

  /** `value` must be an object; `what` names it in the error ("a filter", "the request body"). */
  static read(value: unknown, place: Place, what: string): BodyObject {
    if (!isPlainObject(value)) throw invalid(place, `${what} must be a JSON object`);
    return new BodyObject(value, place);
  }

  /** Whether the member is given (present and not null). */
  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** The member's value, or undefined when absent or null. */
  get(key: string): unknown {
    const value = Object.hasOwn(this.members, key) ? this.members[key] : undefined;
    return value === null ? undefined : value;
  }

  /** Whether the member is present at all, even as null (PATCH: null resets a field to its default). */
  present(key: string): boolean {
    return Object.hasOwn(this.members, key) && this.members[key] !== undefined;
  }

  /** The object as sent (for readers that go through its members themselves). */
  rawValue(): Record<string, unknown> {
    return this.members;
  }

  /**
   * Refuses a member not in `known` (Cloudflare's schemas forbid additional properties), at its pointer:
   * a misspelt `descripton` would otherwise be dropped without a word.
   */
  allowOnly(known: readonly string[], what: string): void {
    for (const key of Object.keys(this.members)) {
      if (!known.includes(key))
        this.fail(
          key,
          `unknown member ${shownKey(key)}: ${what} has ${known.join(', ')}`,
          undefined,
          // One name for the problem, whatever the member (reports outside the API show it: docs/cli.md).
          'unknown-member',
        );
    }
  }

  placeOf(key: string): Place {
    return childPlace(this.place, key);
  }

  fail(key: string, message: string, code?: number, problem?: string): never {
    throw invalid(this.placeOf(key), message, code, problem);
  }

  /** A required string, non-empty, of at most `max` characters. */
  requiredString(key: string, max: number): string {
    return requiredString(this.get(key), this.placeOf(key), key, max);
  }

  /** An optional string of at most `max` characters. */
  string(key: string, max: number): string | undefined {
    return optionalString(this.get(key), this.placeOf(key), key, max);
  }

  /** An optional `true` or `false`. */
  boolean(key: string): boolean | undefined {
    const value = this.get(key);
    if (value === undefined || typeof value === 'boolean') return value;
    this.fail(key, `${key} must be true or false`);
  }

  /** An optional integer in [min, max]; undefined when absent or null (the caller gives null its meaning). */
  integer(key: string, min: number, max: number): number | undefined {
    const value = this.get(key);
    if (value === undefined) return undefined;
    if (typeof value === 'number' && !Number.isInteger(value) && Number.isFinite(value)) {
      // Cloudflare's schema types it as a number; cfrules orders rules by whole numbers only.
      this.fail(
        key,
        `${key} must be a whole number from ${min} to ${max}, or null (got ${value}: no fractions)`,
      );
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      this.fail(key, `${key} must be an integer from ${min} to ${max}, or null`);
    }
    return value;
  }

  /** A required value among `values`. */
  oneOf<T extends string>(key: string, values: readonly T[]): T {
    const value = this.get(key);
    if (typeof value === 'string' && (values as readonly string[]).includes(value)) return value as T;
    const choices = values.join(', ');
    if (value === undefined) this.fail(key, `${key} is required: one of ${choices}`);
    this.fail(key, `${key} ${shownValue(value)} must be one of ${choices}`);
  }

  /** An optional array of distinct values among `values`. */
  setOf<T extends string>(key: string, values: readonly T[]): T[] | undefined {
    const value = this.get(key);
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) this.fail(key, `${key} must be an array of ${values.join(', ')}`);
    const seen = new Set<T>();
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const place = childPlace(this.placeOf(key), index);
      if (typeof item !== 'string' || !(values as readonly string[]).includes(item)) {
        throw invalid(place, `${key} must only contain ${values.join(', ')}, not ${shownValue(item)}`);
      }
      if (seen.has(item as T)) throw invalid(place, `${key} lists ${item} twice`);
      seen.add(item as T);
    }
    return [...seen];
  }

  /** An optional nested object. */
  object(key: string, what: string): BodyObject | undefined {
    const value = this.get(key);
    return value === undefined ? undefined : BodyObject.read(value, this.placeOf(key), what);
  }
}

/**
 * A string of Unicode text of at most `max` characters, or undefined for a value that is absent or null;
 * errors name the value `key` and point at `place`. BodyObject reads its members with it; readers of a value
 * that is not a member of a body object (a query parameter) call it directly, for the same words.
 */
export function optionalString(value: unknown, place: Place, key: string, max: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || longerThan(value, max)) {
    throw invalid(
      place,
      max === Number.POSITIVE_INFINITY
        ? `${key} must be a string`
        : `${key} must be a string of at most ${max} characters`,
    );
  }
  if (LONE_SURROGATE.test(value))
    throw invalid(place, `${key} must be valid Unicode text (it has a lone surrogate)`);
  // PostgreSQL's text cannot hold U+0000: refused in every store, so that both keep the same data.
  if (value.includes('\0')) throw invalid(place, `${key} must not contain the NUL character (U+0000)`);
  return value;
}

/** optionalString, for a value that must be given and not empty. */
export function requiredString(value: unknown, place: Place, key: string, max: number): string {
  const text = optionalString(value, place, key, max);
  if (text === undefined || text === '') throw invalid(place, `${key} is required: a non-empty string`);
  return text;
}

/** One element of a batch body, with its place. */
export interface BodyItem {
  value: unknown;
  place: Place;
  index: number;
}

/**
 * The elements of a batch body: a non-empty array, or one object (older SDKs and the official SDK 7 send a
 * single object where the API documents an array). `what` names one element ("filter", "firewall rule").
 */
export function readBatch(body: unknown, code: number, what: string): BodyItem[] {
  const root = rootPlace(code);
  if (isPlainObject(body)) return [{ value: body, place: root, index: 0 }];
  if (!Array.isArray(body))
    throw invalid(root, `the request body must be an array of ${what}s, or one ${what}`);
  if (body.length === 0) throw invalid(root, `the request body must list at least one ${what}`);
  return Array.from(body, (value: unknown, index) => ({ value, place: childPlace(root, index), index }));
}

/**
 * The ids a bulk delete names: repeated `?id=` (as documented), or a body `{id}`, `{id: [...]}` or
 * `[{id}, ...]` (older API descriptions). Without repeats, in the order given.
 */
export function readIdsToDelete(query: QueryParams, body: unknown, code: number): string[] {
  const ids = queryIds(query);
  const root = rootPlace(code);
  const collect = (object: BodyObject) => {
    const member = object.get('id');
    if (member === undefined) return;
    const place = object.placeOf('id');
    const values: unknown[] = Array.isArray(member) ? member : [member];
    values.forEach((id, index) => {
      if (typeof id !== 'string') {
        throw invalid(
          Array.isArray(member) ? childPlace(place, index) : place,
          'id must be a string or an array of strings',
        );
      }
      ids.push(id);
    });
  };
  // No body (or an empty one) is the documented form: ids in the query.
  if (Array.isArray(body)) {
    body.forEach((item: unknown, index) => {
      collect(BodyObject.read(item, childPlace(root, index), 'each element of the request body'));
    });
  } else if (body !== undefined && body !== null && body !== '') {
    collect(BodyObject.read(body, root, 'the request body'));
  }
  return [...new Set(ids.filter((id) => id !== ''))];
}

/** A member name for a message, cut when long (it comes from the request). */
/** A refused value, named in the message that refuses it: JSON as sent (strings quoted), cut short if long. */
const shownValue = (value: unknown): string => shown(JSON.stringify(value) ?? String(value));

const shownKey = (key: string): string => JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key);
