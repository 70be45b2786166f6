// The Rulesets service over a real SQLite store: every rule of validation (per phase, per plan, per action),
// positions, versions, managed rulesets, the WAF migration hook, dry runs, and that a refused write stores
// nothing. HTTP is tested in test/api/rulesets.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  CLOUDFLARE_MANAGED_RULESET_ID,
  cloudflareManagedRuleset,
  OWASP_ANOMALY_RULE_ID,
  OWASP_RULESET_ID,
  owaspCoreRuleset,
} from '../../src/engine/managed/index.js';
import type { Plan } from '../../src/scheme/profile.js';
import { CODES } from '../../src/service/errors.js';
import type { RulesetJson } from '../../src/service/rulesets/model.js';
import { RulesetService } from '../../src/service/rulesets/service.js';
import { readWafMigration, type WafMigrationHook } from '../../src/service/waf-migration-hook.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import type { Store, ZoneRecord } from '../../src/store/store.js';
import { failure, setup } from './fixtures.js';

const CUSTOM = 'http_request_firewall_custom';
const MANAGED = 'http_request_firewall_managed';
const RATELIMIT = 'http_ratelimit';
const CMR_RULE = cloudflareManagedRuleset.rules[0]?.id as string;
const OWASP_SCORING_RULE = owaspCoreRuleset.rules[0]?.id as string;
const ID = /^[0-9a-f]{32}$/;
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

async function service(plan: Plan = 'enterprise', hook?: WafMigrationHook) {
  const base = await setup(plan);
  const rulesets = new RulesetService(base.store, () => hook);
  return { ...base, rulesets };
}

/** Everything stored for the zone's rulesets, versions included. */
const stored = (store: Store, zone: ZoneRecord) =>
  store.transaction(async (tx) => {
    const rulesets = [];
    for (const header of await tx.rulesets.list(zone.id)) {
      const versions = [];
      for (const v of await tx.rulesets.versions(zone.id, header.id))
        versions.push(await tx.rulesets.getVersion(zone.id, header.id, v.version));
      rulesets.push({ header, versions });
    }
    return rulesets;
  });

/** The error of `run`, which must also leave the zone's rulesets as they were. */
async function refused(store: Store, zone: ZoneRecord, run: () => unknown) {
  const before = await stored(store, zone);
  const error = await failure(run);
  expect(await stored(store, zone)).toEqual(before);
  return error;
}

const block = (expression = 'ip.src eq 192.0.2.1', extra: object = {}) => ({
  action: 'block',
  expression,
  ...extra,
});
const execute = (id: string, extra: object = {}) => ({
  action: 'execute',
  expression: 'true',
  action_parameters: { id, ...extra },
});

/** A `code` error at `pointer` whose message contains `text`. */
function expectError(
  error: { errors: { code: number; message: string; source?: { pointer: string } }[] },
  code: number,
  pointer?: string,
  text?: string,
) {
  const [first] = error.errors;
  expect(first?.code).toBe(code);
  expect(first?.source?.pointer).toBe(pointer);
  if (text !== undefined) expect(first?.message).toContain(text);
}

describe('creating rulesets', () => {
  it('stores a custom ruleset at version 1 with generated rule ids, refs and times', async () => {
    const { rulesets, zone } = await service();
    const created = (await rulesets.create(zone, {
      name: 'mine',
      kind: 'custom',
      phase: CUSTOM,
      description: 'd',
      rules: [block(), block('http.host eq "a"', { ref: 'R1', enabled: false, description: 'x' })],
    })) as RulesetJson;
    expect(created).toMatchObject({
      name: 'mine',
      kind: 'custom',
      phase: CUSTOM,
      version: '1',
      description: 'd',
    });
    expect(created.id).toMatch(ID);
    expect(created.last_updated).toMatch(TIME);
    const [first, second] = created.rules ?? [];
    expect(first).toMatchObject({ version: '1', enabled: true, description: '', ref: first?.id });
    expect(first?.id).toMatch(ID);
    expect(first?.last_updated).toMatch(TIME);
    expect(second).toMatchObject({ ref: 'R1', enabled: false, description: 'x' });
    expect(await rulesets.get(zone, created.id)).toEqual(created);
  });

  it('creates an entry point with kind zone, once per phase', async () => {
    const { rulesets, store, zone } = await service();
    const entry = (await rulesets.create(zone, {
      name: 'ep',
      kind: 'zone',
      phase: RATELIMIT,
      rules: [],
    })) as RulesetJson;
    expect(await rulesets.getEntryPoint(zone, RATELIMIT)).toEqual(entry);
    const error = await refused(store, zone, () =>
      rulesets.create(zone, { name: 'again', kind: 'zone', phase: RATELIMIT }),
    );
    expect(error.errors).toEqual([
      {
        code: 20217,
        message:
          "'zone' is not a valid value for kind because exceeded maximum number of zone rulesets for phase http_ratelimit",
        source: { pointer: '/kind' },
      },
    ]);
  });

  it.each([
    [{ kind: 'custom', phase: CUSTOM }, CODES.invalidRulesetValue, '/name', 'name is required'],
    [
      { name: 'n', kind: 'managed', phase: MANAGED },
      CODES.invalidRulesetValue,
      '/kind',
      'managed rulesets come from Cloudflare',
    ],
    [
      { name: 'n', kind: 'root', phase: CUSTOM },
      CODES.invalidRulesetValue,
      '/kind',
      'root rulesets are the entry points of an account: create them under /accounts/{account_id}/rulesets',
    ],
    [
      { name: 'n', kind: 'other', phase: CUSTOM },
      CODES.invalidRulesetValue,
      '/kind',
      'kind "other" must be one of',
    ],
    [
      { name: 'n', kind: 'custom', phase: MANAGED },
      CODES.invalidRulesetValue,
      '/phase',
      'custom rulesets belong',
    ],
    [
      { name: 'n', kind: 'zone', phase: 'ddos_l7' },
      CODES.unsupportedPhase,
      '/phase',
      'cfrules keeps rulesets of',
    ],
    [{ name: 'n', kind: 'zone' }, CODES.invalidRulesetValue, '/phase', 'phase is required'],
    [
      { name: 'n', kind: 'zone', phase: CUSTOM, rules: {} },
      CODES.invalidRulesetValue,
      '/rules',
      'rules must be an array',
    ],
    [
      { name: 'n', kind: 'zone', phase: CUSTOM, colour: 'red' },
      CODES.invalidRulesetValue,
      '/colour',
      'not a field cfrules knows',
    ],
  ])('refuses %j', async (body, code, pointer, text) => {
    const { rulesets, store, zone } = await service();
    expectError(await refused(store, zone, () => rulesets.create(zone, body)), code, pointer, text);
  });

  it('refuses a body that is not an object', async () => {
    const { rulesets, store, zone } = await service();
    expectError(
      await refused(store, zone, () => rulesets.create(zone, [1])),
      CODES.invalidRulesetValue,
      undefined,
      'JSON object',
    );
  });
});

describe('each rule is checked for its phase and the zone plan', () => {
  const entry = async (plan: Plan, phase: string, rules: unknown[]) => {
    const { rulesets, store, zone } = await service(plan);
    return refused(store, zone, () => rulesets.putEntryPoint(zone, phase, { rules }));
  };

  it('actions: the phase must allow them', async () => {
    expectError(
      await entry('enterprise', CUSTOM, [execute(OWASP_RULESET_ID)]),
      20217,
      '/rules/0/action',
      'allows only block, challenge',
    );
    expectError(
      await entry('enterprise', MANAGED, [block()]),
      20217,
      '/rules/0/action',
      'allows only execute, skip',
    );
    expectError(
      await entry('enterprise', RATELIMIT, [{ action: 'skip', expression: 'true' }]),
      20217,
      '/rules/0/action',
    );
    expectError(
      await entry('enterprise', CUSTOM, [{ action: 'allow', expression: 'true' }]),
      20217,
      '/rules/0/action',
      'action "allow" must be one of',
    );
    expectError(
      await entry('enterprise', CUSTOM, [{ expression: 'true' }]),
      20217,
      '/rules/0/action',
      'action is required',
    );
  });

  it('the log action needs Enterprise', async () => {
    expectError(
      await entry('business', CUSTOM, [{ action: 'log', expression: 'true' }]),
      CODES.rulesetNotEntitled,
      '/rules/0/action',
      'Enterprise',
    );
    const { rulesets, zone } = await service('enterprise');
    expect(
      await rulesets.putEntryPoint(zone, CUSTOM, { rules: [{ action: 'log', expression: 'true' }] }),
    ).not.toBeNull();
  });

  it("expressions: Cloudflare's error text at the rule's expression, for the phase and the plan", async () => {
    const error = await entry('enterprise', CUSTOM, [block(), block('ip.src eq')]);
    expectError(error, 20217, '/rules/1/expression');
    expect(error.errors[0]?.message).toBe(
      "'ip.src eq' is not a valid value for expression because the expression is invalid: Filter parsing error (1:10):\nip.src eq\n         ^ expected IP address character\n",
    );
    // `matches` needs Business; response fields are not in the custom phase.
    expectError(
      await entry('pro', CUSTOM, [block('http.host matches "a"')]),
      20217,
      '/rules/0/expression',
      'Filter parsing error',
    );
    expectError(
      await entry('enterprise', CUSTOM, [block('http.response.code eq 403')]),
      20217,
      '/rules/0/expression',
    );
    expectError(
      await entry('enterprise', CUSTOM, [{ action: 'block' }]),
      20217,
      '/rules/0/expression',
      'expression is required',
    );
    expectError(
      await entry('enterprise', CUSTOM, [block('x'.repeat(4097))]),
      20217,
      '/rules/0/expression',
      'too long',
    );
  });

  it('unknown members of a rule are refused; read-only ones sent back are ignored', async () => {
    expectError(
      await entry('enterprise', CUSTOM, [block(undefined, { enable: false })]),
      20217,
      '/rules/0/enable',
    );
    const { rulesets, zone } = await service();
    const result = (await rulesets.putEntryPoint(zone, CUSTOM, {
      rules: [block(undefined, { version: '9', last_updated: 'x', categories: [] })],
    })) as RulesetJson;
    expect(result.rules?.[0]?.version).toBe('1');
  });

  it('block parameters: a custom response, whole', async () => {
    const response = { status_code: 403, content: '{"no":1}', content_type: 'application/json' };
    const { rulesets, zone } = await service();
    const result = (await rulesets.putEntryPoint(zone, CUSTOM, {
      rules: [block(undefined, { action_parameters: { response } })],
    })) as RulesetJson;
    expect(result.rules?.[0]?.action_parameters).toEqual({ response });
    expectError(
      await entry('enterprise', CUSTOM, [
        block(undefined, { action_parameters: { response: { ...response, status_code: 200 } } }),
      ]),
      20217,
      '/rules/0/action_parameters/response/status_code',
    );
    expectError(
      await entry('enterprise', CUSTOM, [
        block(undefined, { action_parameters: { response: { ...response, content_type: 'image/png' } } }),
      ]),
      20217,
      '/rules/0/action_parameters/response/content_type',
    );
    expectError(
      await entry('enterprise', CUSTOM, [block(undefined, { action_parameters: { id: 'x' } })]),
      20217,
      '/rules/0/action_parameters/id',
    );
  });

  it('challenges and log take no parameters (an empty object is none)', async () => {
    expectError(
      await entry('enterprise', CUSTOM, [
        { action: 'managed_challenge', expression: 'true', action_parameters: { response: {} } },
      ]),
      20217,
      '/rules/0/action_parameters/response',
    );
    const { rulesets, zone } = await service();
    const result = (await rulesets.putEntryPoint(zone, CUSTOM, {
      rules: [{ action: 'js_challenge', expression: 'true', action_parameters: {} }],
    })) as RulesetJson;
    expect(result.rules?.[0]).not.toHaveProperty('action_parameters');
  });

  it('execute: catalogue rulesets only, from the Pro plan', async () => {
    expectError(
      await entry('enterprise', MANAGED, [execute('0'.repeat(32))]),
      20217,
      '/rules/0/action_parameters/id',
      'not a managed ruleset cfrules knows',
    );
    expectError(
      await entry('enterprise', MANAGED, [{ action: 'execute', expression: 'true' }]),
      20217,
      '/rules/0/action_parameters',
      'required',
    );
    expectError(
      await entry('free', MANAGED, [execute(CLOUDFLARE_MANAGED_RULESET_ID, {})]),
      CODES.rulesetNotEntitled,
      '/rules/0/action_parameters/id',
      'Pro plan',
    );
    expectError(
      await entry('enterprise', MANAGED, [execute(OWASP_RULESET_ID, { version: '2' })]),
      20217,
      '/rules/0/action_parameters/version',
    );
  });

  it('execute overrides name rules and categories of the executed ruleset only', async () => {
    const overrides = (value: object) => [execute(OWASP_RULESET_ID, { overrides: value })];
    expectError(
      await entry('enterprise', MANAGED, overrides({ rules: [{ id: CMR_RULE, enabled: false }] })),
      20217,
      '/rules/0/action_parameters/overrides/rules/0/id',
      'has no such rule',
    );
    expectError(
      await entry(
        'enterprise',
        MANAGED,
        overrides({ categories: [{ category: 'wordpress', enabled: false }] }),
      ),
      20217,
      '/rules/0/action_parameters/overrides/categories/0/category',
      'no rule in this category',
    );
    expectError(
      await entry(
        'enterprise',
        MANAGED,
        overrides({ rules: [{ id: OWASP_SCORING_RULE, score_threshold: 25 }] }),
      ),
      20217,
      '/rules/0/action_parameters/overrides/rules/0/score_threshold',
      'anomaly rule',
    );
    expectError(
      await entry('enterprise', MANAGED, overrides({ rules: [{ id: OWASP_ANOMALY_RULE_ID }] })),
      20217,
      '/rules/0/action_parameters/overrides/rules/0/id',
      'must set',
    );
    expectError(
      await entry(
        'enterprise',
        MANAGED,
        overrides({
          categories: [
            { category: 'attack-xss', enabled: false },
            { category: 'attack-xss', action: 'log' },
          ],
        }),
      ),
      20217,
      '/rules/0/action_parameters/overrides/categories/1/category',
      'twice',
    );
    expectError(
      await entry('enterprise', MANAGED, overrides({ action: 'allow' })),
      20217,
      '/rules/0/action_parameters/overrides/action',
    );
    expectError(
      await entry('enterprise', MANAGED, overrides({ rules: [] })),
      20217,
      '/rules/0/action_parameters/overrides/rules',
      'at least one',
    );
    expectError(
      await entry('enterprise', MANAGED, overrides({ sensitivity_level: 'high' })),
      20217,
      '/rules/0/action_parameters/overrides/sensitivity_level',
    );

    const { rulesets, zone } = await service();
    const valid = {
      action: 'log',
      enabled: true,
      sensitivity_level: 'low',
      categories: [{ category: 'paranoia-level-3', enabled: false }],
      rules: [{ id: OWASP_ANOMALY_RULE_ID, score_threshold: 25, action: 'managed_challenge' }],
    };
    const result = (await rulesets.putEntryPoint(zone, MANAGED, { rules: overrides(valid) })) as RulesetJson;
    expect(result.rules?.[0]?.action_parameters).toEqual({ id: OWASP_RULESET_ID, overrides: valid });
  });

  it('skip: something to skip, as the phase allows', async () => {
    const skip = (parameters: unknown) => [
      { action: 'skip', expression: 'true', action_parameters: parameters },
    ];
    expectError(
      await entry('enterprise', CUSTOM, skip({})),
      20217,
      '/rules/0/action_parameters',
      'skips nothing',
    );
    expectError(
      await entry('enterprise', CUSTOM, skip({ ruleset: 'other' })),
      20217,
      '/rules/0/action_parameters/ruleset',
    );
    expectError(
      await entry('enterprise', CUSTOM, skip({ rulesets: [OWASP_RULESET_ID] })),
      20217,
      '/rules/0/action_parameters/rulesets',
    );
    expectError(
      await entry('enterprise', MANAGED, skip({ products: ['waf'] })),
      20217,
      '/rules/0/action_parameters/products',
    );
    expectError(
      await entry('enterprise', MANAGED, skip({ rules: { [OWASP_RULESET_ID]: [CMR_RULE] } })),
      20217,
      `/rules/0/action_parameters/rules/${OWASP_RULESET_ID}/0`,
      'has no such rule',
    );
    expectError(
      await entry('enterprise', MANAGED, skip({ rules: { ['1'.repeat(32)]: [CMR_RULE] } })),
      20217,
      `/rules/0/action_parameters/rules/${'1'.repeat(32)}`,
    );
    expectError(
      await entry('enterprise', CUSTOM, [block(undefined, { logging: { enabled: false } })]),
      20217,
      '/rules/0/logging',
      'skip action',
    );

    const { rulesets, zone } = await service();
    const custom = (await rulesets.putEntryPoint(zone, CUSTOM, {
      rules: [
        {
          ...skip({ ruleset: 'current', phases: [MANAGED], products: ['waf'] })[0],
          logging: { enabled: false },
        },
      ],
    })) as RulesetJson;
    expect(custom.rules?.[0]).toMatchObject({
      action_parameters: { ruleset: 'current', phases: [MANAGED], products: ['waf'] },
      logging: { enabled: false },
    });
    const managed = (await rulesets.putEntryPoint(zone, MANAGED, {
      rules: skip({ rulesets: [OWASP_RULESET_ID], rules: { [CLOUDFLARE_MANAGED_RULESET_ID]: [CMR_RULE] } }),
    })) as RulesetJson;
    expect(managed.rules?.[0]?.action_parameters).toEqual({
      rulesets: [OWASP_RULESET_ID],
      rules: { [CLOUDFLARE_MANAGED_RULESET_ID]: [CMR_RULE] },
    });
  });

  it('rate limiting rules: a ratelimit object in their phase only', async () => {
    const limit = {
      characteristics: ['ip.src', 'cf.colo.id'],
      period: 60,
      requests_per_period: 100,
      mitigation_timeout: 600,
    };
    const rule = (ratelimit: unknown) => [block(undefined, { ratelimit })];
    expectError(await entry('enterprise', RATELIMIT, [block()]), 20217, '/rules/0/ratelimit', 'required');
    expectError(
      await entry('enterprise', CUSTOM, rule(limit)),
      20217,
      '/rules/0/ratelimit',
      'http_ratelimit phase',
    );
    expectError(
      await entry('enterprise', RATELIMIT, rule({ ...limit, characteristics: ['ip.src'] })),
      20217,
      '/rules/0/ratelimit/characteristics',
      'cf.colo.id',
    );
    expectError(
      await entry(
        'pro',
        RATELIMIT,
        rule({ ...limit, characteristics: ['cf.colo.id', 'http.request.headers["x-key"]'] }),
      ),
      20217,
      '/rules/0/ratelimit/characteristics/1',
      'Pro plan',
    );
    expectError(
      await entry('enterprise', RATELIMIT, rule({ ...limit, period: 30 })),
      20217,
      '/rules/0/ratelimit/period',
    );
    expectError(
      await entry('enterprise', RATELIMIT, rule({ ...limit, requests_per_period: undefined })),
      20217,
      '/rules/0/ratelimit/requests_per_period',
    );
    expectError(
      await entry('enterprise', RATELIMIT, rule({ ...limit, counting_expression: 'http.response.code eq' })),
      20217,
      '/rules/0/ratelimit/counting_expression',
      'Filter parsing error',
    );

    const { rulesets, zone } = await service('enterprise');
    const full = {
      ...limit,
      characteristics: ['cf.colo.id', 'http.request.headers["x-key"]'],
      counting_expression: 'http.response.code eq 401',
      requests_to_origin: true,
    };
    const result = (await rulesets.putEntryPoint(zone, RATELIMIT, { rules: rule(full) })) as RulesetJson;
    expect(result.rules?.[0]?.ratelimit).toEqual(full);
  });

  it('rule quotas by phase and plan', async () => {
    const limit = { characteristics: ['ip.src', 'cf.colo.id'], period: 10, requests_per_period: 5 };
    const rules = [block(undefined, { ratelimit: limit }), block('true', { ratelimit: limit })];
    expectError(
      await entry('free', RATELIMIT, rules),
      CODES.rulesetRuleQuotaExceeded,
      '/rules',
      'allows 1 rules',
    );
    const { rulesets, zone } = await service('free');
    expect(await rulesets.putEntryPoint(zone, RATELIMIT, { rules: rules.slice(0, 1) })).not.toBeNull();
  });

  it('refs are unique in a ruleset', async () => {
    expectError(
      await entry('enterprise', CUSTOM, [block('true', { ref: 'a' }), block(undefined, { ref: 'a' })]),
      20217,
      '/rules/1/ref',
      'another rule',
    );
  });
});

describe('positions, edits and deletes of rules', () => {
  async function withRules(count: number) {
    const base = await service();
    const ruleset = (await base.rulesets.create(base.zone, {
      name: 'r',
      kind: 'custom',
      phase: CUSTOM,
      rules: Array.from({ length: count }, (_, i) => block(`http.host eq "h${i}"`)),
    })) as RulesetJson;
    const ids = (ruleset.rules ?? []).map((rule) => rule.id);
    const order = async () =>
      ((await base.rulesets.get(base.zone, ruleset.id)).rules ?? []).map((rule) => rule.id);
    return { ...base, ruleset, ids, order };
  }

  it.each([
    [undefined, [0, 1, 2, 'new']],
    [{ before: '' }, ['new', 0, 1, 2]],
    [{ after: '' }, [0, 1, 2, 'new']],
    [{ before: 1 }, [0, 'new', 1, 2]],
    [{ after: 1 }, [0, 1, 'new', 2]],
    [{ index: 1 }, ['new', 0, 1, 2]],
    [{ index: 3 }, [0, 1, 'new', 2]],
    [{ index: 4 }, [0, 1, 2, 'new']],
  ])('adds a rule at %j', async (position, expected) => {
    const { rulesets, zone, ruleset, ids, order } = await withRules(3);
    const resolved =
      position === undefined
        ? undefined
        : Object.fromEntries(
            Object.entries(position).map(([k, v]) => [
              k,
              typeof v === 'number' && k !== 'index' ? ids[v] : v,
            ]),
          );
    const after = (await rulesets.addRule(zone, ruleset.id, {
      ...block('true'),
      position: resolved,
    })) as RulesetJson;
    expect(after.version).toBe('2');
    const added = after.rules?.find((rule) => !ids.includes(rule.id))?.id;
    expect(await order()).toEqual(expected.map((item) => (item === 'new' ? added : ids[item as number])));
  });

  it.each([
    [{ index: 5 }, '/position/index', 'from 1 to 4'],
    [{ index: 0 }, '/position/index', 'integer from 1'],
    [{ before: 'f'.repeat(32) }, '/position/before', 'not the id of another rule'],
    [{ before: '', after: '' }, '/position', 'exactly one'],
    [{}, '/position', 'exactly one'],
    [{ at: 1 }, '/position/at', 'not a field'],
  ])('refuses position %j', async (position, pointer, text) => {
    const { rulesets, store, zone, ruleset } = await withRules(3);
    expectError(
      await refused(store, zone, () => rulesets.addRule(zone, ruleset.id, { ...block('true'), position })),
      20217,
      pointer,
      text,
    );
  });

  it('a new rule never takes an id from the body', async () => {
    const { rulesets, store, zone, ruleset } = await withRules(1);
    expectError(
      await refused(store, zone, () =>
        rulesets.addRule(zone, ruleset.id, { ...block('true'), id: 'a'.repeat(32) }),
      ),
      20217,
      '/id',
    );
  });

  it('editing: a changed rule moves to its next version; a move alone keeps it', async () => {
    const { rulesets, zone, ruleset, ids, order } = await withRules(3);
    const moved = (await rulesets.editRule(zone, ruleset.id, ids[2] as string, {
      position: { index: 1 },
    })) as RulesetJson;
    expect(moved.version).toBe('2');
    expect(await order()).toEqual([ids[2], ids[0], ids[1]]);
    expect(moved.rules?.[0]).toEqual(ruleset.rules?.[2]);

    const edited = (await rulesets.editRule(zone, ruleset.id, ids[0] as string, {
      enabled: false,
    })) as RulesetJson;
    expect(edited.version).toBe('3');
    const rule = edited.rules?.find((r) => r.id === ids[0]);
    expect(rule).toMatchObject({ version: '2', enabled: false, expression: 'http.host eq "h0"' });
    expect(rule?.last_updated).not.toBe(ruleset.rules?.[0]?.last_updated);
  });

  it('editing the action drops the parameters of the old one', async () => {
    const { rulesets, zone } = await service();
    const entry = (await rulesets.putEntryPoint(zone, CUSTOM, {
      rules: [
        {
          action: 'skip',
          expression: 'true',
          action_parameters: { ruleset: 'current' },
          logging: { enabled: true },
        },
      ],
    })) as RulesetJson;
    const id = entry.rules?.[0]?.id as string;
    const after = (await rulesets.editRule(zone, entry.id, id, { action: 'block' })) as RulesetJson;
    expect(after.rules?.[0]).toMatchObject({ action: 'block', version: '2' });
    expect(after.rules?.[0]).not.toHaveProperty('action_parameters');
    expect(after.rules?.[0]).not.toHaveProperty('logging');
  });

  it('refuses edits that are invalid or name another rule', async () => {
    const { rulesets, store, zone, ruleset, ids } = await withRules(2);
    const id = ids[0] as string;
    expectError(
      await refused(store, zone, () => rulesets.editRule(zone, ruleset.id, id, { expression: 'ip.src eq' })),
      20217,
      '/expression',
    );
    expectError(
      await refused(store, zone, () => rulesets.editRule(zone, ruleset.id, id, { id: ids[1] })),
      20217,
      '/id',
    );
    expectError(
      await refused(store, zone, () => rulesets.editRule(zone, ruleset.id, id, { position: { after: id } })),
      20217,
      '/position/after',
    );
    const missing = await refused(store, zone, () => rulesets.editRule(zone, ruleset.id, 'f'.repeat(32), {}));
    expect(missing.kind).toBe('not-found');
    expectError(missing, CODES.rulesetRuleNotFound);
  });

  it('deleting a rule makes the next version', async () => {
    const { rulesets, zone, ruleset, ids, order } = await withRules(2);
    const after = (await rulesets.deleteRule(zone, ruleset.id, ids[0] as string)) as RulesetJson;
    expect(after.version).toBe('2');
    expect(await order()).toEqual([ids[1]]);
    expectError(
      await failure(() => rulesets.deleteRule(zone, ruleset.id, ids[0] as string)),
      CODES.rulesetRuleNotFound,
    );
  });
});

describe('replacing a ruleset (PUT)', () => {
  it('keeps ids, versions and refs of rules sent back unchanged; changes the others', async () => {
    const { rulesets, zone } = await service();
    const first = (await rulesets.putEntryPoint(zone, CUSTOM, {
      rules: [block(), block('true', { ref: 'keep' })],
    })) as RulesetJson;
    const [a, b] = first.rules ?? [];
    const second = (await rulesets.putEntryPoint(zone, CUSTOM, {
      name: 'default',
      description: 'now described',
      rules: [{ ...b, ref: undefined }, { ...a, description: 'changed' }, block('http.host eq "new"')],
    })) as RulesetJson;
    expect(second).toMatchObject({ version: '2', description: 'now described', id: first.id });
    expect(second.rules?.[0]).toEqual(b);
    expect(second.rules?.[1]).toMatchObject({ id: a?.id, version: '2', description: 'changed', ref: a?.ref });
    expect(second.rules?.[2]?.version).toBe('1');
    // Without `rules`, the rules stay.
    expect(((await rulesets.update(zone, first.id, { description: '' })) as RulesetJson).rules).toEqual(
      second.rules,
    );
  });

  it('refuses unknown or repeated rule ids, and changes of name, kind or phase', async () => {
    const { rulesets, store, zone } = await service();
    const entry = (await rulesets.putEntryPoint(zone, CUSTOM, { rules: [block()] })) as RulesetJson;
    const id = entry.rules?.[0]?.id;
    expectError(
      await refused(store, zone, () =>
        rulesets.update(zone, entry.id, { rules: [{ ...block(), id: 'e'.repeat(32) }] }),
      ),
      20217,
      '/rules/0/id',
      'not the id of a rule',
    );
    expectError(
      await refused(store, zone, () =>
        rulesets.update(zone, entry.id, {
          rules: [
            { ...block(), id },
            { ...block('true'), id },
          ],
        }),
      ),
      20217,
      '/rules/1/id',
      'twice',
    );
    expectError(
      await refused(store, zone, () => rulesets.update(zone, entry.id, { name: 'other' })),
      20217,
      '/name',
      'cannot change',
    );
    expectError(
      await refused(store, zone, () => rulesets.update(zone, entry.id, { kind: 'custom' })),
      20217,
      '/kind',
    );
    expectError(
      await refused(store, zone, () => rulesets.putEntryPoint(zone, CUSTOM, { phase: MANAGED })),
      20217,
      '/phase',
    );
  });

  it('accepts the empty id, version and ref of a rule template (the WAF migration config)', async () => {
    const { rulesets, zone } = await service();
    const result = (await rulesets.putEntryPoint(zone, MANAGED, {
      name: 'default',
      rules: [
        {
          id: '',
          version: '',
          ref: '',
          ...execute(CLOUDFLARE_MANAGED_RULESET_ID),
          description: '',
          enabled: true,
        },
      ],
    })) as RulesetJson;
    expect(result.rules?.[0]?.id).toMatch(ID);
    expect(result.rules?.[0]?.ref).toBe(result.rules?.[0]?.id);
  });
});

describe('versions', () => {
  it('lists, reads and deletes earlier versions; the latest stays', async () => {
    const { rulesets, store, zone } = await service();
    const v1 = (await rulesets.putEntryPoint(zone, CUSTOM, { rules: [block()] })) as RulesetJson;
    const v2 = (await rulesets.putEntryPoint(zone, CUSTOM, { rules: [] })) as RulesetJson;
    const v3 = (await rulesets.addRule(zone, v1.id, block('true'))) as RulesetJson;
    expect((await rulesets.versions(zone, v1.id)).map((v) => v.version)).toEqual(['1', '2', '3']);
    expect((await rulesets.versions(zone, v1.id))[0]).not.toHaveProperty('rules');
    expect(await rulesets.version(zone, v1.id, '1')).toEqual(v1);
    expect(await rulesets.entryPointVersion(zone, CUSTOM, '2')).toEqual(v2);
    expect(await rulesets.entryPointVersions(zone, CUSTOM)).toHaveLength(3);

    await rulesets.deleteVersion(zone, v1.id, '2');
    expect((await rulesets.versions(zone, v1.id)).map((v) => v.version)).toEqual(['1', '3']);
    expectError(await failure(() => rulesets.version(zone, v1.id, '2')), CODES.rulesetVersionNotFound);
    expectError(
      await refused(store, zone, () => rulesets.deleteVersion(zone, v1.id, '3')),
      CODES.latestVersionNotDeletable,
    );
    expectError(
      await refused(store, zone, () => rulesets.deleteVersion(zone, v1.id, 'x')),
      CODES.rulesetVersionNotFound,
    );
    expect(await rulesets.get(zone, v1.id)).toEqual(v3);
    // The next version after a deleted one still counts up.
    expect(
      ((await rulesets.deleteRule(zone, v1.id, v3.rules?.[0]?.id as string)) as RulesetJson).version,
    ).toBe('4');
  });

  it('deleting a ruleset deletes every version, and its phase has no entry point again', async () => {
    const { rulesets, zone } = await service();
    const entry = (await rulesets.putEntryPoint(zone, CUSTOM, { rules: [] })) as RulesetJson;
    await rulesets.delete(zone, entry.id);
    expectError(await failure(() => rulesets.get(zone, entry.id)), CODES.rulesetNotFound);
    expectError(await failure(() => rulesets.getEntryPoint(zone, CUSTOM)), CODES.entryPointNotFound);
    expectError(await failure(() => rulesets.entryPointVersions(zone, CUSTOM)), CODES.entryPointNotFound);
    expectError(await failure(() => rulesets.versions(zone, entry.id)), CODES.rulesetNotFound);
    expectError(await failure(() => rulesets.delete(zone, entry.id)), CODES.rulesetNotFound);
  });
});

describe('managed rulesets', () => {
  it('are listed first, kind managed, without rules; read whole by id', async () => {
    const { rulesets, zone } = await service();
    const { result } = await rulesets.list(zone, {});
    expect(result.map((r) => [r.id, r.kind])).toEqual([
      [CLOUDFLARE_MANAGED_RULESET_ID, 'managed'],
      [OWASP_RULESET_ID, 'managed'],
    ]);
    expect(result[0]).not.toHaveProperty('rules');
    const owasp = await rulesets.get(zone, OWASP_RULESET_ID);
    expect(owasp.rules).toHaveLength(owaspCoreRuleset.rules.length);
    expect(owasp.rules?.find((r) => r.id === OWASP_ANOMALY_RULE_ID)).toMatchObject({
      score_threshold: 40,
      action: 'block',
    });
    expect(owasp.rules?.[0]?.categories).toContain('paranoia-level-1');
    expect((await rulesets.versions(zone, OWASP_RULESET_ID)).map((v) => v.version)).toEqual(['1']);
    expect(await rulesets.version(zone, OWASP_RULESET_ID, '1')).toEqual(owasp);
  });

  it('are read-only', async () => {
    const { rulesets, store, zone } = await service();
    for (const write of [
      () => rulesets.update(zone, OWASP_RULESET_ID, { description: 'x' }),
      () => rulesets.delete(zone, OWASP_RULESET_ID),
      () => rulesets.addRule(zone, CLOUDFLARE_MANAGED_RULESET_ID, block()),
      () => rulesets.editRule(zone, CLOUDFLARE_MANAGED_RULESET_ID, CMR_RULE, { enabled: false }),
      () => rulesets.deleteRule(zone, CLOUDFLARE_MANAGED_RULESET_ID, CMR_RULE),
      () => rulesets.deleteVersion(zone, OWASP_RULESET_ID, '1'),
    ]) {
      const error = await refused(store, zone, write);
      expect(error.kind).toBe('forbidden');
      expectError(error, CODES.managedRulesetReadOnly, undefined, 'managed ruleset');
    }
  });
});

describe('the managed phase before the WAF migration', () => {
  const enabledRules = { rules: [execute(CLOUDFLARE_MANAGED_RULESET_ID)] };
  const disabledRules = { rules: [{ ...execute(CLOUDFLARE_MANAGED_RULESET_ID), enabled: false }] };

  it.each(['pro', 'business'] as const)('%s zones store disabled rules only', async (plan) => {
    const { rulesets, store, zone } = await service(plan);
    expectError(
      await refused(store, zone, () => rulesets.putEntryPoint(zone, MANAGED, enabledRules)),
      CODES.managedRulesNeedMigration,
      '/rules/0/enabled',
      'waf_migration=pending',
    );
    const entry = (await rulesets.putEntryPoint(zone, MANAGED, disabledRules)) as RulesetJson;
    expectError(
      await refused(store, zone, () =>
        rulesets.editRule(zone, entry.id, entry.rules?.[0]?.id as string, { enabled: true }),
      ),
      CODES.managedRulesNeedMigration,
      '/enabled',
    );
  });

  it('Enterprise zones deploy enabled rules without migrating', async () => {
    const { rulesets, zone } = await service('enterprise');
    expect(
      ((await rulesets.putEntryPoint(zone, MANAGED, enabledRules)) as RulesetJson).rules?.[0]?.enabled,
    ).toBe(true);
  });

  it('without a migration hook, waf_migration is refused and nothing is stored', async () => {
    const { rulesets, store, zone } = await service('pro');
    const wafMigration = readWafMigration({ waf_migration: 'pending', phase_two: '1' });
    expectError(
      await refused(store, zone, () =>
        rulesets.putEntryPoint(zone, MANAGED, disabledRules, { wafMigration }),
      ),
      CODES.wafMigrationUnavailable,
      undefined,
      'not available',
    );
  });

  it('with a hook, the write goes through it, in its transaction, and may hold enabled rules', async () => {
    const calls: unknown[] = [];
    const hook: WafMigrationHook = {
      async onEntryPointUpdate(zone, mode, write, tx) {
        calls.push([zone.id, mode]);
        expect(await tx.rulesets.entryPoint(zone.id, MANAGED)).toBeUndefined();
        return write();
      },
    };
    const { rulesets, zone } = await service('business', hook);
    const wafMigration = readWafMigration({ waf_migration: '2', phase_two: '1' });
    const result = (await rulesets.putEntryPoint(zone, MANAGED, enabledRules, {
      wafMigration,
    })) as RulesetJson;
    expect(result.rules?.[0]?.enabled).toBe(true);
    expect(calls).toEqual([[zone.id, { mode: 'validation', phaseTwo: true }]]);
    expect(await rulesets.getEntryPoint(zone, MANAGED)).toEqual(result);
  });

  it('a hook that refuses, after writing, leaves nothing stored', async () => {
    const hook: WafMigrationHook = {
      async onEntryPointUpdate(_zone, _mode, write) {
        await write();
        throw new Error('not eligible');
      },
    };
    const { rulesets, store, zone } = await service('pro', hook);
    const wafMigration = readWafMigration({ waf_migration: 'pending' });
    await expect(rulesets.putEntryPoint(zone, MANAGED, enabledRules, { wafMigration })).rejects.toThrow(
      'not eligible',
    );
    expect(await stored(store, zone)).toEqual([]);
  });

  it('once the hook says the zone migrated, enabled rules need no parameter', async () => {
    const isMigrated = vi.fn(async () => true);
    const { rulesets, zone } = await service('pro', {
      onEntryPointUpdate: async () => {
        throw new Error('unused');
      },
      isMigrated,
    });
    expect(await rulesets.putEntryPoint(zone, MANAGED, enabledRules)).not.toBeNull();
    expect(isMigrated).toHaveBeenCalled();
  });

  it('reads waf_migration and phase_two from the query', async () => {
    expect(readWafMigration({})).toBeUndefined();
    expect(readWafMigration({ waf_migration: '1' })).toEqual({ mode: 'pending', phaseTwo: false });
    expect(readWafMigration({ waf_migration: 'validation', phase_two: '1' })).toEqual({
      mode: 'validation',
      phaseTwo: true,
    });
    for (const query of [
      { waf_migration: '3' },
      { phase_two: '1' },
      { waf_migration: '1', phase_two: 'x' },
      { waf_migration: ['1', '2'] },
    ]) {
      expectError(await failure(() => readWafMigration(query)), CODES.invalidQuery);
    }
  });

  it('waf_migration applies to the managed entry point only', async () => {
    const { rulesets, zone } = await service('pro');
    expectError(
      await failure(() =>
        rulesets.putEntryPoint(
          zone,
          CUSTOM,
          { rules: [] },
          { wafMigration: { mode: 'pending', phaseTwo: true } },
        ),
      ),
      CODES.invalidQuery,
    );
  });
});

describe('lists, dry runs, phases and persistence', () => {
  it('pages the list with a cursor', async () => {
    const { rulesets, zone } = await service();
    const ids = [CLOUDFLARE_MANAGED_RULESET_ID, OWASP_RULESET_ID];
    for (let i = 0; i < 3; i++)
      ids.push(
        ((await rulesets.create(zone, { name: `r${i}`, kind: 'custom', phase: CUSTOM })) as RulesetJson).id,
      );
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await rulesets.list(zone, { per_page: '2', ...(cursor === undefined ? {} : { cursor }) });
      seen.push(...page.result.map((r) => r.id));
      cursor = page.resultInfo.cursor;
    } while (cursor !== undefined);
    expect(seen).toEqual(ids);
    expectError(await failure(() => rulesets.list(zone, { per_page: '0' })), CODES.invalidQuery);
    expectError(await failure(() => rulesets.list(zone, { cursor: 'nope' })), CODES.invalidQuery);
  });

  it('a dry run checks everything and stores nothing', async () => {
    const { rulesets, store, zone } = await service();
    const query = { dry_run: 'true' };
    expect(await rulesets.putEntryPoint(zone, CUSTOM, { rules: [block()] }, { query })).toBeNull();
    expect(await stored(store, zone)).toEqual([]);
    expectError(
      await failure(() => rulesets.putEntryPoint(zone, CUSTOM, { rules: [block('ip.src eq')] }, { query })),
      20217,
      '/rules/0/expression',
    );
  });

  it('entry points of phases cfrules does not keep are refused', async () => {
    const { rulesets, zone } = await service();
    expectError(
      await failure(() => rulesets.getEntryPoint(zone, 'http_request_sbfm')),
      CODES.unsupportedPhase,
    );
    expectError(
      await failure(() => rulesets.putEntryPoint(zone, 'nonsense', { rules: [] })),
      CODES.unsupportedPhase,
    );
  });

  it('rulesets and their versions survive closing and reopening the database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfrules-rulesets-'));
    try {
      const path = join(dir, 'db.sqlite');
      const { zone } = await service();
      let store = openSqliteStore(path);
      await store.transaction(async (tx) => {
        await tx.accounts.put({
          id: zone.accountId,
          name: 't',
          email: 't@example.com',
          apiKeyHash: null,
          createdOn: zone.createdOn,
        });
        await tx.zones.insert(zone);
      });
      let rulesets = new RulesetService(store);
      await rulesets.putEntryPoint(zone, CUSTOM, { rules: [block()] });
      const latest = await rulesets.putEntryPoint(zone, CUSTOM, { rules: [block('true', { ref: 'x' })] });
      await store.close();

      store = openSqliteStore(path);
      rulesets = new RulesetService(store);
      expect(await rulesets.getEntryPoint(zone, CUSTOM)).toEqual(latest);
      expect(await rulesets.versions(zone, (latest as RulesetJson).id)).toHaveLength(2);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('deleting the zone deletes its rulesets', async () => {
    const { rulesets, store, zone } = await service();
    await rulesets.putEntryPoint(zone, CUSTOM, { rules: [block()] });
    await store.transaction((tx) => tx.zones.delete(zone.id));
    expect(await store.transaction((tx) => tx.rulesets.list(zone.id))).toEqual([]);
  });
});
