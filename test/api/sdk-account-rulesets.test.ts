// The official `cloudflare` SDK (7.3.0) driving the account-level Rulesets API over a real socket: every
// `client.rulesets` method with `account_id`, the SDK's error classes for refused requests, and account
// rulesets kept across a restart of the service (SQLite file; PostgreSQL when a server is configured).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BadRequestError, NotFoundError, PermissionDeniedError } from 'cloudflare';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OWASP_RULESET_ID } from '../../src/engine/managed/index.js';
import { openPostgresStore } from '../../src/store/postgres.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/store.js';
import { dropTestSchema, POSTGRES_TEST_KIND, POSTGRES_TEST_URL } from '../support/postgres.js';
import { ACCOUNT, API_KEY, EMAIL, READ_TOKEN, SCOPED_TOKEN, TOKEN } from './harness.js';
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
const account_id = ACCOUNT;
const CUSTOM = 'http_request_firewall_custom';
const ID = /^[0-9a-f]{32}$/;

/** The SDK types most ruleset answers as `Ruleset | unknown` (that is, unknown): the shape the tests read. */
interface Ruleset {
  id: string;
  kind: string;
  version: string;
  rules: { id: string; action: string; enabled: boolean; version: string; action_parameters?: unknown }[];
}
const asRuleset = (value: unknown): Ruleset => value as Ruleset;

describe('client.rulesets with account_id', () => {
  it('create a custom ruleset, deploy it from the root entry point with phases.update, read both', async () => {
    const cf = client();
    const custom = asRuleset(
      await cf.rulesets.create({
        account_id,
        name: 'account sdk',
        kind: 'custom',
        phase: CUSTOM,
        rules: [{ action: 'block', expression: 'http.request.uri.path eq "/admin"' }],
      }),
    );
    expect(custom).toMatchObject({ kind: 'custom', version: '1' });
    expect(custom.id).toMatch(ID);
    expect(await cf.rulesets.get(custom.id, { account_id })).toEqual(custom);

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
    for await (const ruleset of cf.rulesets.list({ account_id, per_page: 1 } as never)) ids.push(ruleset.id);
    expect(ids.slice(-2)).toEqual([custom.id, entry.id]);

    const updated = asRuleset(await cf.rulesets.update(custom.id, { account_id, description: 'v2' }));
    expect(updated).toMatchObject({ version: '2', description: 'v2' });
    const versions: string[] = [];
    for await (const version of cf.rulesets.versions.list(custom.id, { account_id }))
      versions.push(version.version);
    expect(versions).toEqual(['1', '2']);
    expect(await cf.rulesets.versions.get('1', { account_id, ruleset_id: custom.id })).toMatchObject({
      version: '1',
      description: '',
    });
    await cf.rulesets.versions.delete('1', { account_id, ruleset_id: custom.id });
    await rejection(cf.rulesets.versions.get('1', { account_id, ruleset_id: custom.id }), NotFoundError);

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

  it('rules.create / edit / delete with positions', async () => {
    const cf = client();
    const ruleset = asRuleset(
      await cf.rulesets.create({ account_id, name: 'rules', kind: 'custom', phase: CUSTOM, rules: [] }),
    );
    const one = asRuleset(
      await cf.rulesets.rules.create(ruleset.id, {
        account_id,
        action: 'block',
        expression: 'http.host eq "a.example"',
      }),
    );
    const first = one.rules[0]?.id as string;
    const two = asRuleset(
      await cf.rulesets.rules.create(ruleset.id, {
        account_id,
        action: 'managed_challenge',
        expression: 'http.host eq "b.example"',
        position: { before: first },
      }),
    );
    const second = two.rules[0]?.id as string;
    expect(two.rules.map((rule) => rule.id)).toEqual([second, first]);
    const edited = asRuleset(
      await cf.rulesets.rules.edit(second, {
        account_id,
        ruleset_id: ruleset.id,
        enabled: false,
        position: { index: 2 },
      } as never),
    );
    expect(edited.rules.map((rule) => [rule.id, rule.enabled, rule.version])).toEqual([
      [first, true, '1'],
      [second, false, '2'],
    ]);
    const deleted = asRuleset(await cf.rulesets.rules.delete(first, { account_id, ruleset_id: ruleset.id }));
    expect(deleted.rules.map((rule) => rule.id)).toEqual([second]);
    expect(deleted.version).toBe('5');

    const bad = await rejection(
      cf.rulesets.rules.create(ruleset.id, { account_id, action: 'block', expression: 'ip.src eq' }),
      BadRequestError,
    );
    expect(bad.errors[0]).toMatchObject({ code: 20217, source: { pointer: '/expression' } });
    expect(bad.errors[0]?.message).toContain('Filter parsing error (1:10)');
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
    const readOnly = await rejection(
      client(READ_TOKEN).rulesets.create({ account_id, name: 'x', kind: 'custom', phase: CUSTOM }),
      PermissionDeniedError,
    );
    expect(readOnly.errors[0]).toMatchObject({ code: 10000 });
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
