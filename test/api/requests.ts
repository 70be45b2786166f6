// Requests the Filters, Firewall Rules and fuzz tests repeat: creating objects, reading whole lists, and
// checking the envelope of a failure.
import { expect } from 'vitest';
import { type Envelope, type Harness, zonePath } from './harness.js';

export const ID = /^[0-9a-f]{32}$/;
export const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

export const filtersPath = (zone: string, rest = '') => zonePath(zone, `/filters${rest}`);
export const rulesPath = (zone: string, rest = '') => zonePath(zone, `/firewall/rules${rest}`);
/** `?id=a&id=b`, as the bulk deletes take their ids. */
export const idQuery = (ids: readonly string[]) =>
  `?${ids.map((id) => `id=${encodeURIComponent(id)}`).join('&')}`;

// The answers' shapes are the service's own.
import type { FilterJson } from '../../src/service/filters.js';
import type { RuleJson } from '../../src/service/firewall-rules.js';

export type { FilterJson, RuleJson };

/** A failure envelope with these codes, in this order. */
export function expectFailure(
  response: { status: number; body: Envelope },
  status: number,
  ...codes: number[]
) {
  expect({ status: response.status, codes: response.body.errors?.map((e) => e.code) }).toEqual({
    status,
    codes,
  });
  expect(response.body).toMatchObject({ success: false, result: null, messages: [] });
}

/** Creates filters through the Filters API; fails the test if the service refuses. */
export async function createFilters(
  h: Harness,
  zone: string,
  filters: { expression: string; description?: string; paused?: boolean; ref?: string }[],
): Promise<FilterJson[]> {
  const response = await h.call({ method: 'POST', url: filtersPath(zone), payload: filters });
  expect(response.body.errors).toEqual([]);
  expect(response.status).toBe(200);
  return response.body.result;
}

export async function createFilter(h: Harness, zone: string, expression: string): Promise<FilterJson> {
  const [filter] = await createFilters(h, zone, [{ expression }]);
  return filter as FilterJson;
}

/** Creates firewall rules (filters by id or inline); fails the test if the service refuses. */
export async function createRules(h: Harness, zone: string, rules: object[]): Promise<RuleJson[]> {
  const response = await h.call({ method: 'POST', url: rulesPath(zone), payload: rules });
  expect(response.body.errors).toEqual([]);
  expect(response.status).toBe(200);
  return response.body.result;
}

export async function createRule(h: Harness, zone: string, rule: object): Promise<RuleJson> {
  const [created] = await createRules(h, zone, [rule]);
  return created as RuleJson;
}

/** Every item of a list, page after page (100 per page), in the order the service gives them. */
export async function listAll<T = Record<string, unknown>>(h: Harness, path: string): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const response = await h.call({ url: `${path}?per_page=100&page=${page}` });
    expect(response.status).toBe(200);
    const result = response.body.result as T[];
    if (result.length === 0) return items;
    items.push(...result);
  }
}

export const listFilters = (h: Harness, zone: string) => listAll<FilterJson>(h, filtersPath(zone));
export const listRules = (h: Harness, zone: string) => listAll<RuleJson>(h, rulesPath(zone));

/** The filters and rules of a zone, to compare before and after a request that must change nothing. */
export async function snapshot(
  h: Harness,
  zone: string,
): Promise<{ filters: FilterJson[]; rules: RuleJson[] }> {
  return { filters: await listFilters(h, zone), rules: await listRules(h, zone) };
}
