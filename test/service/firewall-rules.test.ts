import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../src/scheme/profile.js';
import { CODES, ServiceError } from '../../src/service/errors.js';
import { RULE_QUOTA, type RuleJson } from '../../src/service/firewall-rules.js';
import { newId } from '../../src/service/ids.js';
import { failure, setup, snapshot } from './fixtures.js';

const host = (name: string) => `http.host eq "${name}.example.com"`;
const first = (rules: RuleJson[]): RuleJson => rules[0] as RuleJson;

// ——— creation ———

describe('FirewallRuleService.create with a filter id', () => {
  it('creates rules with defaults, in Cloudflare shape', async () => {
    const { zone, rules, filter } = await setup();
    const filterId = await filter(host('a'));
    const created = await rules.create(zone, [{ action: 'block', filter: { id: filterId } }]);
    expect(created).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{32}$/),
        paused: false,
        description: '',
        action: 'block',
        priority: null,
        filter: expect.objectContaining({ id: filterId, expression: host('a'), paused: false }),
        created_on: expect.any(String),
        modified_on: expect.any(String),
      },
    ]);
    expect(Object.keys(first(created))).not.toContain('ref');
    expect(Object.keys(first(created))).not.toContain('products');
  });

  it('accepts one object, as the official SDK 7 sends it, and answers an array', async () => {
    const { zone, rules, filter } = await setup();
    const created = await rules.create(zone, {
      action: 'bypass',
      products: ['waf', 'uaBlock'],
      filter: { id: await filter(host('a')) },
      description: 'let the office through',
      priority: 10,
      paused: true,
      ref: 'R-1',
    });
    expect(created).toEqual([
      expect.objectContaining({
        action: 'bypass',
        products: ['waf', 'uaBlock'],
        description: 'let the office through',
        priority: 10,
        paused: true,
        ref: 'R-1',
      }),
    ]);
  });

  it('lets several rules use one filter', async () => {
    const { zone, rules, filter } = await setup();
    const id = await filter(host('a'));
    expect(
      await rules.create(zone, [
        { action: 'block', filter: { id } },
        { action: 'challenge', filter: { id } },
      ]),
    ).toHaveLength(2);
  });

  it('refuses a filter id that is not in the zone', async () => {
    const { store, zone, rules } = await setup();
    const other = await setup();
    const foreign = await other.filter(host('a'));
    const error = await failure(() => rules.create(zone, [{ action: 'block', filter: { id: foreign } }]));
    expect(error.errors).toEqual([
      {
        code: CODES.invalidRule,
        message: `filter ${foreign} does not exist in this zone`,
        source: { pointer: '/0/filter/id' },
      },
    ]);
    expect((await snapshot(store, zone.id)).rules).toEqual([]);
  });
});

describe('FirewallRuleService.create: field rules', () => {
  it.each<[string, unknown, string, string]>([
    [
      'an unknown action',
      { action: 'drop' },
      'action "drop" must be one of block, challenge, js_challenge, managed_challenge, allow, log, bypass',
      '/0/action',
    ],
    [
      'no action',
      { action: undefined },
      'action is required: one of block, challenge, js_challenge, managed_challenge, allow, log, bypass',
      '/0/action',
    ],
    [
      'a negative priority',
      { priority: -1 },
      'priority must be an integer from 0 to 2147483647, or null',
      '/0/priority',
    ],
    [
      'a priority too large',
      { priority: 2147483648 },
      'priority must be an integer from 0 to 2147483647, or null',
      '/0/priority',
    ],
    [
      'a fractional priority',
      { priority: 1.5 },
      'priority must be a whole number from 0 to 2147483647, or null (got 1.5: no fractions)',
      '/0/priority',
    ],
    [
      'a priority as text',
      { priority: '1' },
      'priority must be an integer from 0 to 2147483647, or null',
      '/0/priority',
    ],
    [
      'a long description',
      { description: 'd'.repeat(501) },
      'description must be a string of at most 500 characters',
      '/0/description',
    ],
    ['a long ref', { ref: 'r'.repeat(51) }, 'ref must be a string of at most 50 characters', '/0/ref'],
    ['paused as text', { paused: 'false' }, 'paused must be true or false', '/0/paused'],
    [
      'products without bypass',
      { products: ['waf'] },
      'products can only be given with the bypass action',
      '/0/products',
    ],
    [
      'bypass without products',
      { action: 'bypass' },
      'products is required with the bypass action: any of zoneLockdown, uaBlock, bic, hot, securityLevel, rateLimit, waf',
      '/0/products',
    ],
    [
      'bypass with empty products',
      { action: 'bypass', products: [] },
      'products is required with the bypass action: any of zoneLockdown, uaBlock, bic, hot, securityLevel, rateLimit, waf',
      '/0/products',
    ],
    [
      'an unknown product',
      { action: 'bypass', products: ['waf', 'cdn'] },
      'products must only contain zoneLockdown, uaBlock, bic, hot, securityLevel, rateLimit, waf, not "cdn"',
      '/0/products/1',
    ],
    [
      'a repeated product',
      { action: 'bypass', products: ['waf', 'waf'] },
      'products lists waf twice',
      '/0/products/1',
    ],
    [
      'no filter',
      { filter: undefined },
      'filter is required: {"id": "<filter id>"} or, on creation, {"expression": "…"}',
      '/0/filter',
    ],
    [
      'a filter that is not an object',
      { filter: 'ip.src eq 192.0.2.1' },
      'filter must be a JSON object',
      '/0/filter',
    ],
    ['a filter id that is not text', { filter: { id: 7 } }, 'id must be a string', '/0/filter/id'],
  ])('refuses %s (10200), creating nothing', async (_, change, message, pointer) => {
    const { store, zone, rules, filter } = await setup();
    const id = await filter(host('a'));
    const before = await snapshot(store, zone.id);
    const rule = { action: 'block', filter: { id }, ...(change as object) };
    const error = await failure(() => rules.create(zone, [rule]));
    expect(error.kind).toBe('bad-request');
    expect(error.errors).toEqual([{ code: CODES.invalidRule, message, source: { pointer } }]);
    expect(await snapshot(store, zone.id)).toEqual(before);
  });

  it('accepts the bounds: priority 0 and 2147483647, 500-character description, 50-character ref', async () => {
    const { zone, rules, filter } = await setup();
    const id = await filter(host('a'));
    const created = await rules.create(zone, [
      { action: 'block', filter: { id }, priority: 0, description: 'd'.repeat(500), ref: 'r'.repeat(50) },
      { action: 'block', filter: { id }, priority: 2147483647 },
      { action: 'block', filter: { id }, priority: null },
    ]);
    expect(created.map((rule) => rule.priority)).toEqual([0, 2147483647, null]);
  });

  it('allows the log action on Enterprise only (10204)', async () => {
    for (const plan of ['free', 'pro', 'business'] as const) {
      const { store, zone, rules, filter } = await setup(plan);
      const id = await filter(host('a'));
      const before = await snapshot(store, zone.id);
      const error = await failure(() => rules.create(zone, [{ action: 'log', filter: { id } }]));
      expect(error.kind).toBe('bad-request');
      expect(error.errors[0]).toMatchObject({
        code: CODES.actionNotEntitled,
        source: { pointer: '/0/action' },
      });
      expect(error.errors[0]?.message).toContain('needs the Enterprise plan');
      expect(await snapshot(store, zone.id)).toEqual(before);
    }
    const enterprise = await setup('enterprise');
    const id = await enterprise.filter(host('a'));
    expect(await enterprise.rules.create(enterprise.zone, [{ action: 'log', filter: { id } }])).toHaveLength(
      1,
    );
  });

  it('refuses the whole batch when any rule is invalid', async () => {
    const { store, zone, rules, filter } = await setup();
    const id = await filter(host('a'));
    const before = await snapshot(store, zone.id);
    const error = await failure(() =>
      rules.create(zone, [
        { action: 'block', filter: { id } },
        { action: 'block', filter: { expression: host('b') } },
        { action: 'nope', filter: { id } },
      ]),
    );
    expect(error.errors[0]?.source).toEqual({ pointer: '/2/action' });
    expect(await snapshot(store, zone.id)).toEqual(before);
  });
});

// ——— single-call creation ———

describe('single-call creation (inline filter)', () => {
  it('creates the filter, then the rule, the two tied together', async () => {
    const { store, zone, rules, filters } = await setup();
    const [rule] = await rules.create(zone, [
      { action: 'block', filter: { expression: host('a'), description: 'A' } },
    ]);
    expect(rule?.filter).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      expression: host('a'),
      paused: false,
      description: 'A',
      created_on: expect.any(String),
      modified_on: expect.any(String),
    });
    expect((await filters.list(zone, {})).result).toEqual([rule?.filter]);
    const stored = await store.transaction((tx) => tx.filters.get(zone.id, rule?.filter.id as string));
    expect(stored?.createdWithRule).toBe(rule?.id);
  });

  it('outcome 1: an invalid inline filter creates nothing (10202 with the parser text)', async () => {
    const { store, zone, rules, filter } = await setup();
    const id = await filter(host('a'));
    const before = await snapshot(store, zone.id);
    const error = await failure(() =>
      rules.create(zone, [
        { action: 'block', filter: { id } },
        { action: 'block', filter: { expression: host('b') } },
        { action: 'block', filter: { expression: 'ip.src eq 1.2.3' } },
      ]),
    );
    expect(error.kind).toBe('bad-request');
    expect(error.errors).toEqual([
      {
        code: CODES.invalidInlineFilter,
        message:
          "filter at index 2: Filter parsing error (1:11):\nip.src eq 1.2.3\n          ^^^^^ couldn't parse address in network: invalid IP address syntax\n",
        source: { pointer: '/2/filter/expression' },
      },
    ]);
    expect(await snapshot(store, zone.id)).toEqual(before);
  });

  it('outcome 1: other inline filter problems are 10202 too', async () => {
    const { zone, rules } = await setup();
    expect((await failure(() => rules.create(zone, [{ action: 'block', filter: {} }]))).errors).toEqual([
      {
        code: CODES.invalidInlineFilter,
        message: 'filter at index 0: expression is required: a non-empty string',
        source: { pointer: '/0/filter/expression' },
      },
    ]);
    const long = await failure(() =>
      rules.create(zone, [{ action: 'block', filter: { expression: host('a'), ref: 'r'.repeat(51) } }]),
    );
    expect(long.errors[0]).toMatchObject({
      code: CODES.invalidInlineFilter,
      message: 'filter at index 0: ref must be a string of at most 50 characters',
    });
  });

  it("outcome 1: the zone's plan applies to inline expressions (matches on Pro)", async () => {
    const { store, zone, rules } = await setup('pro');
    const error = await failure(() =>
      rules.create(zone, {
        action: 'block',
        filter: { expression: 'http.request.uri.path matches "^/admin"' },
      }),
    );
    expect(error.errors[0]?.code).toBe(CODES.invalidInlineFilter);
    expect(error.errors[0]?.message).toMatch(/^filter at index 0: Filter parsing error \(1:23\):\n/);
    expect(error.errors[0]?.message).toContain('not available on the Pro plan');
    expect(await snapshot(store, zone.id)).toEqual({ filters: [], rules: [] });
  });

  it('outcome 1: an inline expression that a filter already has is a duplicate (10202)', async () => {
    const { store, zone, rules, filter } = await setup();
    await filter(host('a'));
    const before = await snapshot(store, zone.id);
    expect(
      (await failure(() => rules.create(zone, [{ action: 'block', filter: { expression: host('a') } }])))
        .errors,
    ).toEqual([
      {
        code: CODES.invalidInlineFilter,
        message: 'filter at index 0: config duplicates an already existing config',
        source: { pointer: '/0/filter/expression' },
      },
    ]);
    const twice = await failure(() =>
      rules.create(zone, [
        { action: 'block', filter: { expression: host('b') } },
        { action: 'allow', filter: { expression: host('b') } },
      ]),
    );
    expect(twice.errors[0]?.message).toBe('filter at index 1: config duplicates an already existing config');
    expect(await snapshot(store, zone.id)).toEqual(before);
  });

  it('outcome 2: over the quota, the inline filters are created (and named), the rules are not', async () => {
    const { store, zone, rules, filters, filter } = await setup('free');
    const id = await filter(host('base'));
    await rules.create(
      zone,
      Array.from({ length: RULE_QUOTA.free - 1 }, () => ({ action: 'block', filter: { id } })),
    );
    const before = await snapshot(store, zone.id);
    const error = await failure(() =>
      rules.create(zone, [
        { action: 'block', filter: { expression: host('a') } },
        { action: 'block', filter: { id } },
        { action: 'challenge', filter: { expression: host('b') } },
      ]),
    );
    expect(error.kind).toBe('bad-request');
    expect(error.errors).toHaveLength(1);
    const { code, message } = error.errors[0] as { code: number; message: string };
    expect(code).toBe(CODES.ruleQuotaExceeded);
    expect(message).toContain(
      'the Free plan allows 5 firewall rules per zone, the zone has 4 and the request adds 3',
    );

    const after = await snapshot(store, zone.id);
    expect(after.rules).toEqual(before.rules);
    const created = after.filters.slice(before.filters.length);
    expect(created.map((f) => f.expression)).toEqual([host('a'), host('b')]);
    // Ordinary filters, each named in the error with the way to continue.
    for (const [index, f] of [
      [0, created[0]],
      [2, created[1]],
    ] as const) {
      expect(f?.createdWithRule).toBeNull();
      expect(message).toContain(
        `the inline filter at index ${index} was created as filter ${f?.id}: create its rule with {"filter":{"id":"${f?.id}"}} once there is room`,
      );
    }

    // The two-call flow then works: make room, create the rule by id.
    const oldest = first((await rules.list(zone, {})).result).id;
    await rules.delete(zone, oldest, { deleteFilterIfUnused: false });
    expect(await rules.create(zone, [{ action: 'block', filter: { id: created[0]?.id } }])).toHaveLength(1);
    // And the filter left without a rule can be managed like any other.
    expect(await filters.delete(zone, created[1]?.id as string)).toEqual({ id: created[1]?.id });
  });

  it('outcome 2: over the quota without inline filters, nothing is created', async () => {
    const { store, zone, rules, filter } = await setup('free');
    const id = await filter(host('base'));
    await rules.create(
      zone,
      Array.from({ length: RULE_QUOTA.free }, () => ({ action: 'block', filter: { id } })),
    );
    const before = await snapshot(store, zone.id);
    const error = await failure(() => rules.create(zone, { action: 'block', filter: { id } }));
    expect(error.errors[0]?.code).toBe(CODES.ruleQuotaExceeded);
    expect(error.errors[0]?.message).toContain('nothing was created');
    expect(await snapshot(store, zone.id)).toEqual(before);
  });

  it('outcome 2 comes after outcome 1: an invalid request over the quota creates nothing', async () => {
    const { store, zone, rules, filter } = await setup('free');
    const id = await filter(host('base'));
    await rules.create(
      zone,
      Array.from({ length: RULE_QUOTA.free }, () => ({ action: 'block', filter: { id } })),
    );
    const before = await snapshot(store, zone.id);
    const error = await failure(() =>
      rules.create(zone, [
        { action: 'block', filter: { expression: host('a') } },
        { action: 'log', filter: { id } },
      ]),
    );
    expect(error.errors[0]?.code).toBe(CODES.actionNotEntitled);
    expect(await snapshot(store, zone.id)).toEqual(before);
  });

  it('has quotas by plan', () => {
    expect(RULE_QUOTA).toEqual({ free: 5, pro: 20, business: 100, enterprise: 1000 });
  });

  it('outcome 3: its filter is readable and usable by other rules, but not replaceable or deletable', async () => {
    const { zone, rules, filters } = await setup();
    const rule = first(await rules.create(zone, [{ action: 'block', filter: { expression: host('a') } }]));
    const filterId = rule.filter.id;
    expect((await filters.get(zone, filterId)).expression).toBe(host('a'));
    expect(await rules.create(zone, [{ action: 'allow', filter: { id: filterId } }])).toHaveLength(1);
    for (const run of [
      () => filters.update(zone, filterId, { expression: host('b') }),
      () => filters.delete(zone, filterId),
    ]) {
      const error = await failure(run);
      expect(error.kind).toBe('bad-request');
      expect(error.errors[0]?.code).toBe(CODES.filterOwnedByRule);
    }
  });

  it('is removed with its rule by delete_filter_if_unused', async () => {
    const { zone, rules, filters } = await setup();
    const rule = first(await rules.create(zone, [{ action: 'block', filter: { expression: host('a') } }]));
    const deleted = await rules.delete(zone, rule.id, { deleteFilterIfUnused: true });
    expect(deleted).toEqual({ ...rule, filter: { id: rule.filter.id, deleted: true } });
    expect((await filters.list(zone, {})).result).toEqual([]);
    expect((await rules.list(zone, {})).result).toEqual([]);
  });

  it('becomes an ordinary filter when its rule is deleted without the flag', async () => {
    const { zone, rules, filters } = await setup();
    const rule = first(await rules.create(zone, [{ action: 'block', filter: { expression: host('a') } }]));
    expect((await rules.delete(zone, rule.id, { deleteFilterIfUnused: false })).filter).toEqual(rule.filter);
    expect((await filters.update(zone, rule.filter.id, { expression: host('b') })).expression).toBe(
      host('b'),
    );
    expect(await filters.delete(zone, rule.filter.id)).toEqual({ id: rule.filter.id });
  });

  it('stays while another rule uses it, even with the flag', async () => {
    const { zone, rules, filters } = await setup();
    const rule = first(await rules.create(zone, [{ action: 'block', filter: { expression: host('a') } }]));
    await rules.create(zone, [{ action: 'allow', filter: { id: rule.filter.id } }]);
    expect((await rules.delete(zone, rule.id, { deleteFilterIfUnused: true })).filter).toEqual(rule.filter);
    // No longer tied to a rule, but still in use.
    expect((await failure(() => filters.delete(zone, rule.filter.id))).errors[0]?.code).toBe(
      CODES.filterInUse,
    );
  });

  it('becomes an ordinary filter when its rule moves to another filter', async () => {
    const { zone, rules, filters, filter } = await setup();
    const rule = first(await rules.create(zone, [{ action: 'block', filter: { expression: host('a') } }]));
    const other = await filter(host('b'));
    await rules.edit(zone, rule.id, { filter: { id: other } });
    expect(await filters.delete(zone, rule.filter.id)).toEqual({ id: rule.filter.id });
  });
});

// ——— reading ———

describe('FirewallRuleService.list and get', () => {
  async function listed() {
    const context = await setup('enterprise');
    const id = await context.filter(host('a'));
    const created = await context.rules.create(context.zone, [
      { action: 'block', filter: { id }, description: 'Block bad bots' },
      { action: 'allow', filter: { id }, description: 'office', paused: true },
      { action: 'log', filter: { id }, description: 'watch BOTS' },
    ]);
    return { ...context, ids: created.map((rule) => rule.id) };
  }
  const descriptions = (result: RuleJson[]) => result.map((rule) => rule.description);

  it('filters by id, action, description and paused', async () => {
    const { zone, rules, ids } = await listed();
    expect(descriptions((await rules.list(zone, { id: ids[1] })).result)).toEqual(['office']);
    expect(descriptions((await rules.list(zone, { action: 'log' })).result)).toEqual(['watch BOTS']);
    expect(descriptions((await rules.list(zone, { description: 'bots' })).result)).toEqual([
      'Block bad bots',
      'watch BOTS',
    ]);
    expect(descriptions((await rules.list(zone, { paused: 'true' })).result)).toEqual(['office']);
    expect(descriptions((await rules.list(zone, { paused: 'false' })).result)).toHaveLength(2);
  });

  it('pages with result_info; a page past the end is empty', async () => {
    const { zone, rules, filter } = await setup();
    const id = await filter(host('a'));
    await rules.create(
      zone,
      Array.from({ length: 7 }, (_, i) => ({ action: 'block', filter: { id }, description: `r${i}` })),
    );
    expect(await rules.list(zone, { per_page: '5', page: '2' })).toEqual({
      result: [
        expect.objectContaining({ description: 'r5' }),
        expect.objectContaining({ description: 'r6' }),
      ],
      resultInfo: { page: 2, per_page: 5, count: 2, total_count: 7, total_pages: 2 },
    });
    expect((await rules.list(zone, { per_page: '5', page: '3' })).result).toEqual([]);
    expect((await failure(() => rules.list(zone, { page: '0' }))).errors[0]?.code).toBe(CODES.invalidQuery);
  });

  it('gets one rule; unknown or malformed ids 404', async () => {
    const { zone, rules, ids } = await listed();
    expect((await rules.get(zone, ids[0] as string)).description).toBe('Block bad bots');
    for (const id of [newId(), 'x']) {
      const error = await failure(() => rules.get(zone, id));
      expect(error.kind).toBe('not-found');
      expect(error.errors).toEqual([{ code: CODES.ruleNotFound, message: `firewall rule not found: ${id}` }]);
    }
  });
});

// ——— changes ———

describe('FirewallRuleService.updateMany and update (PUT)', () => {
  it('replaces rules, resetting omitted fields', async () => {
    const { zone, rules, filter } = await setup();
    const a = await filter(host('a'));
    const b = await filter(host('b'));
    const rule = first(
      await rules.create(zone, [
        { action: 'block', filter: { id: a }, priority: 5, description: 'x', paused: true, ref: 'R' },
      ]),
    );
    const [updated] = await rules.updateMany(zone, [{ id: rule.id, action: 'challenge', filter: { id: b } }]);
    expect(updated).toEqual({
      id: rule.id,
      paused: false,
      description: '',
      action: 'challenge',
      priority: null,
      filter: expect.objectContaining({ id: b }),
      created_on: rule.created_on,
      modified_on: expect.any(String),
    });
    expect(await rules.get(zone, rule.id)).toEqual(updated);
  });

  it("accepts the filter as GET returns it, and refuses a member that is not the filter's (untouched)", async () => {
    const { zone, rules, filters, filter } = await setup();
    const a = await filter(host('a'));
    const rule = first(await rules.create(zone, [{ action: 'block', filter: { id: a } }]));
    expect(await rules.update(zone, rule.id, { ...rule, action: 'allow' })).toMatchObject({
      action: 'allow',
      filter: { expression: host('a') },
    });
    const sent = { ...rule, action: 'allow', filter: { ...rule.filter, expression: host('changed') } };
    expect((await failure(() => rules.update(zone, rule.id, sent))).errors[0]).toMatchObject({
      code: CODES.invalidRule,
      source: { pointer: '/filter/expression' },
    });
    expect((await filters.get(zone, a)).expression).toBe(host('a'));
  });

  it('refuses an inline filter: PUT never edits filters (10200)', async () => {
    const { store, zone, rules, filter } = await setup();
    const rule = first(
      await rules.create(zone, [{ action: 'block', filter: { id: await filter(host('a')) } }]),
    );
    const before = await snapshot(store, zone.id);
    const error = await failure(() =>
      rules.update(zone, rule.id, { action: 'block', filter: { expression: host('b') } }),
    );
    expect(error.errors[0]).toMatchObject({ code: CODES.invalidRule, source: { pointer: '/filter/id' } });
    expect(error.errors[0]?.message).toMatch(/^filter\.id is required/);
    expect(await snapshot(store, zone.id)).toEqual(before);
  });

  it('changes nothing when one id is unknown (404) or one rule is invalid', async () => {
    const { store, zone, rules, filter } = await setup();
    const id = await filter(host('a'));
    const [r1, r2] = await rules.create(zone, [
      { action: 'block', filter: { id } },
      { action: 'block', filter: { id } },
    ]);
    const before = await snapshot(store, zone.id);
    const missing = newId();
    const notFound = await failure(() =>
      rules.updateMany(zone, [
        { id: r1?.id, action: 'allow', filter: { id } },
        { id: missing, action: 'allow', filter: { id } },
      ]),
    );
    expect(notFound.kind).toBe('not-found');
    expect(notFound.errors).toEqual([
      {
        code: CODES.ruleNotFound,
        message: `firewall rule not found: ${missing}`,
        source: { pointer: '/1/id' },
      },
    ]);
    const invalid = await failure(() =>
      rules.updateMany(zone, [
        { id: r1?.id, action: 'allow', filter: { id } },
        { id: r2?.id, action: 'allow', filter: { id }, priority: -5 },
      ]),
    );
    expect(invalid.errors[0]).toMatchObject({ code: CODES.invalidRule, source: { pointer: '/1/priority' } });
    const noId = await failure(() => rules.updateMany(zone, [{ action: 'allow', filter: { id } }]));
    expect(noId.errors[0]).toMatchObject({ code: CODES.invalidRule, source: { pointer: '/0/id' } });
    const twice = await failure(() =>
      rules.updateMany(zone, [
        { id: r1?.id, action: 'allow', filter: { id } },
        { id: r1?.id, action: 'block', filter: { id } },
      ]),
    );
    expect(twice.errors[0]?.message).toBe(`firewall rule ${r1?.id} is listed twice`);
    expect(await snapshot(store, zone.id)).toEqual(before);
  });

  it('PUT one: the body id must be the path id when given', async () => {
    const { zone, rules, filter } = await setup();
    const id = await filter(host('a'));
    const rule = first(await rules.create(zone, [{ action: 'block', filter: { id } }]));
    expect((await rules.update(zone, rule.id, { id: rule.id, action: 'allow', filter: { id } })).action).toBe(
      'allow',
    );
    const error = await failure(() =>
      rules.update(zone, rule.id, { id: newId(), action: 'allow', filter: { id } }),
    );
    expect(error.errors[0]).toMatchObject({ code: CODES.invalidRule, source: { pointer: '/id' } });
    expect((await failure(() => rules.update(zone, newId(), { action: 'allow', filter: { id } }))).kind).toBe(
      'not-found',
    );
  });
});

describe('FirewallRuleService.edit and editPriorities (PATCH)', () => {
  it('PATCH {} changes nothing and answers an array', async () => {
    const { store, zone, rules, filter } = await setup();
    const rule = first(
      await rules.create(zone, [{ action: 'block', filter: { id: await filter(host('a')) }, priority: 3 }]),
    );
    const before = await snapshot(store, zone.id);
    expect(await rules.edit(zone, rule.id, {})).toEqual([rule]);
    expect(await snapshot(store, zone.id)).toEqual(before);
  });

  it('changes only the fields given; null resets one', async () => {
    const { zone, rules, filter } = await setup();
    const rule = first(
      await rules.create(zone, [
        { action: 'block', filter: { id: await filter(host('a')) }, priority: 3, description: 'keep' },
      ]),
    );
    const [edited] = await rules.edit(zone, rule.id, { priority: 7, paused: true });
    expect(edited).toMatchObject({ action: 'block', priority: 7, paused: true, description: 'keep' });
    expect(first(await rules.edit(zone, rule.id, { priority: null })).priority).toBeNull();
  });

  it('moving away from bypass drops the products; to bypass needs them', async () => {
    const { zone, rules, filter } = await setup();
    const rule = first(
      await rules.create(zone, [
        { action: 'bypass', products: ['waf'], filter: { id: await filter(host('a')) } },
      ]),
    );
    const [blocked] = await rules.edit(zone, rule.id, { action: 'block' });
    expect(blocked?.action).toBe('block');
    expect(blocked).not.toHaveProperty('products');
    expect((await failure(() => rules.edit(zone, rule.id, { action: 'bypass' }))).errors[0]?.source).toEqual({
      pointer: '/products',
    });
    expect(first(await rules.edit(zone, rule.id, { action: 'bypass', products: ['hot'] })).products).toEqual([
      'hot',
    ]);
  });

  it('refuses an inline filter and invalid fields, changing nothing', async () => {
    const { store, zone, rules, filter } = await setup();
    const rule = first(
      await rules.create(zone, [{ action: 'block', filter: { id: await filter(host('a')) } }]),
    );
    const before = await snapshot(store, zone.id);
    expect(
      (await failure(() => rules.edit(zone, rule.id, { filter: { expression: host('b') } }))).errors[0]?.code,
    ).toBe(CODES.invalidRule);
    expect((await failure(() => rules.edit(zone, rule.id, { action: 'log' }))).errors[0]?.code).toBe(
      CODES.actionNotEntitled,
    );
    expect((await failure(() => rules.edit(zone, rule.id, { id: newId() }))).errors[0]?.source).toEqual({
      pointer: '/id',
    });
    expect((await failure(() => rules.edit(zone, rule.id, []))).errors[0]?.message).toBe(
      'the request body must be a JSON object',
    );
    expect(await snapshot(store, zone.id)).toEqual(before);
  });

  it('sets priorities in bulk, all or nothing', async () => {
    const { store, zone, rules, filter } = await setup();
    const id = await filter(host('a'));
    const [r1, r2] = await rules.create(zone, [
      { action: 'block', filter: { id } },
      { action: 'allow', filter: { id } },
    ]);
    expect(
      (
        await rules.editPriorities(zone, [
          { id: r1?.id, priority: 2 },
          { id: r2?.id, priority: 1 },
        ])
      ).map((rule) => [rule.id, rule.priority]),
    ).toEqual([
      [r1?.id, 2],
      [r2?.id, 1],
    ]);
    expect(await rules.editPriorities(zone, { id: r1?.id, priority: 9 })).toEqual([
      expect.objectContaining({ priority: 9 }),
    ]);
    const before = await snapshot(store, zone.id);
    const error = await failure(() =>
      rules.editPriorities(zone, [
        { id: r1?.id, priority: 4 },
        { id: newId(), priority: 3 },
      ]),
    );
    expect(error.kind).toBe('not-found');
    const invalid = await failure(() =>
      rules.editPriorities(zone, [
        { id: r1?.id, priority: 4 },
        { id: r2?.id, priority: 'high' },
      ]),
    );
    expect(invalid.errors[0]?.source).toEqual({ pointer: '/1/priority' });
    expect(await snapshot(store, zone.id)).toEqual(before);
  });
});

describe('FirewallRuleService.delete and deleteMany', () => {
  it('deletes one rule, keeping its filter unless asked', async () => {
    const { zone, rules, filters, filter } = await setup();
    const id = await filter(host('a'));
    const [r1, r2] = await rules.create(zone, [
      { action: 'block', filter: { id } },
      { action: 'allow', filter: { id } },
    ]);
    expect(await rules.delete(zone, r1?.id as string, { deleteFilterIfUnused: false })).toEqual(r1);
    expect((await rules.delete(zone, r2?.id as string, { deleteFilterIfUnused: true })).filter).toEqual({
      id,
      deleted: true,
    });
    expect((await filters.list(zone, {})).result).toEqual([]);
    expect(
      (await failure(() => rules.delete(zone, r1?.id as string, { deleteFilterIfUnused: false }))).kind,
    ).toBe('not-found');
  });

  it('deletes by ?id= or body, ignoring unknown ids, never deleting filters', async () => {
    const { zone, rules, filters, filter } = await setup();
    const id = await filter(host('a'));
    const [r1, r2, r3] = await rules.create(zone, [
      { action: 'block', filter: { id } },
      { action: 'allow', filter: { id } },
      { action: 'challenge', filter: { expression: host('b') } },
    ]);
    expect(await rules.deleteMany(zone, { id: [r1?.id as string, newId(), 'junk'] }, undefined)).toEqual([
      { id: r1?.id },
    ]);
    expect(await rules.deleteMany(zone, {}, [{ id: r2?.id }, { id: r3?.id }])).toEqual([
      { id: r2?.id },
      { id: r3?.id },
    ]);
    // Naming nothing deletes nothing (Cloudflare's documented answer).
    expect(await rules.deleteMany(zone, {}, undefined)).toEqual([]);
    expect((await rules.list(zone, {})).result).toEqual([]);
    // Both filters stay; the inline one is now an ordinary filter that can be deleted.
    expect((await filters.list(zone, {})).result.map((f) => f.expression)).toEqual([host('a'), host('b')]);
    expect(await filters.delete(zone, r3?.filter.id as string)).toEqual({ id: r3?.filter.id });
  });
});

// ——— robustness ———

/** Placeholders in generated bodies for the ids each run creates. */
const PLACEHOLDERS = ['@filter', '@rule'];

/** `value` with the placeholders replaced by real ids (arrays and plain objects are copied). */
function withIds(value: unknown, ids: readonly string[]): unknown {
  if (typeof value === 'string') {
    const index = PLACEHOLDERS.indexOf(value);
    return index === -1 ? value : ids[index];
  }
  if (Array.isArray(value)) return value.map((item) => withIds(item, ids));
  if (typeof value === 'object' && value !== null) {
    // fromEntries defines own properties: a generated "__proto__" key stays a plain key.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withIds(item, ids)]));
  }
  return value;
}

/** Bodies shaped like rules, with random values where the fields are, or anything at all. */
const ruleBodies: fc.Arbitrary<unknown> = (() => {
  const expression = fc.constantFrom(host('a'), host('new'), host('other'), 'ip.src eq 1.2.3', '');
  const filterValue = fc.oneof(
    fc.record({ id: fc.oneof(fc.constant('@filter'), fc.jsonValue()) }, { requiredKeys: [] }),
    fc.record(
      {
        expression: fc.oneof(expression, fc.jsonValue()),
        description: fc.jsonValue(),
        paused: fc.jsonValue(),
      },
      { requiredKeys: [] },
    ),
    fc.jsonValue(),
  );
  const good = fc.record(
    {
      id: fc.constantFrom('@rule', newId()),
      action: fc.oneof(
        fc.constantFrom('block', 'challenge', 'js_challenge', 'managed_challenge', 'allow', 'log', 'bypass'),
        fc.jsonValue(),
      ),
      filter: filterValue,
      priority: fc.oneof(fc.integer({ min: -2, max: 2 ** 31 }), fc.constant(null), fc.jsonValue()),
      paused: fc.oneof(fc.boolean(), fc.jsonValue()),
      description: fc.oneof(fc.string(), fc.jsonValue()),
      ref: fc.oneof(fc.string({ maxLength: 60 }), fc.jsonValue()),
      products: fc.oneof(fc.subarray(['waf', 'hot', 'bic', 'waf', 'cdn']), fc.jsonValue()),
    },
    { requiredKeys: [] },
  );
  const keyed = fc
    .array(
      fc.tuple(
        fc.constantFrom('id', 'action', 'filter', 'priority', 'products', '__proto__', 'constructor'),
        fc.oneof(fc.jsonValue(), fc.constantFrom(...PLACEHOLDERS)),
      ),
    )
    .map((entries) => Object.fromEntries(entries));
  // Mostly valid rules, so that successes, duplicates and the quota are reached too.
  const plausible = fc.record(
    {
      id: fc.constant('@rule'),
      action: fc.constantFrom('block', 'challenge', 'allow', 'log'),
      filter: fc.oneof(fc.constant({ id: '@filter' }), fc.record({ expression })),
      priority: fc.oneof(fc.nat(100), fc.constant(null)),
      description: fc.string({ maxLength: 20 }),
    },
    { requiredKeys: ['action', 'filter'] },
  );
  const element = fc.oneof(plausible, good, keyed, fc.anything());
  return fc.oneof(
    fc.anything(),
    fc.jsonValue(),
    good,
    keyed,
    { arbitrary: plausible, weight: 3 },
    { arbitrary: fc.array(element, { maxLength: 4 }), weight: 3 },
  );
})();

const METHODS = ['create', 'updateMany', 'editPriorities', 'update', 'edit', 'deleteMany'] as const;

describe('FirewallRuleService with arbitrary bodies', () => {
  it('either succeeds or throws a ServiceError; a failure changes nothing (but quota-created filters)', async () => {
    const outcomes = { succeeded: 0, failed: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Plan>('free', 'pro', 'business', 'enterprise'),
        fc.constantFrom(...METHODS),
        ruleBodies,
        fc.constantFrom(0, 2, 4),
        async (plan, method, generated, existing) => {
          const { store, zone, rules, filter } = await setup(plan);
          const filterId = await filter(host('a'));
          for (let i = 0; i < existing; i++)
            await rules.create(zone, { action: 'block', filter: { id: filterId } });
          const ruleId = first(
            await rules.create(zone, { action: 'block', filter: { expression: host('owned') } }),
          ).id;
          const body = withIds(generated, [filterId, ruleId]);
          const before = await snapshot(store, zone.id);
          try {
            if (method === 'create') await rules.create(zone, body);
            else if (method === 'updateMany') await rules.updateMany(zone, body);
            else if (method === 'editPriorities') await rules.editPriorities(zone, body);
            else if (method === 'update') await rules.update(zone, ruleId, body);
            else if (method === 'edit') await rules.edit(zone, ruleId, body);
            else await rules.deleteMany(zone, {}, body);
            outcomes.succeeded++;
          } catch (error) {
            if (!(error instanceof ServiceError)) throw error;
            outcomes.failed++;
            const after = await snapshot(store, zone.id);
            if (error.errors[0]?.code === CODES.ruleQuotaExceeded) {
              // The one documented exception: inline filters were created, each named in the error.
              expect(after.rules).toEqual(before.rules);
              expect(after.filters.slice(0, before.filters.length)).toEqual(before.filters);
              for (const created of after.filters.slice(before.filters.length)) {
                expect(created.createdWithRule).toBeNull();
                expect(error.errors[0]?.message).toContain(created.id);
              }
            } else {
              expect(after).toEqual(before);
            }
          } finally {
            await store.close();
          }
        },
      ),
      { numRuns: 600 },
    );
    // Both paths were exercised: the property is not vacuous.
    expect(outcomes.succeeded).toBeGreaterThan(10);
    expect(outcomes.failed).toBeGreaterThan(10);
  }, 60_000); // a store per run: slower than one test's default 5 s when suites run in parallel
});
