import type { PageRequest } from '../store/store.js';
import {
  invalidQuery,
  type QueryParams,
  queryString,
  type ResultInfo,
  readPage,
  resultInfo,
} from './pagination.js';

/**
 * Lists of catalogue data kept in memory (previous WAF packages, groups, rules; page rules), with the query
 * parameters Cloudflare's old list endpoints share: search parameters combined by `match` (`all`, the
 * default, or `any`), `order` by one of a few keys and `direction` (`asc`, the default, or `desc`).
 */
export interface ListSpec<T> {
  /** Search parameters: each tests an item against the parameter's text. */
  filters: Record<string, (item: T, value: string) => boolean>;
  /** Order keys; items keep their catalogue order within equal keys (the sort is stable). */
  orders: Record<string, (a: T, b: T) => number>;
  /** Default `per_page`; undefined for lists that are not paginated (all items, no result_info). */
  perPage?: number;
  /** Default direction when `order` is given (page rules: `desc`, highest priority first). */
  direction?: 'asc' | 'desc';
}

function choice<T extends string>(query: QueryParams, name: string, values: readonly T[]): T | undefined {
  const value = queryString(query, name);
  if (value === undefined || (values as readonly string[]).includes(value)) return value as T | undefined;
  throw invalidQuery(`${name} must be one of ${values.join(', ')}`);
}

/** The items the query selects, ordered and (when the list is paginated) cut to the page asked for. */
export function listItems<T>(
  items: readonly T[],
  query: QueryParams,
  spec: ListSpec<T>,
): { result: T[]; resultInfo?: ResultInfo } {
  const page: PageRequest | undefined =
    spec.perPage === undefined ? undefined : readPage(query, spec.perPage);
  const match = choice(query, 'match', ['all', 'any'] as const) ?? 'all';
  const order = choice(query, 'order', Object.keys(spec.orders));
  const direction = choice(query, 'direction', ['asc', 'desc'] as const) ?? spec.direction ?? 'asc';
  const tests = Object.entries(spec.filters).flatMap(([name, test]) => {
    const value = queryString(query, name);
    return value === undefined ? [] : [(item: T) => test(item, value)];
  });
  let selected = items.filter((item) =>
    tests.length === 0 ? true : match === 'all' ? tests.every((t) => t(item)) : tests.some((t) => t(item)),
  );
  if (order !== undefined) {
    const compare = spec.orders[order] as (a: T, b: T) => number;
    selected = [...selected].sort((a, b) => (direction === 'asc' ? compare(a, b) : compare(b, a)));
  }
  if (page === undefined) return { result: selected };
  const start = (page.page - 1) * page.perPage;
  const result = selected.slice(start, start + page.perPage);
  return { result, resultInfo: resultInfo(page, result.length, selected.length) };
}

/** Case-insensitive substring, as Cloudflare's `name` and `description` searches. */
export const includesText = (text: string | null, value: string): boolean =>
  text?.toLowerCase().includes(value.toLowerCase()) === true;

export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
