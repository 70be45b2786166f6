// The official `cloudflare` SDK (7.3.0) driving the Rulesets API over a real socket: every `client.rulesets`
// method, the cursor pagination of the list, the 204 deletes, error classes, and the `waf_migration` query
// passed as a request option (which the service refuses without a migration hook).
import { BadRequestError, NotFoundError, PermissionDeniedError } from 'cloudflare';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CLOUDFLARE_MANAGED_RULESET_ID,
  OWASP_ANOMALY_RULE_ID,
  OWASP_RULESET_ID,
} from '../../src/engine/managed/index.js';
import { READ_TOKEN, TOKEN, ZONES } from './harness.js';
import { RULE_OF_PHASE } from './phase-rules.js';
import { rejection, type SocketService, serveOnSocket } from './sdk-harness.js';

let service: SocketService;

beforeAll(async () => {
  service = await serveOnSocket();
});
afterAll(async () => {
  await service?.close();
});
afterEach(() => {
  expect(service.internalErrors).toEqual([]);
});

const client = (apiToken = TOKEN) => service.client({ apiToken });

const ID = /^[0-9a-f]{32}$/;

/** The SDK types most ruleset answers as `Ruleset | unknown` (that is, unknown): the shape the tests read. */
interface Ruleset {
  id: string;
  version: string;
  rules: { id: string; enabled: boolean; version: string }[];
}
const asRuleset = (value: unknown): Ruleset => value as Ruleset;
const CUSTOM = 'http_request_firewall_custom';

describe('client.rulesets', () => {
  const zone_id = ZONES.enterprise;

  it('phases.update, phases.get and phases.versions for an entry point of every Rules product phase', async () => {
    const cf = client();
    for (const [phase, rule] of Object.entries(RULE_OF_PHASE)) {
      // The SDK types each phase's rules by action; the test's rules are plain JSON.
      const params = { zone_id, rules: [rule] } as Parameters<typeof cf.rulesets.phases.update>[1];
      const written = asRuleset(
        await cf.rulesets.phases.update(phase as Parameters<typeof cf.rulesets.phases.update>[0], params),
      );
      expect(written).toMatchObject({ version: '1', rules: [rule] });
      const read = asRuleset(
        await cf.rulesets.phases.get(phase as Parameters<typeof cf.rulesets.phases.get>[0], { zone_id }),
      );
      expect(read).toEqual(written);
      const versions = [];
      for await (const version of cf.rulesets.phases.versions.list(
        phase as Parameters<typeof cf.rulesets.phases.versions.list>[0],
        { zone_id },
      ))
        versions.push(version);
      expect(versions.map((v) => (v as { version: string }).version)).toEqual(['1']);
    }
    // Refused parameters come back as the SDK's BadRequestError with Cloudflare's code.
    const refused = await rejection(
      cf.rulesets.phases.update('http_request_origin', {
        zone_id,
        rules: [{ action: 'route', expression: 'true', action_parameters: { origin: { port: 0 } } }],
      }),
      BadRequestError,
    );
    expect(refused.errors).toMatchObject([{ code: 20217 }]);
  });

  it('create, get, update, list, delete', async () => {
    const cf = client();
    const created = asRuleset(
      await cf.rulesets.create({
        zone_id,
        name: 'sdk',
        kind: 'custom',
        phase: CUSTOM,
        rules: [{ action: 'block', expression: 'ip.src eq 192.0.2.1', description: 'one' }],
      }),
    );
    expect(created).toMatchObject({ name: 'sdk', kind: 'custom', version: '1' });
    expect(created.id).toMatch(ID);
    expect(created.rules[0]?.id).toMatch(ID);
    expect(await cf.rulesets.get(created.id, { zone_id })).toEqual(created);

    const updated = asRuleset(
      await cf.rulesets.update(created.id, { zone_id, description: 'now', rules: [] }),
    );
    expect(updated).toMatchObject({ version: '2', description: 'now', rules: [] });

    const ids: string[] = [];
    for await (const ruleset of cf.rulesets.list({ zone_id, per_page: 1 } as never)) ids.push(ruleset.id);
    expect(ids.slice(0, 2)).toEqual([CLOUDFLARE_MANAGED_RULESET_ID, OWASP_RULESET_ID]);
    expect(ids).toContain(created.id);

    await cf.rulesets.delete(created.id, { zone_id });
    const error = await rejection(cf.rulesets.get(created.id, { zone_id }), NotFoundError);
    expect(error.errors[0]).toMatchObject({ code: 20200 });
  });

  it('rules.create / edit / delete with positions', async () => {
    const cf = client();
    const ruleset = asRuleset(
      await cf.rulesets.create({
        zone_id,
        name: 'rules',
        kind: 'custom',
        phase: CUSTOM,
        rules: [],
      }),
    );
    const one = asRuleset(
      await cf.rulesets.rules.create(ruleset.id, {
        zone_id,
        action: 'block',
        expression: 'http.host eq "a.example"',
      }),
    );
    const first = one.rules[0]?.id as string;
    const two = asRuleset(
      await cf.rulesets.rules.create(ruleset.id, {
        zone_id,
        action: 'managed_challenge',
        expression: 'http.host eq "b.example"',
        position: { before: first },
      }),
    );
    expect(two.rules.map((rule) => rule.id)[1]).toBe(first);
    const second = two.rules[0]?.id as string;
    const edited = asRuleset(
      await cf.rulesets.rules.edit(second, {
        zone_id,
        ruleset_id: ruleset.id,
        enabled: false,
        position: { index: 2 },
      } as never),
    );
    expect(edited.rules.map((rule) => [rule.id, rule.enabled, rule.version])).toEqual([
      [first, true, '1'],
      [second, false, '2'],
    ]);
    const deleted = asRuleset(await cf.rulesets.rules.delete(first, { zone_id, ruleset_id: ruleset.id }));
    expect(deleted.rules.map((rule) => rule.id)).toEqual([second]);
    // Created empty (1), two rules added (2, 3), one edited (4), one deleted (5).
    expect(deleted.version).toBe('5');

    const bad = await rejection(
      cf.rulesets.rules.create(ruleset.id, { zone_id, action: 'block', expression: 'ip.src eq' }),
      BadRequestError,
    );
    expect(bad.errors[0]).toMatchObject({ code: 20217, source: { pointer: '/expression' } });
  });

  it('versions.list / get / delete', async () => {
    const cf = client();
    const ruleset = asRuleset(
      await cf.rulesets.create({
        zone_id,
        name: 'versions',
        kind: 'custom',
        phase: CUSTOM,
        rules: [],
      }),
    );
    await cf.rulesets.update(ruleset.id, { zone_id, description: 'two' });
    const versions: string[] = [];
    for await (const version of cf.rulesets.versions.list(ruleset.id, { zone_id }))
      versions.push(version.version);
    expect(versions).toEqual(['1', '2']);
    expect(await cf.rulesets.versions.get('1', { zone_id, ruleset_id: ruleset.id })).toMatchObject({
      version: '1',
      description: '',
    });
    await cf.rulesets.versions.delete('1', { zone_id, ruleset_id: ruleset.id });
    await rejection(cf.rulesets.versions.get('1', { zone_id, ruleset_id: ruleset.id }), NotFoundError);
    await rejection(cf.rulesets.versions.delete('2', { zone_id, ruleset_id: ruleset.id }), BadRequestError);
  });

  it('phases.get / update and phases.versions', async () => {
    const cf = client();
    const missing = await rejection(
      cf.rulesets.phases.get('http_request_firewall_managed', { zone_id }),
      NotFoundError,
    );
    expect(missing.errors[0]).toMatchObject({ code: 10003 });
    const rules = [
      {
        action: 'execute' as const,
        expression: 'true',
        action_parameters: {
          id: OWASP_RULESET_ID,
          overrides: {
            categories: [{ category: 'paranoia-level-3', enabled: false }],
            rules: [{ id: OWASP_ANOMALY_RULE_ID, score_threshold: 25 }],
          },
        },
      },
    ];
    const v1 = asRuleset(
      await cf.rulesets.phases.update('http_request_firewall_managed', { zone_id, rules }),
    );
    expect(v1).toMatchObject({ kind: 'zone', version: '1', phase: 'http_request_firewall_managed' });
    const v2 = asRuleset(
      await cf.rulesets.phases.update('http_request_firewall_managed', { zone_id, rules: [] }),
    );
    expect(await cf.rulesets.phases.get('http_request_firewall_managed', { zone_id })).toEqual(v2);
    const versions: string[] = [];
    for await (const version of cf.rulesets.phases.versions.list('http_request_firewall_managed', {
      zone_id,
    })) {
      versions.push(version.version);
    }
    expect(versions).toEqual(['1', '2']);
    expect(
      await cf.rulesets.phases.versions.get('1', { zone_id, ruleset_phase: 'http_request_firewall_managed' }),
    ).toEqual(v1);
  });

  it('waf_migration as a request option: a Pro zone stores enabled managed rules only by migrating', async () => {
    const cf = client();
    const rules = [
      {
        action: 'execute' as const,
        expression: 'true',
        action_parameters: { id: CLOUDFLARE_MANAGED_RULESET_ID },
      },
    ];
    const enabled = await rejection(
      cf.rulesets.phases.update('http_request_firewall_managed', { zone_id: ZONES.pro, rules }),
      BadRequestError,
    );
    expect(enabled.errors[0]).toMatchObject({ code: 20206, source: { pointer: '/rules/0/enabled' } });
    const migrated = (await cf.rulesets.phases.update(
      'http_request_firewall_managed',
      { zone_id: ZONES.pro, rules },
      { query: { waf_migration: 'pending', phase_two: 1 } },
    )) as { rules: { enabled: boolean }[] };
    expect(migrated.rules.map((rule) => rule.enabled)).toEqual([true]);
    const status = await cf.get<{ result: { migration_state: string } }>(
      `/zones/${ZONES.pro}/waf_migration/status`,
    );
    expect(status.result.migration_state).toBe('complete');
    // Irreversible: a second migration is refused, and ordinary updates keep enabled rules from now on.
    const again = await rejection(
      cf.rulesets.phases.update(
        'http_request_firewall_managed',
        { zone_id: ZONES.pro, rules },
        { query: { waf_migration: 'pending', phase_two: 1 } },
      ),
      BadRequestError,
    );
    expect(again.errors[0]).toMatchObject({ code: 10632 });
    await cf.rulesets.phases.update('http_request_firewall_managed', { zone_id: ZONES.pro, rules });
  });

  it('managed rulesets are read-only; read-only tokens cannot write', async () => {
    const managed = await client().rulesets.get(CLOUDFLARE_MANAGED_RULESET_ID, { zone_id });
    expect(managed).toMatchObject({ kind: 'managed' });
    const readOnly = await rejection(
      client().rulesets.delete(OWASP_RULESET_ID, { zone_id }),
      PermissionDeniedError,
    );
    expect(readOnly.errors[0]).toMatchObject({ code: 20203 });
    const denied = await rejection(
      client(READ_TOKEN).rulesets.create({ zone_id, name: 'x', kind: 'custom', phase: CUSTOM }),
      PermissionDeniedError,
    );
    expect(denied.errors[0]).toMatchObject({ code: 10000 });
  });
});
