import type { PageRequest } from '../store/store.js';
import { at, CODES, ServiceError } from './errors.js';

/**
 * Query strings as the HTTP layer hands them over: one string per key, or an array when the key is repeated
 * (`?id=a&id=b`, which is how the official SDK sends lists).
 */
export type QueryParams = Record<string, string | string[] | undefined>;

export interface ResultInfo {
  page: number;
  per_page: number;
  /** Items on this page. */
  count: number;
  /** Items over all pages. */
  total_count: number;
  total_pages: number;
}

/** Cloudflare's bounds for `per_page` on the Filters and Firewall Rules lists. */
export const PER_PAGE = { min: 5, max: 100, default: 25 } as const;
/** No real list has that many pages; the bound keeps offsets exact integers all the way to the store. */
export const MAX_PAGE = 2_147_483_647;

/** A query parameter the request got wrong: 400 with code 10001, for every query reader of the service. */
export const invalidQuery = (message: string): ServiceError =>
  new ServiceError('bad-request', at(CODES.invalidQuery, message));

/**
 * `page` (from 1, default 1) and `per_page` (5..100, default 25 unless the list says otherwise). Out-of-range
 * values are refused rather than clamped, so that a client never silently gets another page than it asked
 * for. A page past the last one is valid and simply empty: the SDK's auto-pagination stops on an empty page.
 */
export function readPage(query: QueryParams, defaultPerPage: number = PER_PAGE.default): PageRequest {
  return {
    page: readInteger(query, 'page', 1, MAX_PAGE) ?? 1,
    perPage: readInteger(query, 'per_page', PER_PAGE.min, PER_PAGE.max) ?? defaultPerPage,
  };
}

export function resultInfo(page: PageRequest, count: number, totalCount: number): ResultInfo {
  return {
    page: page.page,
    per_page: page.perPage,
    count,
    total_count: totalCount,
    total_pages: Math.ceil(totalCount / page.perPage),
  };
}

/** A parameter that may appear once; undefined when absent. */
export function queryString(query: QueryParams, name: string): string | undefined {
  const given = query[name];
  if (Array.isArray(given) && given.length !== 1) throw invalidQuery(`${name} must be given at most once`);
  const value = Array.isArray(given) ? given[0] : given;
  // No stored text holds U+0000 (see optionalString in ./input.ts): a search for it is refused, not run.
  if (value?.includes('\0')) throw invalidQuery(`${name} must not contain the NUL character (U+0000)`);
  return value;
}

/** An `id` search parameter: an object id (32 hexadecimal characters), or absent. */
export function queryId(query: QueryParams, name = 'id'): string | undefined {
  const value = queryString(query, name);
  if (value === undefined || /^[0-9a-f]{32}$/.test(value)) return value;
  throw invalidQuery(`${name} must be an id: 32 lowercase hexadecimal characters`);
}

/** `true` or `false`; undefined when absent. */
export function queryBoolean(query: QueryParams, name: string): boolean | undefined {
  const value = queryString(query, name);
  if (value === undefined) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw invalidQuery(`${name} must be true or false`);
}

/** Every value of a repeatable parameter (`?id=a&id=b`), without empty ones and without repeats. */
export function queryList(query: QueryParams, name: string): string[] {
  const value = query[name];
  const values = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return [...new Set(values.filter((item) => item !== ''))];
}

/** The ids of a repeated `id` parameter, as the bulk deletes take them. */
export const queryIds = (query: QueryParams): string[] => queryList(query, 'id');

const DIGITS = /^[0-9]{1,10}$/;

function readInteger(query: QueryParams, name: string, min: number, max: number): number | undefined {
  const text = queryString(query, name);
  if (text === undefined) return undefined;
  const value = DIGITS.test(text) ? Number(text) : Number.NaN;
  if (!(value >= min && value <= max)) throw invalidQuery(`${name} must be an integer from ${min} to ${max}`);
  return value;
}
