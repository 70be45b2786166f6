// Choices made against Cloudflare's published schemas for filters and firewall rules (docs/api.md §10):
// unknown members refused with a pointer, fractional priorities explained, ids checked in searches, and a
// cap on a zone's filters so that failing requests cannot grow the database forever.
import { describe, expect, it } from 'vitest';
import { FILTER_LIMIT } from '../../src/service/filters.js';
import { freshHarnessPerTest, type Harness, ZONES, zonePath } from './harness.js';
import { expectFailure, snapshot } from './requests.js';

let h: Harness;
freshHarnessPerTest((fresh) => {
  h = fresh;
});

const Z = ZONES.enterprise;

describe('unknown members', () => {
  const cases: [string, string, object, string][] = [
    [
      'an inline filter',
      '/firewall/rules',
      [{ action: 'block', filter: { expression: 'ssl', nope: 1 } }],
      '/0/filter/nope',
    ],
    [
      'a rule',
      '/firewall/rules',
      [{ action: 'block', descripton: 'x', filter: { expression: 'ssl' } }],
      '/0/descripton',
    ],
    ['a filter', '/filters', [{ expression: 'ssl', pasued: true }], '/0/pasued'],
  ];
  it.each(cases)(
    'of %s are refused at their pointer, and nothing is created',
    async (_, path, payload, pointer) => {
      const before = await snapshot(h, Z);
      const response = await h.call({ method: 'POST', url: zonePath(Z, path), payload });
      expect(response.status).toBe(400);
      expect(response.body.errors[0]?.source?.pointer).toBe(pointer);
      expect(response.body.errors[0]?.message).toMatch(
        /unknown member "\w+": a (filter|firewall rule) has id, /,
      );
      expect(await snapshot(h, Z)).toEqual(before);
    },
  );

  it('do not include what the API answers: a rule and a filter read with GET can be sent back', async () => {
    const created = await h.call({
      method: 'POST',
      url: zonePath(Z, '/firewall/rules'),
      payload: [{ action: 'block', ref: 'r1', filter: { expression: 'ssl', ref: 'f1' } }],
    });
    const rule = created.body.result[0];
    const put = await h.call({
      method: 'PUT',
      url: zonePath(Z, `/firewall/rules/${rule.id}`),
      payload: rule,
    });
    expect(put.status).toBe(200);
    const filter = (
      await h.call({ method: 'POST', url: zonePath(Z, '/filters'), payload: [{ expression: 'not ssl' }] })
    ).body.result[0];
    const again = await h.call({ method: 'PUT', url: zonePath(Z, `/filters/${filter.id}`), payload: filter });
    expect(again.status).toBe(200);
  });
});

it('a fractional priority is refused with a message saying priorities are whole numbers', async () => {
  const response = await h.call({
    method: 'POST',
    url: zonePath(Z, '/firewall/rules'),
    payload: [{ action: 'block', priority: 1.5, filter: { expression: 'ssl' } }],
  });
  expectFailure(response, 400, 10200);
  expect(response.body.errors[0]?.message).toContain('priority must be a whole number from 0 to 2147483647');
  expect(response.body.errors[0]?.message).toContain('got 1.5');
});

it.each(['/filters', '/firewall/rules'])(
  'an id search (%s?id=) that is not an id is refused (10001)',
  async (path) => {
    expectFailure(await h.call({ url: zonePath(Z, `${path}?id=not-an-id`) }), 400, 10001);
  },
);

describe('the filter limit', () => {
  /** Fills the zone up to `count` filters straight through the store (the API would take minutes). */
  async function fill(count: number) {
    await h.store.transaction(async (tx) => {
      for (let i = 0; i < count; i++) {
        await tx.filters.insert({
          id: i.toString(16).padStart(32, '0'),
          zoneId: Z,
          expression: `http.request.uri.path eq "/${i}"`,
          description: '',
          paused: false,
          ref: null,
          createdWithRule: null,
          createdOn: '2026-01-01T00:00:00Z',
          modifiedOn: '2026-01-01T00:00:00Z',
        });
      }
    });
  }
  const count = () => h.store.transaction((tx) => tx.filters.count(Z));

  it('refuses filters past it (10105), creating none of the request', async () => {
    await fill(FILTER_LIMIT - 1);
    const response = await h.call({
      method: 'POST',
      url: zonePath(Z, '/filters'),
      payload: [{ expression: 'ssl' }, { expression: 'not ssl' }],
    });
    expectFailure(response, 400, 10105);
    expect(response.body.errors[0]?.message).toContain(`at most ${FILTER_LIMIT} filters`);
    expect(await count()).toBe(FILTER_LIMIT - 1);
    const one = await h.call({
      method: 'POST',
      url: zonePath(Z, '/filters'),
      payload: [{ expression: 'ssl' }],
    });
    expect(one.status).toBe(200);
    expect(await count()).toBe(FILTER_LIMIT);
  });

  it('stops the inline filters of rules too: failing requests cannot leave filters behind forever', async () => {
    await fill(FILTER_LIMIT);
    const response = await h.call({
      method: 'POST',
      url: zonePath(Z, '/firewall/rules'),
      payload: [{ action: 'block', filter: { expression: 'ssl' } }],
    });
    expectFailure(response, 400, 10105);
    expect(await count()).toBe(FILTER_LIMIT);
  });
});
