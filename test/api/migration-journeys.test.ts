// The WAF migration as users go through it, end to end with the official `cloudflare` SDK (7.3.0) over a
// socket (raw calls where the SDK has no method: waf_migration/* and the package PATCH): a Pro, a Business
// and an Enterprise zone (validation mode, then finishing), a zone blocked by a URI-based override, a zone
// with 201 firewall rules to migrate, and a restart after completion. Each journey starts from a fresh
// service. The rows of the spec's tables each journey covers are named in its title.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Cloudflare from 'cloudflare';
import { APIError, BadRequestError } from 'cloudflare';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CLOUDFLARE_MANAGED_RULESET_ID,
  OWASP_ANOMALY_RULE_ID,
  OWASP_RULESET_ID,
} from '../../src/engine/managed/index.js';
import { OWASP_PACKAGE_ID } from '../../src/engine/previous-waf/index.js';
import { CODES } from '../../src/service/errors.js';
import { ZONES } from './harness.js';
import { rejection, type SocketService, serveOnSocket } from './sdk-harness.js';

const MANAGED_PHASE = 'http_request_firewall_managed';

const running: SocketService[] = [];
afterEach(async () => {
  for (const service of running.splice(0)) await service.close();
});

/** A fresh service on a socket (on `path`, or in memory) and an SDK client with an edit token. */
async function start(path?: string): Promise<{ service: SocketService; cf: Cloudflare }> {
  const service = await serveOnSocket(path);
  running.push(service);
  return { service, cf: service.client() };
}

interface ConfigRule {
  action: string;
  expression: string;
  action_parameters?: {
    id?: string;
    overrides?: {
      action?: string;
      categories?: { category: string; enabled?: boolean }[];
      rules?: { id: string; score_threshold?: number; action?: string; enabled?: boolean }[];
    };
  };
}

/** The raw calls of the migration (no SDK method), answered with their envelopes. */
function migration(cf: Cloudflare, zone: string) {
  const path = (what: string) => `/zones/${zone}/waf_migration/${what}`;
  return {
    check: () =>
      cf.get<{ result: { compatible: boolean; migration_state: string }; messages: { code: number }[] }>(
        path('check'),
        { query: { phase_two: 1 } },
      ),
    config: () =>
      cf.get<{ result: { name: string; rules: ConfigRule[] }; messages: { code: number }[] }>(
        path('config'),
        {
          query: { phase_two: 1 },
        },
      ),
    status: async () =>
      (
        await cf.get<{
          result: { migration_state: string; old_waf_status: string; new_waf_status: string };
        }>(path('status'))
      ).result,
    /** The PUT that migrates: the entry point with `waf_migration=MODE&phase_two=1`. */
    update: (mode: 'pending' | 'validation', rules: ConfigRule[]) =>
      cf.rulesets.phases.update(
        MANAGED_PHASE,
        { zone_id: zone, rules: rules as never },
        { query: { waf_migration: mode, phase_two: 1 } },
      ),
  };
}

/** The API error a promise fails with (the test fails if it succeeds). */
const apiError = (promise: Promise<unknown>) => rejection(promise, APIError);

const executeOf = (rules: ConfigRule[], id: string) =>
  rules.find((rule) => rule.action === 'execute' && rule.action_parameters?.id === id);

describe('WAF migration journeys', () => {
  it('Pro: "Pro, Business: update directly, no validation mode"; "start → new WAF only"; irreversible', async () => {
    const { cf } = await start();
    const zone = ZONES.pro;
    const m = migration(cf, zone);
    expect(await m.status()).toEqual(
      expect.objectContaining({
        migration_state: 'start',
        old_waf_status: 'enabled',
        new_waf_status: 'disabled',
      }),
    );
    expect((await m.check()).result).toEqual({ compatible: true, migration_state: 'start' });
    const { rules } = (await m.config()).result;
    expect(rules.map((rule) => rule.action_parameters?.id)).toEqual([
      CLOUDFLARE_MANAGED_RULESET_ID,
      OWASP_RULESET_ID,
    ]);

    // No validation mode below Enterprise: refused, and nothing changed.
    const validation = await apiError(m.update('validation', rules));
    expect(validation).toBeInstanceOf(BadRequestError);
    expect(validation.errors[0]).toMatchObject({ code: CODES.migrationValidationNotEntitled });
    expect((await m.status()).migration_state).toBe('start');
    await expect(cf.rulesets.phases.get(MANAGED_PHASE, { zone_id: zone })).rejects.toBeInstanceOf(APIError);

    const entryPoint = (await m.update('pending', rules)) as {
      rules: { action: string; enabled: boolean }[];
    };
    expect(entryPoint.rules.map((rule) => [rule.action, rule.enabled])).toEqual([
      ['execute', true],
      ['execute', true],
    ]);
    expect(await m.status()).toEqual(
      expect.objectContaining({
        migration_state: 'complete',
        old_waf_status: 'disabled',
        new_waf_status: 'enabled',
      }),
    );
    // "After migration completes, the APIs for the previous WAF managed rules stop working."
    const retired = await apiError(cf.firewall.waf.packages.get(OWASP_PACKAGE_ID, { zone_id: zone }));
    expect(retired.status).toBe(410);
    expect(retired.errors[0]).toMatchObject({ code: CODES.previousWafRetired });
    // "The migration is irreversible."
    const again = await apiError(m.update('pending', rules));
    expect(again.errors[0]).toMatchObject({ code: CODES.migrationComplete });
    // The new WAF is managed through the Rulesets API from now on.
    const managed = (await cf.rulesets.phases.get(MANAGED_PHASE, { zone_id: zone })) as { rules: unknown[] };
    expect(managed.rules).toHaveLength(2);
  });

  it('Business: OWASP row "Low → PL1, 40", "Simulate → Log", and a "Bypass of WAF Managed Rules" rule migrated as skip', async () => {
    const { cf } = await start();
    const zone = ZONES.business;
    await cf.patch(`/zones/${zone}/firewall/waf/packages/${OWASP_PACKAGE_ID}`, {
      body: { sensitivity: 'low', action_mode: 'simulate' },
    });
    await cf.post(`/zones/${zone}/firewall/rules`, {
      body: [
        {
          action: 'bypass',
          products: ['waf'],
          filter: { expression: 'ip.src in {192.0.2.0/24} and starts_with(http.request.uri.path, "/api/")' },
        },
      ],
    });
    const m = migration(cf, zone);
    const { rules } = (await m.config()).result;
    expect(rules.map((rule) => rule.action)).toEqual(['skip', 'execute', 'execute']);
    expect(rules[0]?.expression).toBe(
      'ip.src in {192.0.2.0/24} and starts_with(http.request.uri.path, "/api/")',
    );
    const owasp = executeOf(rules, OWASP_RULESET_ID)?.action_parameters?.overrides;
    // PL1: the categories of paranoia levels 2 to 4 are turned off; the threshold goes on the anomaly rule.
    expect(owasp?.categories).toEqual([
      { category: 'paranoia-level-2', enabled: false },
      { category: 'paranoia-level-3', enabled: false },
      { category: 'paranoia-level-4', enabled: false },
    ]);
    expect(owasp?.rules).toEqual([
      expect.objectContaining({ id: OWASP_ANOMALY_RULE_ID, score_threshold: 40, action: 'log' }),
    ]);

    await m.update('pending', rules);
    expect((await m.status()).migration_state).toBe('complete');
    const stored = (await cf.rulesets.phases.get(MANAGED_PHASE, { zone_id: zone })) as {
      rules: ConfigRule[];
    };
    expect(stored.rules.map((rule) => rule.action)).toEqual(['skip', 'execute', 'execute']);
  });

  it('Enterprise: "validation mode (both enabled, new first)", then "validation → new WAF only"', async () => {
    const { cf } = await start();
    const zone = ZONES.enterprise;
    const m = migration(cf, zone);
    const { rules } = (await m.config()).result;
    await m.update('validation', rules);
    expect(await m.status()).toEqual(
      expect.objectContaining({
        migration_state: 'validation',
        old_waf_status: 'enabled',
        new_waf_status: 'enabled',
      }),
    );
    // Both versions run: the previous WAF's APIs still answer during validation.
    expect(await cf.firewall.waf.packages.get(OWASP_PACKAGE_ID, { zone_id: zone })).toMatchObject({
      id: OWASP_PACKAGE_ID,
    });
    expect((await m.check()).result.migration_state).toBe('validation');

    await m.update('pending', rules);
    expect(await m.status()).toEqual(
      expect.objectContaining({
        migration_state: 'complete',
        old_waf_status: 'disabled',
        new_waf_status: 'enabled',
      }),
    );
    const retired = await apiError(cf.firewall.waf.packages.get(OWASP_PACKAGE_ID, { zone_id: zone }));
    expect(retired.status).toBe(410);
  });

  it('blocked by a URI-based override: "all zones except those with URI-based WAF overrides", until it is deleted', async () => {
    const { cf } = await start();
    const zone = ZONES.business;
    const m = migration(cf, zone);
    const created = (await cf.firewall.waf.overrides.create({
      zone_id: zone,
      urls: ['shop.example.com/*'],
      rules: { '100015': 'disable' },
    } as never)) as unknown as { result: { id: string } };

    const check = await m.check();
    expect(check.result).toEqual({ compatible: false, migration_state: 'start' });
    expect(check.messages.map((message) => message.code)).toEqual([CODES.migrationHasOverrides]);
    const { rules } = (await m.config()).result;
    const refused = await apiError(m.update('pending', rules));
    expect(refused.errors.map((error) => error.code)).toEqual([
      CODES.migrationBlocked,
      CODES.migrationHasOverrides,
    ]);
    // Refused: nothing was stored, and the zone is still on the previous WAF.
    expect((await m.status()).migration_state).toBe('start');
    await expect(cf.rulesets.phases.get(MANAGED_PHASE, { zone_id: zone })).rejects.toBeInstanceOf(APIError);

    await cf.firewall.waf.overrides.delete(created.result.id, { zone_id: zone });
    expect((await m.check()).result.compatible).toBe(true);
    await m.update('pending', rules);
    expect((await m.status()).migration_state).toBe('complete');
  });

  it('limit "firewall rules to migrate: at most 200": 201 bypass rules block the zone, 200 do not', async () => {
    const { cf } = await start();
    const zone = ZONES.enterprise;
    const body = Array.from({ length: 201 }, (_, i) => ({
      action: 'bypass',
      products: ['waf'],
      filter: { expression: `http.request.uri.path eq "/bypass/${i}"` },
    }));
    const created = await cf.post<{ result: { id: string }[] }>(`/zones/${zone}/firewall/rules`, { body });
    expect(created.result).toHaveLength(201);
    const m = migration(cf, zone);
    const blocked = await m.check();
    expect(blocked.result.compatible).toBe(false);
    expect(blocked.messages.map((message) => message.code)).toEqual([CODES.migrationTooManyRules]);
    const refused = await apiError(m.update('pending', (await m.config()).result.rules));
    expect(refused.errors[0]).toMatchObject({ code: CODES.migrationBlocked });

    const [first] = created.result;
    if (!first) throw new Error('no rule created');
    await cf.firewall.rules.delete(first.id, { zone_id: zone });
    expect((await m.check()).result.compatible).toBe(true);
    const entryPoint = (await m.update('pending', (await m.config()).result.rules)) as { rules: unknown[] };
    // 200 skip rules, then the two execute rules.
    expect(entryPoint.rules).toHaveLength(202);
  });

  it('a restart after completion: the state, the entry point and the retired previous WAF all persist', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfrules-migration-'));
    const path = join(dir, 'cfrules.db');
    try {
      const first = await start(path);
      const zone = ZONES.pro;
      const m = migration(first.cf, zone);
      const { rules } = (await m.config()).result;
      const stored = await m.update('pending', rules);
      running.splice(running.indexOf(first.service), 1);
      await first.service.close();

      const second = await start(path);
      const again = migration(second.cf, zone);
      expect((await again.status()).migration_state).toBe('complete');
      expect(await second.cf.rulesets.phases.get(MANAGED_PHASE, { zone_id: zone })).toEqual(stored);
      const retired = await apiError(
        second.cf.firewall.waf.packages.get(OWASP_PACKAGE_ID, { zone_id: zone }),
      );
      expect(retired.status).toBe(410);
      const irreversible = await apiError(again.update('pending', rules));
      expect(irreversible.errors[0]).toMatchObject({ code: CODES.migrationComplete });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
