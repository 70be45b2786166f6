// The Filters API (docs/api.md §5) and validate-expr (§7), through fastify.inject.
import { describe, expect, it } from 'vitest';
import {
  freshHarnessPerTest,
  type Harness,
  OTHER_TOKEN,
  READ_TOKEN,
  SCOPED_TOKEN,
  ZONES,
} from './harness.js';
import {
  createFilter,
  createFilters,
  createRule,
  expectFailure,
  type FilterJson,
  filtersPath,
  ID,
  ISO_TIME,
  idQuery,
  listFilters,
  rulesPath,
  snapshot,
} from './requests.js';

let h: Harness;
freshHarnessPerTest((fresh) => {
  h = fresh;
});

const Z = ZONES.enterprise;
const BAD_IP = 'ip.src eq 1.2.3';
const BAD_IP_TEXT = "couldn't parse address in network: invalid IP address syntax";
const DUPLICATE = 'config duplicates an already existing config';

describe('POST /zones/{zone_id}/filters', () => {
  it('creates filters and answers them in the envelope: 32-hex ids, times, defaults, no ref when unset', async () => {
    const { status, body } = await h.call({
      method: 'POST',
      url: filtersPath(Z),
      payload: [
        { expression: 'http.request.uri.path contains "/admin"', description: 'admin area', ref: 'FIL-100' },
        { expression: 'ip.src eq 192.0.2.1', paused: true },
      ],
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, errors: [], messages: [] });
    expect(body.result_info).toBeUndefined();
    const [admin, ip] = body.result as FilterJson[];
    expect(admin).toEqual({
      id: expect.stringMatching(ID),
      expression: 'http.request.uri.path contains "/admin"',
      paused: false,
      description: 'admin area',
      ref: 'FIL-100',
      created_on: expect.stringMatching(ISO_TIME),
      modified_on: expect.stringMatching(ISO_TIME),
    });
    expect(ip).toMatchObject({ expression: 'ip.src eq 192.0.2.1', paused: true, description: '' });
    expect(ip).not.toHaveProperty('ref');
    expect(admin?.id).not.toBe(ip?.id);
    expect(await listFilters(h, Z)).toEqual([admin, ip]);
  });

  it('accepts one object instead of an array, and answers an array', async () => {
    const { status, body } = await h.call({
      method: 'POST',
      url: filtersPath(Z),
      payload: { expression: 'ssl' },
    });
    expect(status).toBe(200);
    expect(body.result).toEqual([expect.objectContaining({ expression: 'ssl' })]);
  });

  it('stores the expression as sent, not reformatted', async () => {
    const expression = 'http.host   eq "a.example"\n  and  not ssl';
    const [filter] = await createFilters(h, Z, [{ expression }]);
    expect(filter?.expression).toBe(expression);
    expect((await h.call({ url: filtersPath(Z, `/${filter?.id}`) })).body.result.expression).toBe(expression);
  });

  it("refuses an invalid expression with Cloudflare's parser text, position and pointer", async () => {
    const response = await h.call({ method: 'POST', url: filtersPath(Z), payload: [{ expression: BAD_IP }] });
    expectFailure(response, 400, 10100);
    const [error] = response.body.errors;
    expect(error?.source).toEqual({ pointer: '/0/expression' });
    expect(error?.message).toMatch(/^Filter parsing error \(1:11\):\nip\.src eq 1\.2\.3\n {10}\^+ /);
    expect(error?.message).toContain(BAD_IP_TEXT);
    expect(await listFilters(h, Z)).toEqual([]);
  });

  it("checks the expression with the zone's plan: matches is refused on Pro and accepted on Business", async () => {
    const expression = 'http.request.uri.path matches "^/admin/.*"';
    const pro = await h.call({ method: 'POST', url: filtersPath(ZONES.pro), payload: [{ expression }] });
    expectFailure(pro, 400, 10100);
    expect(pro.body.errors[0]?.message).toMatch(/^Filter parsing error \(1:\d+\):\n/);
    expect(pro.body.errors[0]?.message).toContain('matches');
    expect(await listFilters(h, ZONES.pro)).toEqual([]);

    const business = await h.call({
      method: 'POST',
      url: filtersPath(ZONES.business),
      payload: [{ expression }],
    });
    expect(business.status).toBe(200);
    expect(business.body.result[0].expression).toBe(expression);
  });

  it('refuses a missing, empty or non-string expression with 10100 and a pointer', async () => {
    for (const item of [{}, { expression: '' }, { expression: 42 }, { expression: ['ssl'] }]) {
      const response = await h.call({ method: 'POST', url: filtersPath(Z), payload: [item] });
      expectFailure(response, 400, 10100);
      expect(response.body.errors[0]?.source).toEqual({ pointer: '/0/expression' });
    }
    expect(await listFilters(h, Z)).toEqual([]);
  });

  it('limits description to 500 characters and ref to 50 (10100, with the pointer)', async () => {
    const ok = await createFilters(h, Z, [
      { expression: 'ssl', description: 'd'.repeat(500), ref: 'r'.repeat(50) },
    ]);
    expect(ok[0]).toMatchObject({ description: 'd'.repeat(500), ref: 'r'.repeat(50) });

    const longDescription = await h.call({
      method: 'POST',
      url: filtersPath(Z),
      payload: [{ expression: 'not ssl' }, { expression: 'http.host eq "a"', description: 'd'.repeat(501) }],
    });
    expectFailure(longDescription, 400, 10100);
    expect(longDescription.body.errors[0]?.source).toEqual({ pointer: '/1/description' });

    const longRef = await h.call({
      method: 'POST',
      url: filtersPath(Z),
      payload: [{ expression: 'not ssl', ref: 'r'.repeat(51) }],
    });
    expectFailure(longRef, 400, 10100);
    expect(longRef.body.errors[0]?.source).toEqual({ pointer: '/0/ref' });
    expect(await listFilters(h, Z)).toEqual(ok);
  });

  it('counts the limits in characters, not bytes or UTF-16 units', async () => {
    const description = '🙂'.repeat(500);
    const [filter] = await createFilters(h, Z, [{ expression: 'ssl', description }]);
    expect(filter?.description).toBe(description);
  });

  it('refuses a paused that is not a boolean (10100, /0/paused)', async () => {
    const response = await h.call({
      method: 'POST',
      url: filtersPath(Z),
      payload: [{ expression: 'ssl', paused: 'yes' }],
    });
    expectFailure(response, 400, 10100);
    expect(response.body.errors[0]?.source).toEqual({ pointer: '/0/paused' });
  });

  it('refuses an expression another filter of the zone has, or one given twice, with 10102', async () => {
    const existing = await createFilter(h, Z, 'ssl');
    const again = await h.call({ method: 'POST', url: filtersPath(Z), payload: [{ expression: 'ssl' }] });
    expectFailure(again, 400, 10102);
    expect(again.body.errors[0]?.message).toBe(DUPLICATE);

    const twice = await h.call({
      method: 'POST',
      url: filtersPath(Z),
      payload: [{ expression: 'not ssl' }, { expression: 'not ssl' }],
    });
    expectFailure(twice, 400, 10102);
    expect(twice.body.errors[0]?.message).toBe(DUPLICATE);
    expect(await listFilters(h, Z)).toEqual([existing]);

    // Another zone may have the same expression.
    await createFilter(h, ZONES.business, 'ssl');
  });

  it('creates all the filters of a request or none: one bad item and the list is unchanged', async () => {
    const before = await createFilters(h, Z, [{ expression: 'ssl' }]);
    for (const payload of [
      [{ expression: 'not ssl' }, { expression: BAD_IP }],
      [{ expression: 'not ssl' }, 'a string'],
      [{ expression: 'not ssl' }, { expression: 'http.host eq "x"', ref: 'r'.repeat(51) }],
      [{ expression: 'not ssl' }, { expression: 'ssl' }],
    ]) {
      const response = await h.call({ method: 'POST', url: filtersPath(Z), payload });
      expect(response.status).toBe(400);
      expect(response.body.success).toBe(false);
    }
    expect(await listFilters(h, Z)).toEqual(before);
  });

  it('refuses an empty array and a body that is not an array or object (10100)', async () => {
    for (const payload of ['[]', '"ssl"', '42', 'null']) {
      const response = await h.call({
        method: 'POST',
        url: filtersPath(Z),
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expectFailure(response, 400, 10100);
    }
    const none = await h.call({ method: 'POST', url: filtersPath(Z) });
    expectFailure(none, 400, 10100);
    expect(await listFilters(h, Z)).toEqual([]);
  });
});

describe('GET /zones/{zone_id}/filters', () => {
  it('lists in creation order with result_info', async () => {
    const created = await createFilters(h, Z, [{ expression: 'ssl' }, { expression: 'not ssl' }]);
    const { status, body } = await h.call({ url: filtersPath(Z) });
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, errors: [], messages: [] });
    expect(body.result).toEqual(created);
    expect(body.result_info).toEqual({ page: 1, per_page: 25, count: 2, total_count: 2, total_pages: 1 });
  });

  it('answers an empty zone with an empty list', async () => {
    const { status, body } = await h.call({ url: filtersPath(ZONES.free) });
    expect(status).toBe(200);
    expect(body.result).toEqual([]);
    expect(body.result_info).toEqual({ page: 1, per_page: 25, count: 0, total_count: 0, total_pages: 0 });
  });

  it('pages by 25 by default and per_page from 5 to 100; a page past the end is 200 with []', async () => {
    const created = await createFilters(
      h,
      Z,
      Array.from({ length: 31 }, (_, i) => ({ expression: `ip.src eq 10.0.0.${i}` })),
    );
    const first = await h.call({ url: filtersPath(Z) });
    expect(first.body.result).toEqual(created.slice(0, 25));
    expect(first.body.result_info).toEqual({
      page: 1,
      per_page: 25,
      count: 25,
      total_count: 31,
      total_pages: 2,
    });
    const second = await h.call({ url: filtersPath(Z, '?page=2') });
    expect(second.body.result).toEqual(created.slice(25));
    expect(second.body.result_info).toEqual({
      page: 2,
      per_page: 25,
      count: 6,
      total_count: 31,
      total_pages: 2,
    });

    const byFive = [];
    for (let page = 1; page <= 7; page++) {
      const response = await h.call({ url: filtersPath(Z, `?per_page=5&page=${page}`) });
      expect(response.body.result_info).toMatchObject({ page, per_page: 5, total_pages: 7 });
      byFive.push(...response.body.result);
    }
    expect(byFive).toEqual(created);

    const hundred = await h.call({ url: filtersPath(Z, '?per_page=100') });
    expect(hundred.body.result).toEqual(created);

    const past = await h.call({ url: filtersPath(Z, '?page=3') });
    expect(past.status).toBe(200);
    expect(past.body.success).toBe(true);
    expect(past.body.result).toEqual([]);
    expect(past.body.result_info).toMatchObject({ page: 3, count: 0, total_count: 31 });
  });

  it('refuses page and per_page out of range or not integers with 10001 (not clamped)', async () => {
    for (const query of [
      'per_page=4',
      'per_page=101',
      'per_page=0',
      'page=0',
      'page=-1',
      'page=1.5',
      'page=abc',
      'per_page=',
    ]) {
      const response = await h.call({ url: filtersPath(Z, `?${query}`) });
      expectFailure(response, 400, 10001);
    }
  });

  it('filters by id (exact)', async () => {
    const [a, b] = await createFilters(h, Z, [{ expression: 'ssl' }, { expression: 'not ssl' }]);
    const byId = await h.call({ url: filtersPath(Z, `?id=${b?.id}`) });
    expect(byId.body.result).toEqual([b]);
    expect(byId.body.result_info).toMatchObject({ count: 1, total_count: 1 });
    // Only an id can match: anything else is a mistake worth saying (10001), not an empty list.
    expectFailure(await h.call({ url: filtersPath(Z, `?id=${a?.id.slice(0, 10)}`) }), 400, 10001);
    expect((await h.call({ url: filtersPath(Z, `?id=${'f'.repeat(32)}`) })).body.result).toEqual([]);
  });

  it('filters by expression and description (case-insensitive substrings, % and _ literal)', async () => {
    const [admin, api, percent] = await createFilters(h, Z, [
      { expression: 'http.request.uri.path contains "/admin"', description: 'Admin Area' },
      { expression: 'http.request.uri.path contains "/api"', description: 'API gateway' },
      { expression: 'ip.src eq 192.0.2.1', description: '50% of_traffic' },
    ]);
    const ids = async (query: string) =>
      (await h.call({ url: filtersPath(Z, `?${query}`) })).body.result.map((f: FilterJson) => f.id);
    expect(await ids('expression=URI.PATH')).toEqual([admin?.id, api?.id]);
    expect(await ids(`expression=${encodeURIComponent('"/admin"')}`)).toEqual([admin?.id]);
    expect(await ids('description=area')).toEqual([admin?.id]);
    expect(await ids('description=a')).toEqual([admin?.id, api?.id, percent?.id]);
    expect(await ids(`description=${encodeURIComponent('0%')}`)).toEqual([percent?.id]);
    expect(await ids(`description=${encodeURIComponent('%')}&expression=uri`)).toEqual([]);
    expect(await ids('description=f_t')).toEqual([percent?.id]);
    expect(await ids('description=o_t')).toEqual([]);
  });

  it('filters by ref (exact) and paused', async () => {
    const [one, ten, paused] = await createFilters(h, Z, [
      { expression: 'ssl', ref: 'FIL-1' },
      { expression: 'not ssl', ref: 'FIL-10' },
      { expression: 'ip.src eq 192.0.2.1', paused: true },
    ]);
    const ids = async (query: string) =>
      (await h.call({ url: filtersPath(Z, `?${query}`) })).body.result.map((f: FilterJson) => f.id);
    expect(await ids('ref=FIL-1')).toEqual([one?.id]);
    expect(await ids('ref=FIL')).toEqual([]);
    expect(await ids('paused=true')).toEqual([paused?.id]);
    expect(await ids('paused=false')).toEqual([one?.id, ten?.id]);
    expect(await ids('paused=false&ref=FIL-10')).toEqual([ten?.id]);
    expectFailure(await h.call({ url: filtersPath(Z, '?paused=yes') }), 400, 10001);
  });

  it('applies pagination to the filtered list', async () => {
    await createFilters(
      h,
      Z,
      Array.from({ length: 12 }, (_, i) => ({ expression: `ip.src eq 10.0.0.${i}`, paused: i % 2 === 0 })),
    );
    const response = await h.call({ url: filtersPath(Z, '?paused=true&per_page=5&page=2') });
    expect(response.body.result.map((f: FilterJson) => f.expression)).toEqual(['ip.src eq 10.0.0.10']);
    expect(response.body.result_info).toEqual({
      page: 2,
      per_page: 5,
      count: 1,
      total_count: 6,
      total_pages: 2,
    });
  });
});

describe('GET /zones/{zone_id}/filters/{filter_id}', () => {
  it('answers the filter', async () => {
    const filter = await createFilter(h, Z, 'ssl');
    const { status, body } = await h.call({ url: filtersPath(Z, `/${filter.id}`) });
    expect(status).toBe(200);
    expect(body).toEqual({ result: filter, success: true, errors: [], messages: [] });
  });

  it("answers 404 10101 for an unknown id, a malformed one and another zone's filter", async () => {
    const elsewhere = await createFilter(h, ZONES.business, 'ssl');
    for (const id of ['f'.repeat(32), 'not-an-id', elsewhere.id]) {
      expectFailure(await h.call({ url: filtersPath(Z, `/${id}`) }), 404, 10101);
    }
  });
});

describe('PUT /zones/{zone_id}/filters/{filter_id}', () => {
  it('replaces the filter: omitted fields go back to their defaults, created_on stays', async () => {
    const [filter] = await createFilters(h, Z, [
      { expression: 'ssl', description: 'before', ref: 'FIL-1', paused: true },
    ]);
    const { status, body } = await h.call({
      method: 'PUT',
      url: filtersPath(Z, `/${filter?.id}`),
      payload: { expression: 'not ssl' },
    });
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.result).toEqual({
      id: filter?.id,
      expression: 'not ssl',
      paused: false,
      description: '',
      created_on: filter?.created_on,
      modified_on: expect.stringMatching(ISO_TIME),
    });
    expect(body.result.modified_on >= (filter?.modified_on ?? '')).toBe(true);
    expect(await listFilters(h, Z)).toEqual([body.result]);
  });

  it('sets every field given, and accepts the id of the path in the body', async () => {
    const filter = await createFilter(h, Z, 'ssl');
    const { body } = await h.call({
      method: 'PUT',
      url: filtersPath(Z, `/${filter.id}`),
      payload: { id: filter.id, expression: 'ssl', description: 'after', ref: 'FIL-2', paused: true },
    });
    expect(body.result).toMatchObject({
      id: filter.id,
      expression: 'ssl',
      description: 'after',
      ref: 'FIL-2',
      paused: true,
    });
  });

  it('refuses another id in the body, an invalid expression or field, and a duplicate: nothing changes', async () => {
    const [filter, other] = await createFilters(h, Z, [
      { expression: 'ssl', description: 'keep' },
      { expression: 'not ssl' },
    ]);
    const url = filtersPath(Z, `/${filter?.id}`);
    const before = await listFilters(h, Z);

    const wrongId = await h.call({ method: 'PUT', url, payload: { id: other?.id, expression: 'ssl' } });
    expectFailure(wrongId, 400, 10100);
    expect(wrongId.body.errors[0]?.source).toEqual({ pointer: '/id' });

    const badExpression = await h.call({ method: 'PUT', url, payload: { expression: BAD_IP } });
    expectFailure(badExpression, 400, 10100);
    expect(badExpression.body.errors[0]?.message).toContain(BAD_IP_TEXT);
    expect(badExpression.body.errors[0]?.source).toEqual({ pointer: '/expression' });

    const longRef = await h.call({ method: 'PUT', url, payload: { expression: 'ssl', ref: 'r'.repeat(51) } });
    expectFailure(longRef, 400, 10100);
    expect(longRef.body.errors[0]?.source).toEqual({ pointer: '/ref' });

    const duplicate = await h.call({ method: 'PUT', url, payload: { expression: 'not ssl' } });
    expectFailure(duplicate, 400, 10102);
    expect(duplicate.body.errors[0]?.message).toBe(DUPLICATE);

    const array = await h.call({ method: 'PUT', url, payload: [{ expression: 'ssl' }] });
    expectFailure(array, 400, 10100);

    expect(await listFilters(h, Z)).toEqual(before);
  });

  it('applies the plan of the zone', async () => {
    const filter = await createFilter(h, ZONES.pro, 'ssl');
    const response = await h.call({
      method: 'PUT',
      url: filtersPath(ZONES.pro, `/${filter.id}`),
      payload: { expression: 'http.host matches "^a"' },
    });
    expectFailure(response, 400, 10100);
  });

  it('answers 404 10101 for an unknown filter', async () => {
    const response = await h.call({
      method: 'PUT',
      url: filtersPath(Z, `/${'f'.repeat(32)}`),
      payload: { expression: 'ssl' },
    });
    expectFailure(response, 404, 10101);
    expect(await listFilters(h, Z)).toEqual([]);
  });
});

describe('PUT /zones/{zone_id}/filters', () => {
  it('replaces every filter listed (omitted fields reset) and leaves the others', async () => {
    const [a, b, c] = await createFilters(h, Z, [
      { expression: 'ssl', description: 'a', ref: 'A' },
      { expression: 'not ssl', description: 'b', paused: true },
      { expression: 'ip.src eq 192.0.2.1', description: 'c' },
    ]);
    const { status, body } = await h.call({
      method: 'PUT',
      url: filtersPath(Z),
      payload: [
        { id: a?.id, expression: 'ssl and ip.src eq 192.0.2.2' },
        { id: b?.id, expression: 'not ssl', description: 'B', ref: 'B-1' },
      ],
    });
    expect(status).toBe(200);
    expect(body.result).toEqual([
      {
        id: a?.id,
        expression: 'ssl and ip.src eq 192.0.2.2',
        paused: false,
        description: '',
        created_on: a?.created_on,
        modified_on: expect.stringMatching(ISO_TIME),
      },
      {
        id: b?.id,
        expression: 'not ssl',
        paused: false,
        description: 'B',
        ref: 'B-1',
        created_on: b?.created_on,
        modified_on: expect.stringMatching(ISO_TIME),
      },
    ]);
    expect(await listFilters(h, Z)).toEqual([...body.result, c]);
  });

  it('accepts one object', async () => {
    const filter = await createFilter(h, Z, 'ssl');
    const { status, body } = await h.call({
      method: 'PUT',
      url: filtersPath(Z),
      payload: { id: filter.id, expression: 'not ssl' },
    });
    expect(status).toBe(200);
    expect(body.result).toEqual([expect.objectContaining({ id: filter.id, expression: 'not ssl' })]);
  });

  it('is atomic: one bad item (expression, field, unknown id, missing id, duplicate) and nothing changes', async () => {
    const [a, b] = await createFilters(h, Z, [{ expression: 'ssl' }, { expression: 'not ssl' }]);
    const before = await listFilters(h, Z);
    const cases: [unknown[], number, number][] = [
      [
        [
          { id: a?.id, expression: 'http.host eq "x"' },
          { id: b?.id, expression: BAD_IP },
        ],
        400,
        10100,
      ],
      [
        [
          { id: a?.id, expression: 'http.host eq "x"' },
          { id: b?.id, expression: 'not ssl', description: 'd'.repeat(501) },
        ],
        400,
        10100,
      ],
      [
        [
          { id: a?.id, expression: 'http.host eq "x"' },
          { id: 'f'.repeat(32), expression: 'http.host eq "y"' },
        ],
        404,
        10101,
      ],
      [[{ id: a?.id, expression: 'http.host eq "x"' }, { expression: 'http.host eq "y"' }], 400, 10100],
      [
        [
          { id: a?.id, expression: 'http.host eq "x"' },
          { id: b?.id, expression: 'http.host eq "x"' },
        ],
        400,
        10102,
      ],
      [[{ id: a?.id, expression: 'not ssl' }], 400, 10102],
    ];
    for (const [payload, status, code] of cases) {
      expectFailure(await h.call({ method: 'PUT', url: filtersPath(Z), payload }), status, code);
    }
    const bad = await h.call({
      method: 'PUT',
      url: filtersPath(Z),
      payload: [
        { id: a?.id, expression: 'http.host eq "x"' },
        { id: b?.id, expression: BAD_IP },
      ],
    });
    expect(bad.body.errors[0]?.source).toEqual({ pointer: '/1/expression' });
    expect(await listFilters(h, Z)).toEqual(before);
  });
});

describe('DELETE /zones/{zone_id}/filters/{filter_id}', () => {
  it('deletes the filter and answers its id', async () => {
    const [a, b] = await createFilters(h, Z, [{ expression: 'ssl' }, { expression: 'not ssl' }]);
    const { status, body } = await h.call({ method: 'DELETE', url: filtersPath(Z, `/${a?.id}`) });
    expect(status).toBe(200);
    expect(body).toEqual({ result: { id: a?.id }, success: true, errors: [], messages: [] });
    expect(await listFilters(h, Z)).toEqual([b]);
    expectFailure(await h.call({ url: filtersPath(Z, `/${a?.id}`) }), 404, 10101);
    // Its expression is free again.
    await createFilter(h, Z, 'ssl');
  });

  it('answers 404 10101 for an unknown filter', async () => {
    expectFailure(await h.call({ method: 'DELETE', url: filtersPath(Z, `/${'f'.repeat(32)}`) }), 404, 10101);
  });

  it('refuses to delete a filter a rule uses (10103)', async () => {
    const filter = await createFilter(h, Z, 'ssl');
    await createRule(h, Z, { action: 'block', filter: { id: filter.id } });
    expectFailure(await h.call({ method: 'DELETE', url: filtersPath(Z, `/${filter.id}`) }), 400, 10103);
    expect(await listFilters(h, Z)).toEqual([filter]);
  });
});

describe('DELETE /zones/{zone_id}/filters', () => {
  it('deletes the filters named by repeated ?id= and ignores unknown ids', async () => {
    const [a, b, c] = await createFilters(h, Z, [
      { expression: 'ssl' },
      { expression: 'not ssl' },
      { expression: 'ip.src eq 192.0.2.1' },
    ]);
    const { status, body } = await h.call({
      method: 'DELETE',
      url: filtersPath(Z, idQuery([a?.id ?? '', 'f'.repeat(32), 'not-an-id', c?.id ?? ''])),
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, errors: [], messages: [] });
    expect(body.result).toEqual([{ id: a?.id }, { id: c?.id }]);
    expect(await listFilters(h, Z)).toEqual([b]);
  });

  it('takes the ids from a body [{ id }] too', async () => {
    const [a, b] = await createFilters(h, Z, [{ expression: 'ssl' }, { expression: 'not ssl' }]);
    const { status, body } = await h.call({
      method: 'DELETE',
      url: filtersPath(Z),
      payload: [{ id: b?.id }],
    });
    expect(status).toBe(200);
    expect(body.result).toEqual([{ id: b?.id }]);
    expect(await listFilters(h, Z)).toEqual([a]);
  });

  it('answers [] when no id names a filter, and when the request names none (deleting nothing)', async () => {
    const filter = await createFilter(h, Z, 'ssl');
    const unknown = await h.call({ method: 'DELETE', url: filtersPath(Z, idQuery(['f'.repeat(32)])) });
    expect(unknown.status).toBe(200);
    expect(unknown.body.result).toEqual([]);
    const none = await h.call({ method: 'DELETE', url: filtersPath(Z) });
    expect(none.status).toBe(200);
    expect(none.body.result).toEqual([]);
    expect(await listFilters(h, Z)).toEqual([filter]);
  });

  it('does not delete filters of another zone', async () => {
    const elsewhere = await createFilter(h, ZONES.business, 'ssl');
    const response = await h.call({ method: 'DELETE', url: filtersPath(Z, idQuery([elsewhere.id])) });
    expect(response.body.result).toEqual([]);
    expect(await listFilters(h, ZONES.business)).toEqual([elsewhere]);
  });

  it('refuses (10103) and deletes nothing when one of the filters is used by a rule', async () => {
    const [free, used] = await createFilters(h, Z, [{ expression: 'ssl' }, { expression: 'not ssl' }]);
    await createRule(h, Z, { action: 'block', filter: { id: used?.id } });
    const response = await h.call({
      method: 'DELETE',
      url: filtersPath(Z, idQuery([free?.id ?? '', used?.id ?? ''])),
    });
    expectFailure(response, 400, 10103);
    expect(await listFilters(h, Z)).toEqual([free, used]);
  });
});

describe('filters created together with their rule', () => {
  it('cannot be replaced or deleted through the Filters API (400, 10104), and nothing changes', async () => {
    const rule = await createRule(h, Z, { action: 'block', filter: { expression: 'ssl' } });
    const filterId = rule.filter.id;
    const before = await snapshot(h, Z);
    const responses = [
      await h.call({
        method: 'PUT',
        url: filtersPath(Z, `/${filterId}`),
        payload: { expression: 'not ssl' },
      }),
      await h.call({
        method: 'PUT',
        url: filtersPath(Z),
        payload: [{ id: filterId, expression: 'not ssl' }],
      }),
      await h.call({ method: 'DELETE', url: filtersPath(Z, `/${filterId}`) }),
      await h.call({ method: 'DELETE', url: filtersPath(Z, idQuery([filterId])) }),
    ];
    expect(await snapshot(h, Z)).toEqual(before);
    for (const response of responses) {
      expect(response.body.success).toBe(false);
      expect(response.body.errors.map((e) => e.code)).toEqual([10104]);
    }
    // docs/api.md §8: 10104 is a 400.
    expect(responses.map((r) => r.status)).toEqual([400, 400, 400, 400]);
  });
});

describe('credentials on writes', () => {
  /** Every write of the Filters API, on the zone given, against the filter given. */
  const writes = (zone: string, filterId: string) => [
    { method: 'POST' as const, url: filtersPath(zone), payload: [{ expression: 'http.host eq "new"' }] },
    {
      method: 'PUT' as const,
      url: filtersPath(zone),
      payload: [{ id: filterId, expression: 'http.host eq "replaced"' }],
    },
    { method: 'DELETE' as const, url: filtersPath(zone, idQuery([filterId])) },
    {
      method: 'PUT' as const,
      url: filtersPath(zone, `/${filterId}`),
      payload: { expression: 'http.host eq "new"' },
    },
    { method: 'DELETE' as const, url: filtersPath(zone, `/${filterId}`) },
  ];

  it.each([
    ['a read-only token', READ_TOKEN, ZONES.enterprise],
    ['a token scoped to another zone', SCOPED_TOKEN, ZONES.business],
    ["another account's token", OTHER_TOKEN, ZONES.enterprise],
  ])('refuses %s with 403 10000 and changes nothing', async (_name, token, zone) => {
    const filter = await createFilter(h, zone, 'ssl');
    const before = await listFilters(h, zone);
    for (const request of writes(zone, filter.id)) {
      const response = await h.call({ ...request, token });
      expectFailure(response, 403, 10000);
      expect(response.body.errors[0]?.message).toBe('Authentication error');
    }
    expect(await listFilters(h, zone)).toEqual(before);
  });

  it('lets a read-only token read, and a scoped token write to its own zone', async () => {
    const filter = await createFilter(h, Z, 'ssl');
    expect((await h.call({ url: filtersPath(Z), token: READ_TOKEN })).body.result).toEqual([filter]);
    expect((await h.call({ url: filtersPath(Z, `/${filter.id}`), token: READ_TOKEN })).status).toBe(200);
    const [post, putMany, deleteMany, putOne, deleteOne] = writes(Z, filter.id);
    const created = await h.call({ ...post, token: SCOPED_TOKEN });
    expect(created.status).toBe(200);
    expect((await h.call({ ...putMany, token: SCOPED_TOKEN })).status).toBe(200);
    const other = created.body.result[0].id;
    const replaced = await h.call({
      ...putOne,
      url: filtersPath(Z, `/${other}`),
      payload: { expression: 'not ssl' },
      token: SCOPED_TOKEN,
    });
    expect(replaced.status).toBe(200);
    expect((await h.call({ ...deleteOne, token: SCOPED_TOKEN })).body.result).toEqual({ id: filter.id });
    const deleted = await h.call({
      ...deleteMany,
      url: filtersPath(Z, idQuery([other])),
      token: SCOPED_TOKEN,
    });
    expect(deleted.body.result).toEqual([{ id: other }]);
    expect(await listFilters(h, Z)).toEqual([]);
  });

  it("refuses reads of another account's zone (403 10000)", async () => {
    expectFailure(await h.call({ url: filtersPath(ZONES.other) }), 403, 10000);
  });
});

describe('/filters/validate-expr', () => {
  it('answers result null for a valid expression, by GET and by POST', async () => {
    const get = await h.call({
      url: `/client/v4/filters/validate-expr?expression=${encodeURIComponent('ip.src eq 192.0.2.1')}`,
    });
    expect(get.status).toBe(200);
    expect(get.body).toEqual({ result: null, success: true, errors: [], messages: [] });
    const post = await h.call({
      method: 'POST',
      url: '/client/v4/filters/validate-expr',
      payload: { expression: 'ssl' },
    });
    expect(post.status).toBe(200);
    expect(post.body).toEqual({ result: null, success: true, errors: [], messages: [] });
  });

  it("answers an invalid expression with 400 and Cloudflare's backtick form", async () => {
    const expected =
      "Filter parsing error:\n`ip.src==34`\n          ^^ couldn't parse address in network: invalid IP address syntax";
    const get = await h.call({
      url: `/client/v4/filters/validate-expr?expression=${encodeURIComponent('ip.src==34')}`,
    });
    expectFailure(get, 400, 10100);
    expect(get.body.errors[0]?.message.startsWith(expected)).toBe(true);
    const post = await h.call({
      method: 'POST',
      url: '/client/v4/filters/validate-expr',
      payload: { expression: BAD_IP },
    });
    expectFailure(post, 400, 10100);
    expect(post.body.errors[0]?.message).toMatch(/^Filter parsing error:\n`ip\.src eq 1\.2\.3`\n +\^+ /);
    expect(post.body.errors[0]?.message).toContain(BAD_IP_TEXT);
  });

  it('checks as for an Enterprise zone: matches is accepted', async () => {
    const response = await h.call({
      method: 'POST',
      url: '/client/v4/filters/validate-expr',
      payload: { expression: 'http.request.uri.path matches "^/admin"' },
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
  });

  it('refuses a missing expression with 400 and needs credentials', async () => {
    expectFailure(
      await h.call({ method: 'POST', url: '/client/v4/filters/validate-expr', payload: {} }),
      400,
      10100,
    );
    expectFailure(await h.call({ url: '/client/v4/filters/validate-expr' }), 400, 10100);
    const anonymous = await h.call({ url: '/client/v4/filters/validate-expr?expression=ssl', auth: false });
    expectFailure(anonymous, 400, 9106);
  });

  it('refuses a lone surrogate as filter creation does, and creates nothing', async () => {
    const payload = { expression: 'http.host eq "\ud800"' };
    const validated = await h.call({ method: 'POST', url: '/client/v4/filters/validate-expr', payload });
    const created = await h.call({ method: 'POST', url: filtersPath(Z), payload });
    expectFailure(validated, 400, 10100);
    expect(validated.body.errors).toEqual([
      {
        code: 10100,
        message: 'expression must be valid Unicode text (it has a lone surrogate)',
        source: { pointer: '/expression' },
      },
    ]);
    expect(created.body.errors).toEqual(validated.body.errors);
    expect(await listFilters(h, Z)).toEqual([]);
  });

  it('refuses U+0000 in what it would store or search for, on either database, and stores nothing', async () => {
    const described = await h.call({
      method: 'POST',
      url: filtersPath(Z),
      payload: { expression: 'http.host eq "a"', description: 'a\u0000b' },
    });
    expectFailure(described, 400, 10100);
    expect(described.body.errors).toEqual([
      {
        code: 10100,
        message: 'description must not contain the NUL character (U+0000)',
        source: { pointer: '/description' },
      },
    ]);
    const quoted = await h.call({
      method: 'POST',
      url: filtersPath(Z),
      payload: { expression: 'http.host eq "\u0000"' },
    });
    expectFailure(quoted, 400, 10100);
    expect(await listFilters(h, Z)).toEqual([]);
    const search = await h.call({ url: `${filtersPath(Z)}?description=%00` });
    expectFailure(search, 400, 10001);
    expect(search.body.errors[0]?.message).toBe('description must not contain the NUL character (U+0000)');
  });

  it('GET checks the decoded expression: its carets point into the text, not the %20s', async () => {
    const expression = 'http.host eq "é" and nope';
    const query = `expression=${encodeURIComponent(expression)}`;
    expect(query).toContain('%20');
    const get = await h.call({ url: `/client/v4/filters/validate-expr?${query}` });
    const post = await h.call({
      method: 'POST',
      url: '/client/v4/filters/validate-expr',
      payload: { expression },
    });
    expectFailure(get, 400, 10100);
    expect(get.body.errors[0]?.message).toBe(
      `Filter parsing error:\n\`${expression}\`\n${' '.repeat(22 + 2)}^^^^ unknown identifier\n`,
    );
    expect(get.body.errors[0]?.message).toBe(post.body.errors[0]?.message);
  });

  it('GET refuses a value whose percent-encoding is malformed, saying where', async () => {
    const malformed = await h.call({
      url: '/client/v4/filters/validate-expr?expression=http.host%20eq%20%22a%zz%22',
    });
    expectFailure(malformed, 400, 10100);
    expect(malformed.body.errors[0]?.message).toBe(
      'expression is not valid percent-encoding: "%zz" at character 22 of the query value is not "%" and two hexadecimal digits (send "%" itself as %25)',
    );
    // A surrogate in UTF-8 form is not UTF-8: the GET form cannot send a lone surrogate either.
    const surrogate = await h.call({
      url: '/client/v4/filters/validate-expr?expression=http.host%20eq%20%22%ED%A0%80%22',
    });
    expectFailure(surrogate, 400, 10100);
    expect(surrogate.body.errors[0]?.message).toBe(
      'expression is not valid percent-encoding: "%ED%A0%80" at character 21 of the query value is not UTF-8',
    );
  });

  it('stores nothing', async () => {
    await h.call({ method: 'POST', url: '/client/v4/filters/validate-expr', payload: { expression: 'ssl' } });
    expect(await listFilters(h, Z)).toEqual([]);
    expect((await h.call({ url: rulesPath(Z) })).body.result).toEqual([]);
  });
});
