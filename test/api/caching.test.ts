// The service keeps what it read in memory (src/service/store-cache.ts): credentials, zones, and the answers
// of reads of filters and rules. A credential that is revoked, narrowed or replaced, a zone, filter or rule
// that changes, must show on the very next request, whether the change comes through this process's store
// or from another process on the same database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { InjectOptions } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.js';
import { digest } from '../../src/service/auth.js';
import { applyConfig, readConfig } from '../../src/service/setup.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/store.js';
import {
  ACCOUNT,
  API_KEY,
  CONFIG,
  EMAIL,
  freshHarnessPerTest,
  type Harness,
  TOKEN,
  ZONES,
  zonePath,
} from './harness.js';

/** CONFIG with the given changes to ACCOUNT's entry (its key, its tokens). */
const configWith = (change: Partial<(typeof CONFIG.accounts)[0]>) => ({
  ...CONFIG,
  accounts: CONFIG.accounts.map((account) => (account.id === ACCOUNT ? { ...account, ...change } : account)),
});
const tokensOf = (config: typeof CONFIG) => config.accounts[0]?.tokens ?? [];

const create = (expression: string) =>
  ({
    method: 'POST' as const,
    url: zonePath(ZONES.enterprise, '/filters'),
    payload: [{ expression }],
  }) satisfies InjectOptions;

describe('credentials changed through the service’s own store', () => {
  let h: Harness;
  freshHarnessPerTest((harness) => {
    h = harness;
  });

  it('refuses writes by a token narrowed to read-only on its very next request', async () => {
    expect((await h.call(create('http.host eq "before.example"'))).status).toBe(200);
    const readOnly = tokensOf(CONFIG).map((token) =>
      token.value === TOKEN ? { ...token, permissions: ['read'] } : token,
    );
    await applyConfig(h.store, readConfig(configWith({ tokens: readOnly })));

    const write = await h.call(create('http.host eq "after.example"'));
    expect(write.status).toBe(403);
    expect(write.body.errors[0]?.code).toBe(10000);
    const read = await h.call({ url: zonePath(ZONES.enterprise, '/filters') });
    expect(read.body.result.map((filter: { expression: string }) => filter.expression)).toEqual([
      'http.host eq "before.example"',
    ]);
  });

  it('refuses a token moved off a zone on its very next request to it', async () => {
    const url = zonePath(ZONES.business, '/filters');
    expect((await h.call({ url })).status).toBe(200);
    const scoped = tokensOf(CONFIG).map((token) =>
      token.value === TOKEN ? { ...token, zones: ['example.com'] } : token,
    );
    await applyConfig(h.store, readConfig(configWith({ tokens: scoped })));
    expect((await h.call({ url })).status).toBe(403);
    expect((await h.call({ url: zonePath(ZONES.enterprise, '/filters') })).status).toBe(200);
  });

  it('refuses a replaced global API key at once, and accepts the new one', async () => {
    const byKey = (key: string) =>
      h.call({
        url: zonePath(ZONES.enterprise, '/filters'),
        auth: false,
        headers: { 'x-auth-email': EMAIL, 'x-auth-key': key },
      });
    expect((await byKey(API_KEY)).status).toBe(200);
    const newKey = 'b'.repeat(37);
    await applyConfig(h.store, readConfig(configWith({ api_key: newKey })));

    const old = await byKey(API_KEY);
    expect(old.status).toBe(403);
    expect(old.body.errors[0]?.code).toBe(9103);
    expect((await byKey(newKey)).status).toBe(200);
  });

  it('checks expressions against a zone’s new plan on the very next request', async () => {
    const regex = create('http.request.uri.path matches "^/admin"');
    const downgraded = {
      ...CONFIG,
      zones: CONFIG.zones.map((zone) => (zone.id === ZONES.enterprise ? { ...zone, plan: 'free' } : zone)),
    };
    // Read the zone first, so that the service has seen it on its old plan.
    expect((await h.call({ url: zonePath(ZONES.enterprise, '/filters') })).status).toBe(200);
    await applyConfig(h.store, readConfig(downgraded));
    const refused = await h.call(regex);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.errors)).toMatch(/Business/);
  });
});

describe('filters and rules read again after a change', () => {
  let h: Harness;
  freshHarnessPerTest((harness) => {
    h = harness;
  });

  it('shows a rule with its filter as changed through the Filters API', async () => {
    const filter = (await h.call(create('http.host eq "old.example"'))).body.result[0];
    const rule = (
      await h.call({
        method: 'POST',
        url: zonePath(ZONES.enterprise, '/firewall/rules'),
        payload: [{ action: 'block', filter: { id: filter.id } }],
      })
    ).body.result[0];
    const ruleUrl = zonePath(ZONES.enterprise, `/firewall/rules/${rule.id}`);
    const listUrl = zonePath(ZONES.enterprise, '/firewall/rules');
    expect((await h.call({ url: ruleUrl })).body.result.filter.expression).toBe('http.host eq "old.example"');
    expect((await h.call({ url: listUrl })).body.result[0].filter.expression).toBe(
      'http.host eq "old.example"',
    );

    const updated = await h.call({
      method: 'PUT',
      url: zonePath(ZONES.enterprise, `/filters/${filter.id}`),
      payload: { expression: 'http.host eq "new.example"' },
    });
    expect(updated.status).toBe(200);
    expect((await h.call({ url: ruleUrl })).body.result.filter.expression).toBe('http.host eq "new.example"');
    expect((await h.call({ url: listUrl })).body.result[0].filter.expression).toBe(
      'http.host eq "new.example"',
    );
  });
});

describe('credentials, zones and filters changed by another process on the same database file', () => {
  let dir: string;
  let store: Store;
  let call: (options: InjectOptions & { token?: string }) => Promise<{
    status: number;
    body: { errors: { code: number }[] };
  }>;
  let close: () => Promise<void>;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cfrules-credentials-'));
    store = openSqliteStore(join(dir, 'cfrules.db'));
    await applyConfig(store, readConfig(CONFIG));
    const app = buildApp({ store, reportError: (error) => expect.fail(String(error)) });
    call = async ({ token = TOKEN, ...rest }) => {
      const response = await app.inject({ ...rest, headers: { authorization: `Bearer ${token}` } });
      return { status: response.statusCode, body: response.json() };
    };
    close = async () => {
      await app.close();
      await store.close();
    };
  });
  afterEach(async () => {
    await close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Another connection to the database, as another process (a second `cfrules serve --config`) has. */
  const elsewhere = (work: (db: Database.Database) => void) => {
    const db = new Database(join(dir, 'cfrules.db'));
    try {
      work(db);
    } finally {
      db.close();
    }
  };

  it('refuses a token deleted by another process on its very next request', async () => {
    const url = zonePath(ZONES.enterprise, '/filters');
    expect((await call({ url })).status).toBe(200);
    elsewhere((db) => db.prepare('DELETE FROM tokens WHERE token_hash = ?').run(digest(TOKEN)));
    const refused = await call({ url });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0]?.code).toBe(9109);
  });

  it('refuses writes by a token narrowed by another process’s config on its very next request', async () => {
    expect((await call({ url: zonePath(ZONES.enterprise, '/filters') })).status).toBe(200);
    const other = openSqliteStore(join(dir, 'cfrules.db'));
    const readOnly = tokensOf(CONFIG).map((token) =>
      token.value === TOKEN ? { ...token, permissions: ['read'] } : token,
    );
    try {
      await applyConfig(other, readConfig(configWith({ tokens: readOnly })));
    } finally {
      await other.close();
    }
    const write = await call({ ...create('http.host eq "late.example"') });
    expect(write.status).toBe(403);
    expect(write.body.errors[0]?.code).toBe(10000);
  });

  it('lists a filter that another process added, and forgets one it deleted', async () => {
    const url = zonePath(ZONES.enterprise, '/filters');
    const expressions = async () =>
      ((await call({ url })).body as unknown as { result: { expression: string }[] }).result.map(
        (filter) => filter.expression,
      );
    expect(await expressions()).toEqual([]);
    const other = openSqliteStore(join(dir, 'cfrules.db'));
    try {
      const app = buildApp({ store: other });
      const added = await app.inject({
        ...create('http.host eq "elsewhere.example"'),
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(added.statusCode).toBe(200);
      expect(await expressions()).toEqual(['http.host eq "elsewhere.example"']);
      const id = added.json().result[0].id;
      expect((await call({ url: `${url}/${id}` })).status).toBe(200);
      elsewhere((db) => db.prepare('DELETE FROM filters WHERE id = ?').run(id));
      expect((await call({ url: `${url}/${id}` })).status).toBe(404);
      await app.close();
    } finally {
      await other.close();
    }
    expect(await expressions()).toEqual([]);
  });

  it('answers 404 for a zone deleted by another process', async () => {
    const url = zonePath(ZONES.business, '/filters');
    expect((await call({ url })).status).toBe(200);
    elsewhere((db) => db.prepare('DELETE FROM zones WHERE id = ?').run(ZONES.business));
    expect((await call({ url })).status).toBe(404);
  });
});
