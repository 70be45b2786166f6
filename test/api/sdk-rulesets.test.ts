// The official `cloudflare` SDK (7.3.0) driving the Rulesets API over a real socket: every `client.rulesets`
// method, the cursor pagination of the list, the 204 deletes, error classes, and the `waf_migration` query
// passed as a request option (which the service refuses without a migration hook); the same methods with
// `account_id` on an account's rulesets, and account rulesets kept across a restart of the service (SQLite
// file; PostgreSQL when a server is configured).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BadRequestError, NotFoundError, PermissionDeniedError } from 'cloudflare';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CLOUDFLARE_MANAGED_RULESET_ID,
  OWASP_ANOMALY_RULE_ID,
  OWASP_RULESET_ID,
} from '../../src/engine/managed/index.js';
import { openPostgresStore } from '../../src/store/postgres.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/store.js';
import { dropTestSchema, POSTGRES_TEST_KIND, POSTGRES_TEST_URL } from '../support/postgres.js';
import { ACCOUNT, API_KEY, EMAIL, READ_TOKEN, SCOPED_TOKEN, TOKEN, ZONES } from './harness.js';
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
  kind?: string;
  rules: { id: string; enabled: boolean; version: string; action_parameters?: unknown }[];
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
});

/** What works the same on a zone's rulesets and on an account's: the SDK sends `zone_id` or `account_id`. */
describe.each([
  ['zone', { zone_id: ZONES.enterprise }],
  ['account', { account_id: ACCOUNT }],
] as const)('client.rulesets of a %s', (_scope, scope) => {
  const createEmpty = async (cf: ReturnType<typeof client>, name: string) =>
    asRuleset(await cf.rulesets.create({ ...scope, name, kind: 'custom', phase: CUSTOM, rules: [] }));

  it('create, get, update, list, delete', async () => {
    const cf = client();
    const created = asRuleset(
      await cf.rulesets.create({
        ...scope,
        name: 'sdk',
        kind: 'custom',
        phase: CUSTOM,
        rules: [{ action: 'block', expression: 'ip.src eq 192.0.2.1', description: 'one' }],
      }),
    );
    expect(created).toMatchObject({ name: 'sdk', kind: 'custom', version: '1' });
    expect(created.id).toMatch(ID);
    expect(created.rules[0]?.id).toMatch(ID);
    expect(await cf.rulesets.get(created.id, scope)).toEqual(created);

    const updated = asRuleset(
      await cf.rulesets.update(created.id, { ...scope, description: 'now', rules: [] }),
    );
    expect(updated).toMatchObject({ version: '2', description: 'now', rules: [] });

    const ids: string[] = [];
    for await (const ruleset of cf.rulesets.list({ ...scope, per_page: 1 } as never)) ids.push(ruleset.id);
    expect(ids.slice(0, 2)).toEqual([CLOUDFLARE_MANAGED_RULESET_ID, OWASP_RULESET_ID]);
    expect(ids).toContain(created.id);

    await cf.rulesets.delete(created.id, scope);
    const error = await rejection(cf.rulesets.get(created.id, scope), NotFoundError);
    expect(error.errors[0]).toMatchObject({ code: 20200 });
  });

  it('managed rulesets are read-only; read-only tokens cannot write', async () => {
    const managed = await client().rulesets.get(CLOUDFLARE_MANAGED_RULESET_ID, scope);
    expect(managed).toMatchObject({ kind: 'managed' });
    const readOnly = await rejection(
      client().rulesets.delete(OWASP_RULESET_ID, scope),
      PermissionDeniedError,
    );
    expect(readOnly.errors[0]).toMatchObject({ code: 20203 });
    const denied = await rejection(
      client(READ_TOKEN).rulesets.create({ ...scope, name: 'x', kind: 'custom', phase: CUSTOM }),
      PermissionDeniedError,
    );
    expect(denied.errors[0]).toMatchObject({ code: 10000 });
  });

  it('rules.create / edit / delete with positions', async () => {
    const cf = client();
    const ruleset = await createEmpty(cf, 'rules');
    const one = asRuleset(
      await cf.rulesets.rules.create(ruleset.id, {
        ...scope,
        action: 'block',
        expression: 'http.host eq "a.example"',
      }),
    );
    const first = one.rules[0]?.id as string;
    const two = asRuleset(
      await cf.rulesets.rules.create(ruleset.id, {
        ...scope,
        action: 'managed_challenge',
        expression: 'http.host eq "b.example"',
        position: { before: first },
      }),
    );
    expect(two.rules.map((rule) => rule.id)[1]).toBe(first);
    const second = two.rules[0]?.id as string;
    const edited = asRuleset(
      await cf.rulesets.rules.edit(second, {
        ...scope,
        ruleset_id: ruleset.id,
        enabled: false,
        position: { index: 2 },
      } as never),
    );
    expect(edited.rules.map((rule) => [rule.id, rule.enabled, rule.version])).toEqual([
      [first, true, '1'],
      [second, false, '2'],
    ]);
    const deleted = asRuleset(await cf.rulesets.rules.delete(first, { ...scope, ruleset_id: ruleset.id }));
    expect(deleted.rules.map((rule) => rule.id)).toEqual([second]);
    // Created empty (1), two rules added (2, 3), one edited (4), one deleted (5).
    expect(deleted.version).toBe('5');

    const bad = await rejection(
      cf.rulesets.rules.create(ruleset.id, { ...scope, action: 'block', expression: 'ip.src eq' }),
      BadRequestError,
    );
    expect(bad.errors[0]).toMatchObject({ code: 20217, source: { pointer: '/expression' } });
  });

  it('versions.list / get / delete', async () => {
    const cf = client();
    const ruleset = await createEmpty(cf, 'versions');
    await cf.rulesets.update(ruleset.id, { ...scope, description: 'two' });
    const versions: string[] = [];
    for await (const version of cf.rulesets.versions.list(ruleset.id, scope)) versions.push(version.version);
    expect(versions).toEqual(['1', '2']);
    expect(await cf.rulesets.versions.get('1', { ...scope, ruleset_id: ruleset.id })).toMatchObject({
      version: '1',
      description: '',
    });
    await cf.rulesets.versions.delete('1', { ...scope, ruleset_id: ruleset.id });
    await rejection(cf.rulesets.versions.get('1', { ...scope, ruleset_id: ruleset.id }), NotFoundError);
    await rejection(cf.rulesets.versions.delete('2', { ...scope, ruleset_id: ruleset.id }), BadRequestError);
  });
});

const account_id = ACCOUNT;

describe('client.rulesets with account_id', () => {
  it('create a custom ruleset, deploy it from the root entry point with phases.update, read both', async () => {
    const cf = client();
    const admin = { action: 'block' as const, expression: 'http.request.uri.path eq "/admin"' };
    const custom = asRuleset(
      await cf.rulesets.create({ account_id, name: 'a', kind: 'custom', phase: CUSTOM }),
    );
    await cf.rulesets.rules.create(custom.id, { account_id, ...admin });

    const entry = asRuleset(
      await cf.rulesets.phases.update(CUSTOM, {
        account_id,
        rules: [
          {
            action: 'execute',
            expression: 'cf.zone.name in {"example.com" "pro.example"}',
            action_parameters: { id: custom.id },
          },
        ],
      }),
    );
    expect(entry).toMatchObject({ kind: 'root', version: '1', phase: CUSTOM });
    expect(entry.rules[0]?.action_parameters).toEqual({ id: custom.id });
    expect(await cf.rulesets.phases.get(CUSTOM, { account_id })).toEqual(entry);

    const ids: string[] = [];
    for await (const ruleset of cf.rulesets.list({ account_id })) ids.push(ruleset.id);
    expect(ids.slice(-2)).toEqual([custom.id, entry.id]);

    const entryVersions: string[] = [];
    for await (const version of cf.rulesets.phases.versions.list(CUSTOM, { account_id }))
      entryVersions.push(version.version);
    expect(entryVersions).toEqual(['1']);
    expect(await cf.rulesets.phases.versions.get('1', { account_id, ruleset_phase: CUSTOM })).toEqual(entry);

    // In use: the SDK's BadRequestError with cfrules' code; once the root no longer executes it, it goes.
    const inUse = await rejection(cf.rulesets.delete(custom.id, { account_id }), BadRequestError);
    expect(inUse.errors[0]).toMatchObject({ code: 20210 });
    await cf.rulesets.phases.update(CUSTOM, { account_id, rules: [] });
    await cf.rulesets.delete(custom.id, { account_id });
    const gone = await rejection(cf.rulesets.get(custom.id, { account_id }), NotFoundError);
    expect(gone.errors[0]).toMatchObject({ code: 20200 });
  });

  it('refusals: wrong kind, execute of a missing ruleset, credentials, unknown account', async () => {
    const cf = client();
    const kind = await rejection(
      cf.rulesets.create({ account_id, name: 'x', kind: 'zone', phase: CUSTOM }),
      BadRequestError,
    );
    expect(kind.errors[0]).toMatchObject({ code: 20217, source: { pointer: '/kind' } });
    const missing = await rejection(
      cf.rulesets.phases.update(CUSTOM, {
        account_id,
        rules: [{ action: 'execute', expression: 'true', action_parameters: { id: 'e'.repeat(32) } }],
      }),
      BadRequestError,
    );
    expect(missing.errors[0]).toMatchObject({
      code: 20217,
      source: { pointer: '/rules/0/action_parameters/id' },
    });
    const managed = asRuleset(
      await cf.rulesets.phases.update('http_request_firewall_managed', {
        account_id,
        rules: [
          {
            action: 'execute',
            expression: 'cf.zone.name eq "example.com"',
            action_parameters: { id: OWASP_RULESET_ID },
          },
        ],
      }),
    );
    expect(managed).toMatchObject({ kind: 'root', rules: [{ action: 'execute' }] });

    const scoped = await rejection(
      client(SCOPED_TOKEN)
        .rulesets.list({ account_id })
        .then((page) => page.result),
      PermissionDeniedError,
    );
    expect(scoped.errors[0]).toMatchObject({ code: 10000 });
    const byKey = service.client({ apiEmail: EMAIL, apiKey: API_KEY });
    expect(
      asRuleset(await byKey.rulesets.phases.get('http_request_firewall_managed', { account_id })),
    ).toEqual(managed);
    const unknown = await rejection(
      cf.rulesets.phases.get(CUSTOM, { account_id: '9'.repeat(32) }),
      NotFoundError,
    );
    expect(unknown.errors.map((error) => error.code)).toEqual([7003, 7000]);
  });
});

describe('account rulesets across a restart', () => {
  /** The stores that outlive a service: a SQLite file, and PostgreSQL when a server is configured. */
  const stores: [string, () => { open: () => Promise<Store>; cleanUp: () => Promise<void> }][] = [
    [
      'SQLite file',
      () => {
        const dir = mkdtempSync(join(tmpdir(), 'cfrules-account-rulesets-'));
        return {
          open: async () => openSqliteStore(join(dir, 'cfrules.db')),
          cleanUp: async () => rmSync(dir, { recursive: true, force: true }),
        };
      },
    ],
    ...(POSTGRES_TEST_KIND === 'server'
      ? [
          [
            'PostgreSQL',
            () => {
              const schema = `test_${randomBytes(6).toString('hex')}`;
              return {
                open: () => openPostgresStore(POSTGRES_TEST_URL, { schema, poolSize: 2 }),
                cleanUp: () => dropTestSchema(schema),
              };
            },
          ] as [string, () => { open: () => Promise<Store>; cleanUp: () => Promise<void> }],
        ]
      : []),
  ];

  it.each(stores)('keeps the root entry point and the custom ruleset (%s)', async (_name, make) => {
    const { open, cleanUp } = make();
    try {
      const first = await serveOnSocket(open);
      const cf = first.client();
      const custom = asRuleset(
        await cf.rulesets.create({ account_id, name: 'kept', kind: 'custom', phase: CUSTOM, rules: [] }),
      );
      const entry = await cf.rulesets.phases.update(CUSTOM, {
        account_id,
        rules: [{ action: 'execute', expression: 'true', action_parameters: { id: custom.id } }],
      });
      expect(first.internalErrors).toEqual([]);
      await first.close();

      const second = await serveOnSocket(open);
      try {
        expect(await second.client().rulesets.phases.get(CUSTOM, { account_id })).toEqual(entry);
        expect(await second.client().rulesets.get(custom.id, { account_id })).toEqual(custom);
        expect(second.internalErrors).toEqual([]);
      } finally {
        await second.close();
      }
    } finally {
      await cleanUp();
    }
  });
});
