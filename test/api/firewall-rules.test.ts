// The Firewall Rules API (docs/api.md §6), single-call creation (§6.3) and quotas (§6.1), through
// fastify.inject.
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
  createRule,
  createRules,
  expectFailure,
  filtersPath,
  ID,
  ISO_TIME,
  idQuery,
  listFilters,
  listRules,
  type RuleJson,
  rulesPath,
  snapshot,
} from './requests.js';

let h: Harness;
freshHarnessPerTest((fresh) => {
  h = fresh;
});

const Z = ZONES.enterprise;

/** Creates the free zone's five rules (its whole quota); the rules. */
const fillFreeZone = () =>
  createRules(
    h,
    ZONES.free,
    Array.from({ length: 5 }, (_, i) => ({
      action: 'block',
      filter: { expression: `ip.src eq 10.0.0.${i}` },
    })),
  );
const BAD_IP = 'ip.src eq 1.2.3';
const BAD_IP_TEXT = "couldn't parse address in network: invalid IP address syntax";
const MAX_PRIORITY = 2_147_483_647;

describe('POST /zones/{zone_id}/firewall/rules', () => {
  it('creates a rule on an existing filter, in the envelope, with defaults and its filter', async () => {
    const filter = await createFilter(h, Z, 'ssl');
    const { status, body } = await h.call({
      method: 'POST',
      url: rulesPath(Z),
      payload: [{ action: 'block', filter: { id: filter.id } }],
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, errors: [], messages: [] });
    expect(body.result).toEqual([
      {
        id: expect.stringMatching(ID),
        paused: false,
        description: '',
        action: 'block',
        priority: null,
        filter,
        created_on: expect.stringMatching(ISO_TIME),
        modified_on: expect.stringMatching(ISO_TIME),
      },
    ]);
    expect(await listRules(h, Z)).toEqual(body.result);
  });

  it('creates a rule with an inline filter: both exist and refer to each other', async () => {
    const { status, body } = await h.call({
      method: 'POST',
      url: rulesPath(Z),
      payload: [
        {
          action: 'challenge',
          description: 'admin',
          ref: 'RULE-1',
          priority: 10,
          paused: true,
          filter: {
            expression: 'http.request.uri.path contains "/admin"',
            description: 'admin area',
            ref: 'FIL-1',
          },
        },
      ],
    });
    expect(status).toBe(200);
    const [rule] = body.result as RuleJson[];
    expect(rule).toMatchObject({
      action: 'challenge',
      description: 'admin',
      ref: 'RULE-1',
      priority: 10,
      paused: true,
      filter: {
        id: expect.stringMatching(ID),
        expression: 'http.request.uri.path contains "/admin"',
        description: 'admin area',
        ref: 'FIL-1',
        paused: false,
      },
    });
    expect(await listFilters(h, Z)).toEqual([rule?.filter]);
    expect(await listRules(h, Z)).toEqual([rule]);
  });

  it('accepts one object (as the official SDK sends) and answers an array', async () => {
    const { status, body } = await h.call({
      method: 'POST',
      url: rulesPath(Z),
      payload: { action: 'allow', filter: { expression: 'ssl' } },
    });
    expect(status).toBe(200);
    expect(Array.isArray(body.result)).toBe(true);
    expect(body.result).toEqual([expect.objectContaining({ action: 'allow' })]);
  });

  it('creates several rules at once, mixing filters by id and inline, in order', async () => {
    const filter = await createFilter(h, Z, 'ssl');
    const rules = await createRules(h, Z, [
      { action: 'block', filter: { id: filter.id } },
      { action: 'allow', filter: { expression: 'not ssl' } },
      { action: 'js_challenge', filter: { id: filter.id } },
    ]);
    expect(rules.map((r) => r.action)).toEqual(['block', 'allow', 'js_challenge']);
    expect(rules[0]?.filter.id).toBe(filter.id);
    expect(rules[2]?.filter.id).toBe(filter.id);
    expect((await listRules(h, Z)).map((r) => r.id)).toEqual(rules.map((r) => r.id));
    expect((await listFilters(h, Z)).map((f) => f.expression)).toEqual(['ssl', 'not ssl']);
  });

  it.each(['block', 'challenge', 'js_challenge', 'managed_challenge', 'allow', 'log'])(
    'accepts the action %s on an Enterprise zone',
    async (action) => {
      const rule = await createRule(h, Z, { action, filter: { expression: 'ssl' } });
      expect(rule.action).toBe(action);
      expect(rule).not.toHaveProperty('products');
      expect(rule).not.toHaveProperty('ref');
    },
  );

  it('accepts bypass with products, and answers the products', async () => {
    const rule = await createRule(h, Z, {
      action: 'bypass',
      products: ['zoneLockdown', 'uaBlock', 'bic', 'hot', 'securityLevel', 'rateLimit', 'waf'],
      filter: { expression: 'ssl' },
    });
    expect(rule).toMatchObject({
      action: 'bypass',
      products: ['zoneLockdown', 'uaBlock', 'bic', 'hot', 'securityLevel', 'rateLimit', 'waf'],
    });
  });

  it('refuses an unknown or missing action (10200, /0/action)', async () => {
    for (const item of [{ action: 'drop' }, {}, { action: 'BLOCK' }, { action: 1 }]) {
      const response = await h.call({
        method: 'POST',
        url: rulesPath(Z),
        payload: [{ ...item, filter: { expression: 'ssl' } }],
      });
      expectFailure(response, 400, 10200);
      expect(response.body.errors[0]?.source).toEqual({ pointer: '/0/action' });
    }
    expect(await snapshot(h, Z)).toEqual({ filters: [], rules: [] });
  });

  it('refuses log below Enterprise with 10204, and creates nothing', async () => {
    for (const zone of [ZONES.business, ZONES.pro, ZONES.free]) {
      const response = await h.call({
        method: 'POST',
        url: rulesPath(zone),
        payload: [{ action: 'log', filter: { expression: 'ssl' } }],
      });
      expectFailure(response, 400, 10204);
      expect(response.body.errors[0]?.source).toEqual({ pointer: '/0/action' });
      expect(await snapshot(h, zone)).toEqual({ filters: [], rules: [] });
    }
  });

  it('requires products with bypass and refuses them with any other action (10200, /0/products)', async () => {
    const cases = [
      { action: 'bypass' },
      { action: 'bypass', products: [] },
      { action: 'bypass', products: ['everything'] },
      { action: 'bypass', products: ['waf', 'waf'] },
      { action: 'block', products: ['waf'] },
    ];
    for (const item of cases) {
      const response = await h.call({
        method: 'POST',
        url: rulesPath(Z),
        payload: [{ ...item, filter: { expression: 'ssl' } }],
      });
      expectFailure(response, 400, 10200);
      expect(response.body.errors[0]?.source?.pointer).toMatch(/^\/0\/products/);
    }
    expect(await snapshot(h, Z)).toEqual({ filters: [], rules: [] });
  });

  it('takes priorities from 0 to 2147483647 or null, and refuses others (10200, /0/priority)', async () => {
    const [low, high, none] = await createRules(h, Z, [
      { action: 'block', priority: 0, filter: { expression: 'ssl' } },
      { action: 'block', priority: MAX_PRIORITY, filter: { expression: 'not ssl' } },
      { action: 'block', priority: null, filter: { expression: 'ip.src eq 192.0.2.1' } },
    ]);
    expect([low?.priority, high?.priority, none?.priority]).toEqual([0, MAX_PRIORITY, null]);
    const before = await snapshot(h, Z);
    for (const priority of ['-1', '2147483648', '1.5', '"1"', 'true', '1e400', '[]']) {
      const response = await h.call({
        method: 'POST',
        url: rulesPath(Z),
        headers: { 'content-type': 'application/json' },
        payload: `[{"action":"block","priority":${priority},"filter":{"expression":"http.host eq \\"x\\""}}]`,
      });
      expectFailure(response, 400, 10200);
      expect(response.body.errors[0]?.source).toEqual({ pointer: '/0/priority' });
    }
    expect(await snapshot(h, Z)).toEqual(before);
  });

  it('limits description to 500 characters and ref to 50 (10200, with the pointer)', async () => {
    const ok = await createRule(h, Z, {
      action: 'block',
      description: 'd'.repeat(500),
      ref: 'r'.repeat(50),
      filter: { expression: 'ssl' },
    });
    expect(ok).toMatchObject({ description: 'd'.repeat(500), ref: 'r'.repeat(50) });
    const before = await snapshot(h, Z);
    const invalid = { description: 'd'.repeat(501), ref: 'r'.repeat(51), paused: 'no' };
    for (const [field, value] of Object.entries(invalid)) {
      const response = await h.call({
        method: 'POST',
        url: rulesPath(Z),
        payload: [{ action: 'block', [field]: value, filter: { expression: 'not ssl' } }],
      });
      expectFailure(response, 400, 10200);
      expect(response.body.errors[0]?.source).toEqual({ pointer: `/0/${field}` });
    }
    expect(await snapshot(h, Z)).toEqual(before);
  });

  it('refuses a missing filter, or the id of no filter of the zone (10200)', async () => {
    const elsewhere = await createFilter(h, ZONES.business, 'ssl');
    for (const filter of [undefined, { id: 'f'.repeat(32) }, { id: 'nope' }, { id: elsewhere.id }, 'ssl']) {
      const response = await h.call({
        method: 'POST',
        url: rulesPath(Z),
        payload: [{ action: 'block', filter }],
      });
      expect(response.status).toBe(400);
      expect(response.body.success).toBe(false);
      expect(response.body.errors[0]?.source?.pointer).toMatch(/^\/0\/filter/);
    }
    expect(await snapshot(h, Z)).toEqual({ filters: [], rules: [] });
  });

  it("checks inline filters with the zone's plan: matches refused on Pro (10202), accepted on Business", async () => {
    const expression = 'http.request.uri.path matches "^/admin"';
    const pro = await h.call({
      method: 'POST',
      url: rulesPath(ZONES.pro),
      payload: [{ action: 'block', filter: { expression } }],
    });
    expectFailure(pro, 400, 10202);
    expect(pro.body.errors[0]?.message).toMatch(/^filter at index 0: Filter parsing error \(1:\d+\):\n/);
    await createRule(h, ZONES.business, { action: 'block', filter: { expression } });
  });
});

describe('single-call creation: the outcomes of docs/api.md §6.3', () => {
  it('(1) an invalid inline filter: neither filters nor rules are created (10202, filter at index N)', async () => {
    const before = await snapshot(h, Z);
    const response = await h.call({
      method: 'POST',
      url: rulesPath(Z),
      payload: [
        { action: 'block', filter: { expression: 'ssl' } },
        { action: 'block', filter: { expression: BAD_IP } },
      ],
    });
    expectFailure(response, 400, 10202);
    const [error] = response.body.errors;
    expect(error?.message).toMatch(/^filter at index 1: Filter parsing error \(1:11\):\n/);
    expect(error?.message).toContain(BAD_IP_TEXT);
    expect(error?.source).toEqual({ pointer: '/1/filter/expression' });
    expect(await snapshot(h, Z)).toEqual(before);
  });

  it('(1) an inline filter with a duplicate expression (stored or in the request) is 10202', async () => {
    const existing = await createFilter(h, Z, 'ssl');
    const before = await snapshot(h, Z);
    const stored = await h.call({
      method: 'POST',
      url: rulesPath(Z),
      payload: [
        { action: 'block', filter: { expression: 'not ssl' } },
        { action: 'block', filter: { expression: 'ssl' } },
      ],
    });
    expectFailure(stored, 400, 10202);
    expect(stored.body.errors[0]?.message).toBe(
      'filter at index 1: config duplicates an already existing config',
    );
    const twice = await h.call({
      method: 'POST',
      url: rulesPath(Z),
      payload: [
        { action: 'block', filter: { expression: 'not ssl' } },
        { action: 'allow', filter: { expression: 'not ssl' } },
      ],
    });
    expectFailure(twice, 400, 10202);
    expect(twice.body.errors[0]?.message).toMatch(/^filter at index 1: /);
    expect(await snapshot(h, Z)).toEqual(before);
    expect(before.filters).toEqual([existing]);
  });

  it('(1) an inline filter with a bad field is 10202 with its pointer', async () => {
    const response = await h.call({
      method: 'POST',
      url: rulesPath(Z),
      payload: [{ action: 'block', filter: { expression: 'ssl', ref: 'r'.repeat(51) } }],
    });
    expectFailure(response, 400, 10202);
    expect(response.body.errors[0]?.message).toMatch(/^filter at index 0: /);
    expect(response.body.errors[0]?.source).toEqual({ pointer: '/0/filter/ref' });
    expect(await snapshot(h, Z)).toEqual({ filters: [], rules: [] });
  });

  it('(1) an invalid rule beside valid inline filters: nothing is created', async () => {
    const response = await h.call({
      method: 'POST',
      url: rulesPath(Z),
      payload: [
        { action: 'block', filter: { expression: 'ssl' } },
        { action: 'drop', filter: { expression: 'not ssl' } },
      ],
    });
    expectFailure(response, 400, 10200);
    expect(response.body.errors[0]?.source).toEqual({ pointer: '/1/action' });
    expect(await snapshot(h, Z)).toEqual({ filters: [], rules: [] });
  });

  it('(1) an invalid item wins over an exceeded quota: nothing is created', async () => {
    await fillFreeZone();
    const before = await snapshot(h, ZONES.free);
    const response = await h.call({
      method: 'POST',
      url: rulesPath(ZONES.free),
      payload: [
        { action: 'block', filter: { expression: 'ssl' } },
        { action: 'block', filter: { expression: BAD_IP } },
      ],
    });
    expectFailure(response, 400, 10202);
    expect(await snapshot(h, ZONES.free)).toEqual(before);
  });

  it('(2) over the quota (Free: 5 rules): the inline filters are created and named, the rules are not', async () => {
    const five = await fillFreeZone();
    expect(five).toHaveLength(5);
    // Room for one rule; the request adds two.
    expect((await h.call({ method: 'DELETE', url: rulesPath(ZONES.free, `/${five[0]?.id}`) })).status).toBe(
      200,
    );
    const before = await snapshot(h, ZONES.free);

    const response = await h.call({
      method: 'POST',
      url: rulesPath(ZONES.free),
      payload: [
        { action: 'block', filter: { expression: 'http.host eq "fifth.example"', description: 'fifth' } },
        { action: 'block', filter: { expression: 'http.host eq "sixth.example"', description: 'sixth' } },
      ],
    });
    expectFailure(response, 400, 10203);
    const message = response.body.errors[0]?.message ?? '';
    expect(message).toMatch(/\b5\b/);

    const after = await snapshot(h, ZONES.free);
    expect(after.rules).toEqual(before.rules);
    expect(after.filters.slice(0, before.filters.length)).toEqual(before.filters);
    expect(after.filters).toHaveLength(before.filters.length + 2);
    const created = after.filters.at(-1);
    expect(created).toMatchObject({ expression: 'http.host eq "sixth.example"', description: 'sixth' });
    expect(created?.id).toMatch(ID);
    expect(message).toContain(created?.id);

    // The two-call flow carries on with that filter.
    const rule = await createRule(h, ZONES.free, { action: 'block', filter: { id: created?.id } });
    expect(rule.filter).toEqual(created);
  });

  it('over a quota already used up, creates nothing: not even the inline filters', async () => {
    await fillFreeZone();
    const before = await snapshot(h, ZONES.free);
    const response = await h.call({
      method: 'POST',
      url: rulesPath(ZONES.free),
      payload: [{ action: 'block', filter: { expression: 'http.host eq "sixth.example"' } }],
    });
    expectFailure(response, 400, 10203);
    expect(response.body.errors[0]?.message).toContain('nothing was created');
    expect(await snapshot(h, ZONES.free)).toEqual(before);
  });

  it('(2) over the quota with several inline filters: each is created and named', async () => {
    await createRules(
      h,
      ZONES.free,
      Array.from({ length: 4 }, (_, i) => ({
        action: 'block',
        filter: { expression: `ip.src eq 10.0.0.${i}` },
      })),
    );
    const existing = await createFilter(h, ZONES.free, 'ssl');
    const response = await h.call({
      method: 'POST',
      url: rulesPath(ZONES.free),
      payload: [
        { action: 'block', filter: { expression: 'http.host eq "a"' } },
        { action: 'block', filter: { id: existing.id } },
        { action: 'block', filter: { expression: 'http.host eq "b"' } },
      ],
    });
    expectFailure(response, 400, 10203);
    const { filters, rules } = await snapshot(h, ZONES.free);
    expect(rules).toHaveLength(4);
    const a = filters.find((f) => f.expression === 'http.host eq "a"');
    const b = filters.find((f) => f.expression === 'http.host eq "b"');
    expect(response.body.errors[0]?.message).toContain(a?.id);
    expect(response.body.errors[0]?.message).toContain(b?.id);
  });

  it('(2) over the quota with filters only by id: nothing is created', async () => {
    const rules = await fillFreeZone();
    const before = await snapshot(h, ZONES.free);
    const response = await h.call({
      method: 'POST',
      url: rulesPath(ZONES.free),
      payload: [{ action: 'allow', filter: { id: rules[0]?.filter.id } }],
    });
    expectFailure(response, 400, 10203);
    expect(await snapshot(h, ZONES.free)).toEqual(before);
  });

  it('(3) a filter created with its rule cannot be replaced or deleted alone (10104)', async () => {
    const rule = await createRule(h, Z, { action: 'block', filter: { expression: 'ssl' } });
    const before = await snapshot(h, Z);
    const put = await h.call({
      method: 'PUT',
      url: filtersPath(Z, `/${rule.filter.id}`),
      payload: { expression: 'not ssl' },
    });
    const remove = await h.call({ method: 'DELETE', url: filtersPath(Z, `/${rule.filter.id}`) });
    expect(await snapshot(h, Z)).toEqual(before);
    expect([put, remove].map((r) => [r.body.success, r.body.errors.map((e) => e.code)])).toEqual([
      [false, [10104]],
      [false, [10104]],
    ]);
    // docs/api.md §8: 10104 is a 400.
    expect([put.status, remove.status]).toEqual([400, 400]);
  });

  it('(3) deleting the rule with delete_filter_if_unused removes both', async () => {
    const rule = await createRule(h, Z, { action: 'block', filter: { expression: 'ssl' } });
    const { status, body } = await h.call({
      method: 'DELETE',
      url: rulesPath(Z, `/${rule.id}`),
      payload: { delete_filter_if_unused: true },
    });
    expect(status).toBe(200);
    expect(body.result).toEqual({ ...rule, filter: { id: rule.filter.id, deleted: true } });
    expect(await snapshot(h, Z)).toEqual({ filters: [], rules: [] });
  });

  it('(3) deleting the rule without the flag leaves an ordinary filter, which can then be changed and deleted', async () => {
    const rule = await createRule(h, Z, { action: 'block', filter: { expression: 'ssl' } });
    const deleted = await h.call({ method: 'DELETE', url: rulesPath(Z, `/${rule.id}`) });
    expect(deleted.status).toBe(200);
    expect(deleted.body.result).toEqual(rule);
    expect(await listRules(h, Z)).toEqual([]);
    expect(await listFilters(h, Z)).toEqual([rule.filter]);

    const put = await h.call({
      method: 'PUT',
      url: filtersPath(Z, `/${rule.filter.id}`),
      payload: { expression: 'not ssl' },
    });
    expect(put.status).toBe(200);
    const removed = await h.call({ method: 'DELETE', url: filtersPath(Z, `/${rule.filter.id}`) });
    expect(removed.status).toBe(200);
    expect(removed.body.result).toEqual({ id: rule.filter.id });
    expect(await listFilters(h, Z)).toEqual([]);
  });
});

describe('GET /zones/{zone_id}/firewall/rules', () => {
  it('lists in creation order with result_info', async () => {
    const rules = await createRules(h, Z, [
      { action: 'block', filter: { expression: 'ssl' } },
      { action: 'allow', filter: { expression: 'not ssl' } },
    ]);
    const { status, body } = await h.call({ url: rulesPath(Z) });
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, errors: [], messages: [] });
    expect(body.result).toEqual(rules);
    expect(body.result_info).toEqual({ page: 1, per_page: 25, count: 2, total_count: 2, total_pages: 1 });
  });

  it('pages by 25 by default and per_page from 5 to 100; a page past the end is 200 with []', async () => {
    const rules = await createRules(
      h,
      Z,
      Array.from({ length: 27 }, (_, i) => ({
        action: 'block',
        filter: { expression: `ip.src eq 10.0.0.${i}` },
      })),
    );
    const first = await h.call({ url: rulesPath(Z) });
    expect(first.body.result).toEqual(rules.slice(0, 25));
    expect(first.body.result_info).toEqual({
      page: 1,
      per_page: 25,
      count: 25,
      total_count: 27,
      total_pages: 2,
    });
    const five = await h.call({ url: rulesPath(Z, '?per_page=5&page=6') });
    expect(five.body.result).toEqual(rules.slice(25));
    expect(five.body.result_info).toEqual({
      page: 6,
      per_page: 5,
      count: 2,
      total_count: 27,
      total_pages: 6,
    });
    expect((await h.call({ url: rulesPath(Z, '?per_page=100') })).body.result).toEqual(rules);
    const past = await h.call({ url: rulesPath(Z, '?page=2&per_page=100') });
    expect(past.status).toBe(200);
    expect(past.body.result).toEqual([]);
    for (const query of ['per_page=4', 'per_page=101', 'page=0', 'page=x']) {
      expectFailure(await h.call({ url: rulesPath(Z, `?${query}`) }), 400, 10001);
    }
  });

  it('filters by id, action (exact), description (case-insensitive substring) and paused', async () => {
    const [a, b, c] = await createRules(h, Z, [
      { action: 'block', description: 'Block the Admin area', filter: { expression: 'ssl' } },
      { action: 'allow', description: 'allow partners', paused: true, filter: { expression: 'not ssl' } },
      { action: 'block', description: 'block bots', filter: { expression: 'ip.src eq 192.0.2.1' } },
    ]);
    const ids = async (query: string) =>
      (await h.call({ url: rulesPath(Z, `?${query}`) })).body.result.map((r: RuleJson) => r.id);
    expect(await ids(`id=${b?.id}`)).toEqual([b?.id]);
    expect(await ids(`id=${'f'.repeat(32)}`)).toEqual([]);
    expect(await ids('action=block')).toEqual([a?.id, c?.id]);
    expect(await ids('action=BLOCK')).toEqual([]);
    expect(await ids('action=challenge')).toEqual([]);
    expect(await ids('description=BLOCK')).toEqual([a?.id, c?.id]);
    expect(await ids('description=admin')).toEqual([a?.id]);
    expect(await ids('paused=true')).toEqual([b?.id]);
    expect(await ids('paused=false&action=block&description=bots')).toEqual([c?.id]);
    expectFailure(await h.call({ url: rulesPath(Z, '?paused=1') }), 400, 10001);
  });
});

describe('GET /zones/{zone_id}/firewall/rules/{rule_id}', () => {
  it('answers the rule, and 404 10201 for an unknown one', async () => {
    const rule = await createRule(h, Z, { action: 'block', filter: { expression: 'ssl' } });
    const { status, body } = await h.call({ url: rulesPath(Z, `/${rule.id}`) });
    expect(status).toBe(200);
    expect(body).toEqual({ result: rule, success: true, errors: [], messages: [] });
    const elsewhere = await createRule(h, ZONES.business, { action: 'block', filter: { expression: 'ssl' } });
    for (const id of ['f'.repeat(32), 'nope', elsewhere.id]) {
      expectFailure(await h.call({ url: rulesPath(Z, `/${id}`) }), 404, 10201);
    }
  });
});

describe('PUT /zones/{zone_id}/firewall/rules/{rule_id}', () => {
  it('replaces the rule: omitted fields go back to their defaults, the filter is pointed at by id', async () => {
    const other = await createFilter(h, Z, 'not ssl');
    const rule = await createRule(h, Z, {
      action: 'bypass',
      products: ['waf'],
      priority: 5,
      paused: true,
      description: 'before',
      ref: 'R-1',
      filter: { expression: 'ssl' },
    });
    const { status, body } = await h.call({
      method: 'PUT',
      url: rulesPath(Z, `/${rule.id}`),
      payload: { action: 'block', filter: { id: other.id } },
    });
    expect(status).toBe(200);
    expect(body.result).toEqual({
      id: rule.id,
      action: 'block',
      priority: null,
      paused: false,
      description: '',
      filter: other,
      created_on: rule.created_on,
      modified_on: expect.stringMatching(ISO_TIME),
    });
    expect(await listRules(h, Z)).toEqual([body.result]);
  });

  it("never changes the filter: its members sent back must be the filter's, others are refused", async () => {
    const rule = await createRule(h, Z, { action: 'block', filter: { expression: 'ssl' } });
    // A rule read with GET and sent back, with its whole filter object.
    const { status, body } = await h.call({
      method: 'PUT',
      url: rulesPath(Z, `/${rule.id}`),
      payload: { ...rule, action: 'allow' },
    });
    expect(status).toBe(200);
    expect(body.result.filter).toEqual(rule.filter);
    for (const [filter, pointer] of [
      [{ id: rule.filter.id, expression: 'not ssl' }, '/filter/expression'],
      [{ id: rule.filter.id, paused: true }, '/filter/paused'],
      [{ id: rule.filter.id, nope: 1 }, '/filter/nope'],
    ] as const) {
      const refused = await h.call({
        method: 'PUT',
        url: rulesPath(Z, `/${rule.id}`),
        payload: { id: rule.id, action: 'challenge', filter },
      });
      expectFailure(refused, 400, 10200);
      expect(refused.body.errors[0]?.source?.pointer).toBe(pointer);
    }
    expect(await listFilters(h, Z)).toEqual([rule.filter]);
    expect((await listRules(h, Z))[0]?.action).toBe('allow');
  });

  it('refuses an inline filter, another id, and bad fields (10200), changing nothing', async () => {
    const rule = await createRule(h, Z, {
      action: 'block',
      description: 'keep',
      filter: { expression: 'ssl' },
    });
    const before = await snapshot(h, Z);
    const url = rulesPath(Z, `/${rule.id}`);
    const cases: [object, string][] = [
      [{ action: 'allow', filter: { expression: 'not ssl' } }, '/filter/id'],
      [{ action: 'allow' }, '/filter'],
      [{ action: 'allow', filter: { id: 'f'.repeat(32) } }, '/filter/id'],
      [{ id: 'f'.repeat(32), action: 'allow', filter: { id: rule.filter.id } }, '/id'],
      [{ action: 'nope', filter: { id: rule.filter.id } }, '/action'],
      [{ action: 'allow', priority: -5, filter: { id: rule.filter.id } }, '/priority'],
      [{ action: 'bypass', filter: { id: rule.filter.id } }, '/products'],
    ];
    for (const [payload, pointer] of cases) {
      const response = await h.call({ method: 'PUT', url, payload });
      expectFailure(response, 400, 10200);
      expect(response.body.errors[0]?.source).toEqual({ pointer });
    }
    expect(await snapshot(h, Z)).toEqual(before);
  });

  it('refuses log below Enterprise (10204) and answers 404 10201 for an unknown rule', async () => {
    const rule = await createRule(h, ZONES.business, { action: 'block', filter: { expression: 'ssl' } });
    const log = await h.call({
      method: 'PUT',
      url: rulesPath(ZONES.business, `/${rule.id}`),
      payload: { action: 'log', filter: { id: rule.filter.id } },
    });
    expectFailure(log, 400, 10204);
    const unknown = await h.call({
      method: 'PUT',
      url: rulesPath(ZONES.business, `/${'f'.repeat(32)}`),
      payload: { action: 'block', filter: { id: rule.filter.id } },
    });
    expectFailure(unknown, 404, 10201);
    expect(await listRules(h, ZONES.business)).toEqual([rule]);
  });
});

describe('PUT /zones/{zone_id}/firewall/rules', () => {
  it('replaces every rule listed (omitted fields reset) and leaves the others', async () => {
    const [a, b, c] = await createRules(h, Z, [
      { action: 'block', priority: 1, description: 'a', filter: { expression: 'ssl' } },
      { action: 'allow', priority: 2, description: 'b', ref: 'B', filter: { expression: 'not ssl' } },
      { action: 'log', filter: { expression: 'ip.src eq 192.0.2.1' } },
    ]);
    const { status, body } = await h.call({
      method: 'PUT',
      url: rulesPath(Z),
      payload: [
        { id: a?.id, action: 'challenge', filter: { id: b?.filter.id } },
        { id: b?.id, action: 'allow', description: 'B', filter: { id: b?.filter.id } },
      ],
    });
    expect(status).toBe(200);
    expect(body.result).toEqual([
      {
        id: a?.id,
        action: 'challenge',
        priority: null,
        paused: false,
        description: '',
        filter: b?.filter,
        created_on: a?.created_on,
        modified_on: expect.stringMatching(ISO_TIME),
      },
      {
        id: b?.id,
        action: 'allow',
        priority: null,
        paused: false,
        description: 'B',
        filter: b?.filter,
        created_on: b?.created_on,
        modified_on: expect.stringMatching(ISO_TIME),
      },
    ]);
    expect(await listRules(h, Z)).toEqual([...body.result, c]);
  });

  it('is atomic: one bad item and nothing changes', async () => {
    const [a, b] = await createRules(h, Z, [
      { action: 'block', filter: { expression: 'ssl' } },
      { action: 'allow', filter: { expression: 'not ssl' } },
    ]);
    const before = await snapshot(h, Z);
    const cases: [unknown[], number, number][] = [
      [
        [
          { id: a?.id, action: 'challenge', filter: { id: a?.filter.id } },
          { id: b?.id, action: 'nope', filter: { id: b?.filter.id } },
        ],
        400,
        10200,
      ],
      [
        [
          { id: a?.id, action: 'challenge', filter: { id: a?.filter.id } },
          { id: b?.id, action: 'allow', filter: { expression: 'http.host eq "x"' } },
        ],
        400,
        10200,
      ],
      [
        [
          { id: a?.id, action: 'challenge', filter: { id: a?.filter.id } },
          { id: 'f'.repeat(32), action: 'allow', filter: { id: b?.filter.id } },
        ],
        404,
        10201,
      ],
      [
        [
          { id: a?.id, action: 'challenge', filter: { id: a?.filter.id } },
          { action: 'allow', filter: { id: b?.filter.id } },
        ],
        400,
        10200,
      ],
      [
        [
          { id: a?.id, action: 'challenge', filter: { id: a?.filter.id } },
          { id: a?.id, action: 'allow', filter: { id: a?.filter.id } },
        ],
        400,
        10200,
      ],
      [
        [
          { id: a?.id, action: 'challenge', filter: { id: a?.filter.id } },
          { id: b?.id, action: 'bypass', filter: { id: b?.filter.id } },
        ],
        400,
        10200,
      ],
    ];
    for (const [payload, status, code] of cases) {
      expectFailure(await h.call({ method: 'PUT', url: rulesPath(Z), payload }), status, code);
    }
    expect(await snapshot(h, Z)).toEqual(before);
    expect(await listFilters(h, Z)).toHaveLength(2);
  });
});

describe('PATCH /zones/{zone_id}/firewall/rules', () => {
  it('sets priorities and keeps every other field', async () => {
    const [a, b, c] = await createRules(h, Z, [
      { action: 'block', description: 'a', priority: 1, filter: { expression: 'ssl' } },
      { action: 'allow', description: 'b', filter: { expression: 'not ssl' } },
      { action: 'challenge', filter: { expression: 'ip.src eq 192.0.2.1' } },
    ]);
    const { status, body } = await h.call({
      method: 'PATCH',
      url: rulesPath(Z),
      payload: [
        { id: a?.id, priority: 20 },
        { id: b?.id, priority: 10 },
      ],
    });
    expect(status).toBe(200);
    expect(body.result).toEqual([
      { ...a, priority: 20, modified_on: expect.stringMatching(ISO_TIME) },
      { ...b, priority: 10, modified_on: expect.stringMatching(ISO_TIME) },
    ]);
    expect(await listRules(h, Z)).toEqual([...body.result, c]);

    const reset = await h.call({
      method: 'PATCH',
      url: rulesPath(Z),
      payload: [{ id: a?.id, priority: null }],
    });
    expect(reset.body.result[0]).toMatchObject({ id: a?.id, priority: null, description: 'a' });
  });

  it('is atomic: an unknown id or a bad priority, and nothing changes', async () => {
    const [a, b] = await createRules(h, Z, [
      { action: 'block', filter: { expression: 'ssl' } },
      { action: 'allow', filter: { expression: 'not ssl' } },
    ]);
    const before = await snapshot(h, Z);
    expectFailure(
      await h.call({
        method: 'PATCH',
        url: rulesPath(Z),
        payload: [
          { id: a?.id, priority: 1 },
          { id: b?.id, priority: -1 },
        ],
      }),
      400,
      10200,
    );
    expectFailure(
      await h.call({
        method: 'PATCH',
        url: rulesPath(Z),
        payload: [
          { id: a?.id, priority: 1 },
          { id: 'f'.repeat(32), priority: 2 },
        ],
      }),
      404,
      10201,
    );
    expectFailure(
      await h.call({ method: 'PATCH', url: rulesPath(Z), payload: [{ priority: 1 }] }),
      400,
      10200,
    );
    expect(await snapshot(h, Z)).toEqual(before);
  });
});

describe('PATCH /zones/{zone_id}/firewall/rules/{rule_id}', () => {
  it('changes only the fields given, and answers the rule in an array', async () => {
    const other = await createFilter(h, Z, 'not ssl');
    const rule = await createRule(h, Z, {
      action: 'block',
      description: 'keep',
      ref: 'R-1',
      priority: 3,
      filter: { expression: 'ssl' },
    });
    const url = rulesPath(Z, `/${rule.id}`);
    const paused = await h.call({ method: 'PATCH', url, payload: { paused: true } });
    expect(paused.status).toBe(200);
    expect(paused.body.result).toEqual([
      { ...rule, paused: true, modified_on: expect.stringMatching(ISO_TIME) },
    ]);

    const more = await h.call({
      method: 'PATCH',
      url,
      payload: {
        action: 'challenge',
        priority: 9,
        description: 'changed',
        ref: 'R-2',
        filter: { id: other.id },
      },
    });
    expect(more.body.result).toEqual([
      {
        ...rule,
        paused: true,
        action: 'challenge',
        priority: 9,
        description: 'changed',
        ref: 'R-2',
        filter: other,
        modified_on: expect.stringMatching(ISO_TIME),
      },
    ]);
    expect(await listRules(h, Z)).toEqual(more.body.result);
  });

  it('changes nothing with {} and still answers an array', async () => {
    const rule = await createRule(h, Z, { action: 'block', priority: 4, filter: { expression: 'ssl' } });
    const { status, body } = await h.call({ method: 'PATCH', url: rulesPath(Z, `/${rule.id}`), payload: {} });
    expect(status).toBe(200);
    expect(body).toEqual({ result: [rule], success: true, errors: [], messages: [] });
    expect(await listRules(h, Z)).toEqual([rule]);
  });

  it('switches to and from bypass with products', async () => {
    const rule = await createRule(h, Z, { action: 'block', filter: { expression: 'ssl' } });
    const url = rulesPath(Z, `/${rule.id}`);
    const noProducts = await h.call({ method: 'PATCH', url, payload: { action: 'bypass' } });
    expectFailure(noProducts, 400, 10200);
    const bypass = await h.call({ method: 'PATCH', url, payload: { action: 'bypass', products: ['waf'] } });
    expect(bypass.body.result[0]).toMatchObject({ action: 'bypass', products: ['waf'] });
    const back = await h.call({ method: 'PATCH', url, payload: { action: 'block' } });
    expect(back.status).toBe(200);
    expect(back.body.result[0].action).toBe('block');
    expect(back.body.result[0]).not.toHaveProperty('products');
  });

  it('refuses an inline filter, bad fields, log below Enterprise and unknown rules; nothing changes', async () => {
    const rule = await createRule(h, ZONES.business, { action: 'block', filter: { expression: 'ssl' } });
    const before = await snapshot(h, ZONES.business);
    const url = rulesPath(ZONES.business, `/${rule.id}`);
    const cases: [object, number][] = [
      [{ filter: { expression: 'not ssl' } }, 10200],
      [{ filter: { id: 'f'.repeat(32) } }, 10200],
      [{ action: 'nope' }, 10200],
      [{ priority: MAX_PRIORITY + 1 }, 10200],
      [{ description: 'd'.repeat(501) }, 10200],
      [{ ref: 'r'.repeat(51) }, 10200],
      [{ products: ['waf'] }, 10200],
      [{ id: 'f'.repeat(32) }, 10200],
      [{ action: 'log' }, 10204],
    ];
    for (const [payload, code] of cases) {
      expectFailure(await h.call({ method: 'PATCH', url, payload }), 400, code);
    }
    expectFailure(
      await h.call({ method: 'PATCH', url: rulesPath(ZONES.business, `/${'f'.repeat(32)}`), payload: {} }),
      404,
      10201,
    );
    expect(await snapshot(h, ZONES.business)).toEqual(before);
  });
});

describe('DELETE /zones/{zone_id}/firewall/rules/{rule_id}', () => {
  it('deletes the rule and keeps its filter without the flag', async () => {
    const filter = await createFilter(h, Z, 'ssl');
    const rule = await createRule(h, Z, { action: 'block', filter: { id: filter.id } });
    const { status, body } = await h.call({ method: 'DELETE', url: rulesPath(Z, `/${rule.id}`) });
    expect(status).toBe(200);
    expect(body).toEqual({ result: rule, success: true, errors: [], messages: [] });
    expect(await snapshot(h, Z)).toEqual({ filters: [filter], rules: [] });
    expectFailure(await h.call({ url: rulesPath(Z, `/${rule.id}`) }), 404, 10201);
  });

  it('deletes the unused filter too with ?delete_filter_if_unused=true, answering filter {id, deleted}', async () => {
    const filter = await createFilter(h, Z, 'ssl');
    const rule = await createRule(h, Z, { action: 'block', filter: { id: filter.id } });
    const { status, body } = await h.call({
      method: 'DELETE',
      url: rulesPath(Z, `/${rule.id}?delete_filter_if_unused=true`),
    });
    expect(status).toBe(200);
    expect(body.result).toEqual({ ...rule, filter: { id: filter.id, deleted: true } });
    expect(await snapshot(h, Z)).toEqual({ filters: [], rules: [] });
  });

  it('deletes the unused filter too with the body { delete_filter_if_unused: true }', async () => {
    const filter = await createFilter(h, Z, 'ssl');
    const rule = await createRule(h, Z, { action: 'block', filter: { id: filter.id } });
    const { body } = await h.call({
      method: 'DELETE',
      url: rulesPath(Z, `/${rule.id}`),
      payload: { delete_filter_if_unused: true },
    });
    expect(body.result.filter).toEqual({ id: filter.id, deleted: true });
    expect(await listFilters(h, Z)).toEqual([]);
  });

  it('keeps the filter, even with the flag, while another rule uses it', async () => {
    const filter = await createFilter(h, Z, 'ssl');
    const [first, second] = await createRules(h, Z, [
      { action: 'block', filter: { id: filter.id } },
      { action: 'allow', filter: { id: filter.id } },
    ]);
    const { status, body } = await h.call({
      method: 'DELETE',
      url: rulesPath(Z, `/${first?.id}?delete_filter_if_unused=true`),
    });
    expect(status).toBe(200);
    expect(body.result).toEqual(first);
    expect(await snapshot(h, Z)).toEqual({ filters: [filter], rules: [second] });
  });

  it('keeps the filter with delete_filter_if_unused=false', async () => {
    const rule = await createRule(h, Z, { action: 'block', filter: { expression: 'ssl' } });
    const { body } = await h.call({
      method: 'DELETE',
      url: rulesPath(Z, `/${rule.id}`),
      payload: { delete_filter_if_unused: false },
    });
    expect(body.result).toEqual(rule);
    expect(await listFilters(h, Z)).toEqual([rule.filter]);
  });

  it('answers 404 10201 for an unknown rule', async () => {
    expectFailure(await h.call({ method: 'DELETE', url: rulesPath(Z, `/${'f'.repeat(32)}`) }), 404, 10201);
  });
});

describe('DELETE /zones/{zone_id}/firewall/rules', () => {
  it('deletes the rules named by repeated ?id=, ignores unknown ids and keeps every filter', async () => {
    const [a, b, c] = await createRules(h, Z, [
      { action: 'block', filter: { expression: 'ssl' } },
      { action: 'allow', filter: { expression: 'not ssl' } },
      { action: 'challenge', filter: { expression: 'ip.src eq 192.0.2.1' } },
    ]);
    const filters = await listFilters(h, Z);
    const { status, body } = await h.call({
      method: 'DELETE',
      url: rulesPath(Z, idQuery([a?.id ?? '', 'f'.repeat(32), 'nope', c?.id ?? ''])),
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, errors: [], messages: [] });
    expect(body.result).toEqual([{ id: a?.id }, { id: c?.id }]);
    expect(await snapshot(h, Z)).toEqual({ filters, rules: [b] });

    // The filters created with the deleted rules are ordinary ones now.
    const removed = await h.call({ method: 'DELETE', url: filtersPath(Z, `/${a?.filter.id}`) });
    expect(removed.status).toBe(200);
  });

  it('takes the ids from a body [{ id }] too', async () => {
    const [a, b] = await createRules(h, Z, [
      { action: 'block', filter: { expression: 'ssl' } },
      { action: 'allow', filter: { expression: 'not ssl' } },
    ]);
    const { body } = await h.call({ method: 'DELETE', url: rulesPath(Z), payload: [{ id: b?.id }] });
    expect(body.result).toEqual([{ id: b?.id }]);
    expect(await listRules(h, Z)).toEqual([a]);
  });

  it("does not delete another zone's rules", async () => {
    const elsewhere = await createRule(h, ZONES.business, { action: 'block', filter: { expression: 'ssl' } });
    const { body } = await h.call({ method: 'DELETE', url: rulesPath(Z, idQuery([elsewhere.id])) });
    expect(body.result).toEqual([]);
    expect(await listRules(h, ZONES.business)).toEqual([elsewhere]);
  });

  it('answers [] to a request without ids, deleting nothing (as Cloudflare documents)', async () => {
    const rule = await createRule(h, Z, { action: 'block', filter: { expression: 'ssl' } });
    const none = await h.call({ method: 'DELETE', url: rulesPath(Z) });
    expect(none.status).toBe(200);
    expect(none.body.result).toEqual([]);
    expect(await listRules(h, Z)).toEqual([rule]);
  });
});

describe('credentials on writes', () => {
  /** Every write of the Firewall Rules API, on the zone given, against the rule given. */
  const writes = (zone: string, rule: RuleJson) => [
    {
      method: 'POST' as const,
      url: rulesPath(zone),
      payload: [{ action: 'block', filter: { expression: 'not ssl' } }],
    },
    {
      method: 'POST' as const,
      url: rulesPath(zone),
      payload: { action: 'block', filter: { id: rule.filter.id } },
    },
    {
      method: 'PUT' as const,
      url: rulesPath(zone),
      payload: [{ id: rule.id, action: 'allow', filter: { id: rule.filter.id } }],
    },
    { method: 'PATCH' as const, url: rulesPath(zone), payload: [{ id: rule.id, priority: 1 }] },
    {
      method: 'PUT' as const,
      url: rulesPath(zone, `/${rule.id}`),
      payload: { action: 'allow', filter: { id: rule.filter.id } },
    },
    { method: 'PATCH' as const, url: rulesPath(zone, `/${rule.id}`), payload: { paused: true } },
    { method: 'DELETE' as const, url: rulesPath(zone, `/${rule.id}?delete_filter_if_unused=true`) },
    { method: 'DELETE' as const, url: rulesPath(zone, idQuery([rule.id])) },
  ];

  it.each([
    ['a read-only token', READ_TOKEN, ZONES.enterprise],
    ['a token scoped to another zone', SCOPED_TOKEN, ZONES.business],
    ["another account's token", OTHER_TOKEN, ZONES.enterprise],
  ])('refuses %s with 403 10000 and changes nothing', async (_name, token, zone) => {
    const rule = await createRule(h, zone, { action: 'block', filter: { expression: 'ssl' } });
    const before = await snapshot(h, zone);
    for (const request of writes(zone, rule)) {
      const response = await h.call({ ...request, token });
      expectFailure(response, 403, 10000);
      expect(response.body.errors[0]?.message).toBe('Authentication error');
    }
    expect(await snapshot(h, zone)).toEqual(before);
  });

  it('lets a read-only token read, and a scoped token write to its own zone', async () => {
    const rule = await createRule(h, Z, { action: 'block', filter: { expression: 'ssl' } });
    expect((await h.call({ url: rulesPath(Z), token: READ_TOKEN })).body.result).toEqual([rule]);
    expect((await h.call({ url: rulesPath(Z, `/${rule.id}`), token: READ_TOKEN })).body.result).toEqual(rule);
    for (const request of writes(Z, rule)) {
      const response = await h.call({ ...request, token: SCOPED_TOKEN });
      expect({ url: request.url, method: request.method, status: response.status }).toEqual({
        url: request.url,
        method: request.method,
        status: 200,
      });
    }
  });

  it("refuses reads of another account's zone (403 10000)", async () => {
    expectFailure(await h.call({ url: rulesPath(ZONES.other) }), 403, 10000);
  });
});
