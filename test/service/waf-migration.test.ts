// The WAF migration as a service (docs/api.md §7): the check, the generated configuration and the state
// machine behind the managed entry point's PUT with `waf_migration`. Test names quote the rows of the
// spec's tables they cover (plans, what is migrated, OWASP sensitivity, states and transitions, limits).
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/check/validate.js';
import {
  CLOUDFLARE_MANAGED_RULESET_ID,
  cloudflareManagedRuleset,
  OWASP_ANOMALY_RULE_ID,
  OWASP_RULESET_ID,
} from '../../src/engine/managed/index.js';
import {
  CLOUDFLARE_PACKAGE_ID,
  MIGRATION_MAPPING,
  OWASP_PACKAGE_ID,
  PREVIOUS_WAF_GROUPS,
  PREVIOUS_WAF_RULES,
} from '../../src/engine/previous-waf/index.js';
import type { Plan } from '../../src/scheme/profile.js';
import { CODES } from '../../src/service/errors.js';
import { PageRuleService } from '../../src/service/page-rules.js';
import { PreviousWafService } from '../../src/service/previous-waf.js';
import type { RulesetJson } from '../../src/service/rulesets/model.js';
import { WafMigrationService } from '../../src/service/waf-migration.js';
import type { ConfigRule } from '../../src/service/waf-migration-config.js';
import type { WafMigrationMode } from '../../src/service/waf-migration-hook.js';
import { WafOverrideService } from '../../src/service/waf-overrides.js';
import type { StoreTransaction } from '../../src/store/store.js';
import { failure, setup } from './fixtures.js';

async function zoneOn(plan: Plan) {
  const base = await setup(plan);
  const { store } = base;
  const migration = new WafMigrationService(store);
  const waf = new PreviousWafService(store);
  const overrides = new WafOverrideService(store);
  const pageRules = new PageRuleService(store);
  /** A fake entry-point write: records that it ran, in the migration's transaction. */
  const writes: string[] = [];
  const entryPoint = { name: 'entry point' } as RulesetJson;
  const write = async (_tx: StoreTransaction): Promise<RulesetJson> => {
    writes.push('written');
    return entryPoint;
  };
  /** The entry point's PUT with `waf_migration=MODE&phase_two=1`, as the rulesets service makes it. */
  const migrate = (mode: WafMigrationMode, entryPointWrite = write) =>
    store.transaction(async (tx) =>
      migration.onEntryPointUpdate(base.zone, { mode, phaseTwo: true }, () => entryPointWrite(tx), tx),
    );
  const state = async () => (await migration.status(base.zone)).migration_state;
  const check = () => migration.check(base.zone, { phase_two: '1' });
  const config = () => migration.config(base.zone, { phase_two: '1' });
  return { ...base, migration, waf, overrides, pageRules, writes, entryPoint, migrate, state, check, config };
}

const bypass = (z: Awaited<ReturnType<typeof zoneOn>>, expression: string, extra: object = {}) =>
  z.rules.create(z.zone, [{ action: 'bypass', products: ['waf'], filter: { expression }, ...extra }]);

const override = { urls: ['shop.example.com/*'], rules: { '100015': 'disable' } };

const execute = (rules: ConfigRule[], id: string) =>
  rules.find((rule) => rule.action === 'execute' && rule.action_parameters.id === id) as ConfigRule & {
    action_parameters: { overrides?: { rules?: object[]; categories?: object[] } };
  };

describe('states and transitions', () => {
  it('row "previous WAF only (start)": a zone starts at start, previous WAF enabled, new disabled', async () => {
    const z = await zoneOn('business');
    expect(await z.migration.status(z.zone)).toMatchObject({
      migration_state: 'start',
      old_waf_status: 'enabled',
      new_waf_status: 'disabled',
      created: z.zone.createdOn,
      source: 'defaults',
    });
    expect((await z.check()).result).toEqual({ compatible: true, migration_state: 'start' });
  });

  it('row "start --pending--> new WAF only": saves the configuration, then disables the previous WAF', async () => {
    const z = await zoneOn('pro');
    expect(await z.migrate('pending')).toBe(z.entryPoint);
    expect(z.writes).toEqual(['written']);
    expect(await z.migration.status(z.zone)).toMatchObject({
      migration_state: 'complete',
      old_waf_status: 'disabled',
      new_waf_status: 'enabled',
      source: 'zone',
    });
  });

  it('row "start --validation--> validation mode" (Enterprise only): both enabled, then pending completes', async () => {
    const z = await zoneOn('enterprise');
    await z.migrate('validation');
    expect(await z.migration.status(z.zone)).toMatchObject({
      migration_state: 'validation',
      old_waf_status: 'enabled',
      new_waf_status: 'enabled',
    });
    // Validation may be updated again (the configuration changes; the state stays).
    await z.migrate('validation');
    expect(await z.state()).toBe('validation');
    // Previous WAF APIs still answer during validation (the old WAF still runs).
    expect((await z.waf.listPackages(z.zone, {})).result).toHaveLength(3);
    await z.migrate('pending');
    expect(await z.state()).toBe('complete');
    expect(z.writes).toHaveLength(3);
  });

  it.each(['pro', 'business'] as const)(
    'plan table row "Pro, Business": %s has no validation mode (refused, nothing written)',
    async (plan) => {
      const z = await zoneOn(plan);
      const error = await failure(() => z.migrate('validation'));
      expect(error.kind).toBe('bad-request');
      expect(error.errors[0]?.code).toBe(CODES.migrationValidationNotEntitled);
      expect(z.writes).toEqual([]);
      expect(await z.state()).toBe('start');
    },
  );

  it('row "new WAF only": irreversible, any later transition is refused and nothing is written', async () => {
    const z = await zoneOn('enterprise');
    await z.migrate('pending');
    for (const mode of ['pending', 'validation'] as const) {
      const error = await failure(() => z.migrate(mode));
      expect(error.errors[0]?.code).toBe(CODES.migrationComplete);
    }
    expect(z.writes).toHaveLength(1);
    expect(await z.state()).toBe('complete');
    expect((await z.check()).result).toEqual({ compatible: false, migration_state: 'complete' });
  });

  it('row "new WAF only": after completion the previous WAF managed rules APIs stop working (410)', async () => {
    const z = await zoneOn('business');
    const groupId = PREVIOUS_WAF_GROUPS[0]?.id as string;
    await z.migrate('pending');
    for (const call of [
      () => z.waf.listPackages(z.zone, {}),
      () => z.waf.getPackage(z.zone, OWASP_PACKAGE_ID),
      () => z.waf.editGroup(z.zone, CLOUDFLARE_PACKAGE_ID, groupId, { mode: 'off' }),
      () => z.waf.listRules(z.zone, OWASP_PACKAGE_ID, {}),
      () => z.overrides.list(z.zone, {}),
      () => z.overrides.create(z.zone, override),
      () => z.config(),
    ]) {
      const error = await failure(call);
      expect(error.kind).toBe('gone');
      expect(error.errors[0]?.code).toBe(CODES.previousWafRetired);
    }
    // Page rules remain (their WAF settings no longer apply), and so does the status.
    expect(await z.pageRules.list(z.zone, {})).toEqual([]);
    expect((await z.migration.status(z.zone)).migration_state).toBe('complete');
  });

  it('as the rulesets hook: phase two only, and the zone counts as migrated from validation mode on', async () => {
    const z = await zoneOn('enterprise');
    const migrated = () => z.store.transaction((tx) => z.migration.isMigrated(z.zone, tx));
    const phaseOne = await failure(() =>
      z.store.transaction((tx) =>
        z.migration.onEntryPointUpdate(
          z.zone,
          { mode: 'pending', phaseTwo: false },
          async () => z.entryPoint,
          tx,
        ),
      ),
    );
    expect(phaseOne.errors[0]?.code).toBe(CODES.invalidQuery);
    expect(await z.state()).toBe('start');
    expect(await migrated()).toBe(false);
    await z.migrate('validation');
    expect(await migrated()).toBe(true);
    await z.migrate('pending');
    expect(await migrated()).toBe(true);
  });

  it('a write that throws keeps nothing: the state stays and the write is rolled back', async () => {
    const z = await zoneOn('enterprise');
    await expect(
      z.migrate('pending', async (tx) => {
        await tx.wafSettings.put({
          zoneId: z.zone.id,
          kind: 'package',
          itemId: OWASP_PACKAGE_ID,
          settings: { sensitivity: 'low' },
          modifiedOn: 'x',
        });
        throw new Error('invalid ruleset');
      }),
    ).rejects.toThrow('invalid ruleset');
    expect(await z.state()).toBe('start');
    expect(await z.waf.getPackage(z.zone, OWASP_PACKAGE_ID)).toMatchObject({ sensitivity: 'high' });
  });

  it('Free zones have no previous WAF: every migration operation is refused with 10600', async () => {
    const z = await zoneOn('free');
    for (const call of [
      () => z.check(),
      () => z.config(),
      () => z.migration.status(z.zone),
      () => z.migrate('pending'),
      () => z.waf.listPackages(z.zone, {}),
    ]) {
      expect((await failure(call)).errors[0]?.code).toBe(CODES.wafNotEntitled);
    }
    expect(z.writes).toEqual([]);
  });
});

describe('eligibility and blockers (phase two)', () => {
  it('"every zone without URI-based WAF overrides": an override blocks until deleted', async () => {
    const z = await zoneOn('enterprise');
    const { id } = await z.overrides.create(z.zone, override);
    expect((await z.check()).result.compatible).toBe(false);
    expect((await z.check()).messages.map((m) => m.code)).toEqual([CODES.migrationHasOverrides]);
    const error = await failure(() => z.migrate('pending'));
    expect(error.errors.map((e) => e.code)).toEqual([CODES.migrationBlocked, CODES.migrationHasOverrides]);
    expect(z.writes).toEqual([]);
    expect(await z.state()).toBe('start');
    await z.overrides.delete(z.zone, id);
    expect((await z.check()).result.compatible).toBe(true);
    await z.migrate('pending');
    expect(await z.state()).toBe('complete');
  });

  it('limit "firewall rules to migrate: at most 200": 200 pass, 201 are blocked', async () => {
    const z = await zoneOn('enterprise');
    for (let i = 0; i < 200; i++) await bypass(z, `http.host eq "h${i}.example"`);
    // Other firewall rules, and bypass rules of other products, do not count.
    await z.rules.create(z.zone, [{ action: 'block', filter: { expression: 'ip.src eq 192.0.2.1' } }]);
    await z.rules.create(z.zone, [
      { action: 'bypass', products: ['hot'], filter: { expression: 'ip.src eq 192.0.2.2' } },
    ]);
    expect((await z.check()).result.compatible).toBe(true);
    await bypass(z, 'http.host eq "h200.example"');
    expect(await z.check()).toMatchObject({
      result: { compatible: false },
      messages: [{ code: CODES.migrationTooManyRules, message: expect.stringContaining('201') }],
    });
    const error = await failure(() => z.migrate('pending'));
    expect(error.errors.map((e) => e.code)).toContain(CODES.migrationTooManyRules);
    expect(await z.state()).toBe('start');
  });

  it('limit "firewall rule expression length: at most 4 KB": 4096 bytes pass, 4097 are blocked', async () => {
    const z = await zoneOn('enterprise');
    const sized = (bytes: number, char: string) => {
      const head = 'http.host eq "';
      const body = char.repeat(Math.floor((bytes - head.length - 1) / Buffer.byteLength(char)));
      const text = `${head}${body}"`;
      return text + ' '.repeat(bytes - Buffer.byteLength(text));
    };
    await bypass(z, sized(4096, 'é'));
    expect((await z.check()).result.compatible).toBe(true);
    // Bytes, not characters: 4097 bytes in fewer than 4096 characters.
    const long = sized(4097, 'é');
    expect(long.length).toBeLessThan(4096);
    await bypass(z, long);
    expect((await z.check()).messages).toEqual([
      expect.objectContaining({
        code: CODES.migrationExpressionTooLong,
        message: expect.stringContaining('4097 bytes'),
      }),
    ]);
    expect((await failure(() => z.migrate('validation'))).errors[0]?.code).toBe(CODES.migrationBlocked);
  });

  it('phase one (no phase_two): OWASP enabled, WAF bypass rules, page-rule WAF settings and overrides block', async () => {
    const z = await zoneOn('business');
    const phaseOne = () => z.migration.check(z.zone, {});
    expect((await phaseOne()).messages.map((m) => m.code)).toEqual([CODES.migrationPhaseOne]);
    await z.waf.editPackage(z.zone, OWASP_PACKAGE_ID, { sensitivity: 'off' });
    expect((await phaseOne()).result.compatible).toBe(true);
    await bypass(z, 'http.host eq "a.example"');
    await z.pageRules.create(z.zone, {
      targets: [{ target: 'url', constraint: { operator: 'matches', value: '*example.com/*' } }],
      actions: [{ id: 'waf', value: 'on' }],
    });
    await z.overrides.create(z.zone, override);
    expect((await phaseOne()).result.compatible).toBe(false);
    expect((await phaseOne()).messages).toHaveLength(3);
    // Phase two only minds the override.
    expect((await z.check()).messages.map((m) => m.code)).toEqual([CODES.migrationHasOverrides]);
  });
});

describe('what is migrated (config)', () => {
  it('a zone with the defaults: execute both managed rulesets, OWASP at PL2 / 40 (row "Default")', async () => {
    const z = await zoneOn('business');
    const { result, messages } = await z.config();
    expect(result.name).toBe('default');
    expect(result.rules.map((r) => r.action)).toEqual(['execute', 'execute']);
    const managed = execute(result.rules, CLOUDFLARE_MANAGED_RULESET_ID);
    expect(managed).toMatchObject({ id: '', version: '', ref: '', expression: 'true', enabled: true });
    // Flash (off by default, no equivalent) needs nothing; no other override.
    expect(managed.action_parameters.overrides).toBeUndefined();
    expect(execute(result.rules, OWASP_RULESET_ID).action_parameters).toEqual({
      id: OWASP_RULESET_ID,
      overrides: {
        // The ruleset deploys at PL1: PL2 is turned on, the levels above it off.
        categories: [
          { category: 'paranoia-level-2', enabled: true },
          { category: 'paranoia-level-3', enabled: false },
          { category: 'paranoia-level-4', enabled: false },
        ],
        rules: [{ id: OWASP_ANOMALY_RULE_ID, score_threshold: 40, action: 'challenge' }],
      },
    });
    expect(messages).toEqual([]);
  });

  it.each([
    ['high', 2, 40],
    ['medium', 1, 25],
    ['low', 1, 40],
  ] as const)('OWASP sensitivity row "%s" → PL%i, threshold %i', async (sensitivity, level, threshold) => {
    const z = await zoneOn('pro');
    await z.waf.editPackage(z.zone, OWASP_PACKAGE_ID, { sensitivity });
    const owasp = execute((await z.config()).result.rules, OWASP_RULESET_ID);
    const categories = [2, 3, 4].map((l) => ({ category: `paranoia-level-${l}`, enabled: l <= level }));
    expect(owasp.action_parameters.overrides).toEqual({
      categories,
      rules: [{ id: OWASP_ANOMALY_RULE_ID, score_threshold: threshold, action: 'challenge' }],
    });
    expect(owasp.enabled).toBe(true);
  });

  it('OWASP sensitivity off disables the OWASP execute rule', async () => {
    const z = await zoneOn('pro');
    await z.waf.editPackage(z.zone, OWASP_PACKAGE_ID, { sensitivity: 'off' });
    expect(execute((await z.config()).result.rules, OWASP_RULESET_ID).enabled).toBe(false);
  });

  it.each([
    ['simulate', 'log'],
    ['block', 'block'],
    ['challenge', 'challenge'],
  ] as const)('OWASP action "%s" maps to %s (Simulate becomes Log)', async (actionMode, action) => {
    const z = await zoneOn('enterprise');
    await z.waf.editPackage(z.zone, OWASP_PACKAGE_ID, { action_mode: actionMode });
    const owasp = execute((await z.config()).result.rules, OWASP_RULESET_ID);
    expect(owasp.action_parameters.overrides?.rules).toEqual([
      { id: OWASP_ANOMALY_RULE_ID, score_threshold: 40, action },
    ]);
  });

  it('CloudFlare package settings become overrides of the Managed Ruleset through MIGRATION_MAPPING', async () => {
    const z = await zoneOn('business');
    const specials = 'ea8687e59929c1fd05ba97574ad43f77';
    await z.waf.editRule(z.zone, CLOUDFLARE_PACKAGE_ID, '100015', { mode: 'simulate' });
    const sqli = PREVIOUS_WAF_RULES.find((r) => r.group_id === specials && r.id !== '100015') as {
      id: string;
    };
    await z.waf.editRule(z.zone, CLOUDFLARE_PACKAGE_ID, sqli.id, { mode: 'disable' });
    const wordpress = PREVIOUS_WAF_GROUPS.find((g) => g.name === 'Cloudflare WordPress') as { id: string };
    await z.waf.editGroup(z.zone, CLOUDFLARE_PACKAGE_ID, wordpress.id, { mode: 'off' });
    const managed = execute((await z.config()).result.rules, CLOUDFLARE_MANAGED_RULESET_ID);
    const target = (id: string) => MIGRATION_MAPPING.get(id) as unknown as { ruleIds: string[] };
    expect(managed.action_parameters.overrides).toEqual({
      categories: [{ category: 'wordpress', enabled: false }],
      rules: [
        ...target('100015').ruleIds.map((id) => ({ id, action: 'log' })),
        ...target(sqli.id).ruleIds.map((id) => ({ id, enabled: false })),
      ],
    });
    // Every id is a rule of the new ruleset.
    const ids = new Set(cloudflareManagedRuleset.rules.map((r) => r.id));
    for (const rule of (managed.action_parameters.overrides?.rules ?? []) as { id: string }[])
      expect(ids.has(rule.id)).toBe(true);
  });

  it('every CloudFlare group off: the Managed Ruleset execute rule is disabled', async () => {
    const z = await zoneOn('business');
    for (const group of PREVIOUS_WAF_GROUPS.filter((g) => g.package_id === CLOUDFLARE_PACKAGE_ID)) {
      await z.waf.editGroup(z.zone, CLOUDFLARE_PACKAGE_ID, group.id, { mode: 'off' });
    }
    expect(execute((await z.config()).result.rules, CLOUDFLARE_MANAGED_RULESET_ID).enabled).toBe(false);
  });

  it('"Not migrated: OWASP group overrides and OWASP rule overrides": listed in messages, no override', async () => {
    const z = await zoneOn('business');
    const group = PREVIOUS_WAF_GROUPS.find((g) => g.package_id === OWASP_PACKAGE_ID) as { id: string };
    const rule = PREVIOUS_WAF_RULES.find((r) => r.package_id === OWASP_PACKAGE_ID) as { id: string };
    await z.waf.editGroup(z.zone, OWASP_PACKAGE_ID, group.id, { mode: 'off' });
    await z.waf.editRule(z.zone, OWASP_PACKAGE_ID, rule.id, { mode: 'off' });
    const { result, messages } = await z.config();
    expect(messages.map((m) => m.code)).toEqual([CODES.migrationNotMigrated, CODES.migrationNotMigrated]);
    expect(messages[0]?.message).toContain(group.id);
    expect(messages[1]?.message).toContain(rule.id);
    // Only the paranoia level and the anomaly rule: nothing from the group or the rule.
    expect(execute(result.rules, OWASP_RULESET_ID).action_parameters.overrides?.rules).toHaveLength(1);
  });

  it('"firewall rules configured with Bypass of WAF Managed Rules" become skip rules placed first', async () => {
    const z = await zoneOn('enterprise');
    await bypass(z, 'http.host eq "admin.example.com"', { description: 'admins' });
    await bypass(z, 'ip.src eq 192.0.2.9', { paused: true });
    await z.rules.create(z.zone, [
      { action: 'bypass', products: ['hot'], filter: { expression: 'ip.src eq 192.0.2.1' } },
    ]);
    const rules = (await z.config()).result.rules;
    expect(rules.map((r) => r.action)).toEqual(['skip', 'skip', 'execute', 'execute']);
    expect(rules[0]).toMatchObject({
      expression: 'http.host eq "admin.example.com"',
      enabled: true,
      action_parameters: { ruleset: 'current' },
      description: expect.stringContaining('admins'),
    });
    expect(rules[1]).toMatchObject({ expression: 'ip.src eq 192.0.2.9', enabled: false });
  });

  it('"page rules configured with Disable Security / WAF Off / On": skip rules, carving out higher page rules', async () => {
    const z = await zoneOn('business');
    const page = (value: string, actions: object[], priority: number, status = 'active') =>
      z.pageRules.create(z.zone, {
        targets: [{ target: 'url', constraint: { operator: 'matches', value } }],
        actions,
        priority,
        status,
      });
    await page('*example.com/admin/*', [{ id: 'waf', value: 'on' }], 3);
    await page('*example.com/*', [{ id: 'waf', value: 'off' }], 2);
    await page(
      'static.example.com/*',
      [{ id: 'disable_security' }, { id: 'cache_level', value: 'bypass' }],
      1,
    );
    await page('*example.com/old/*', [{ id: 'disable_security' }], 5, 'disabled');
    const { result, messages } = await z.config();
    const skips = result.rules.filter((r) => r.action === 'skip');
    expect(skips.map((r) => r.expression)).toEqual([
      '(http.request.full_uri wildcard "http*://*example.com/*") and not ((http.request.full_uri wildcard "http*://*example.com/admin/*"))',
      '(http.request.full_uri wildcard "http*://static.example.com/*") and not ((http.request.full_uri wildcard "http*://*example.com/admin/*") or (http.request.full_uri wildcard "http*://*example.com/*"))',
    ]);
    expect(skips.map((r) => r.description)).toEqual([
      expect.stringContaining('WAF Off'),
      expect.stringContaining('Disable Security'),
    ]);
    expect(messages.map((m) => m.code)).toEqual([CODES.migrationNote]);
    // The generated expressions are valid where they go.
    for (const rule of result.rules) {
      const checked = validate(rule.expression, { plan: 'business', phase: 'http_request_firewall_managed' });
      expect(checked, rule.expression).toMatchObject({ ok: true });
    }
  });
});
