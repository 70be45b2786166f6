import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../../src/store/migrations.js';
import { configure, openSqliteStore } from '../../src/store/sqlite.js';
import type {
  AccountRecord,
  FilterRecord,
  RulesetRecord,
  StoreTransaction,
  ZoneRecord,
} from '../../src/store/store.js';
import { account, all, filter, ids, rule, storeContract, T0, zone } from './contract.js';

storeContract('SQLite store', async () => openSqliteStore(':memory:'));

// ——— database files ———

describe('SQLite store files', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cfrules-store-'));
    path = join(dir, 'cfrules.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Every file of the directory (database, WAL, shared memory) with its bytes. */
  const snapshot = () =>
    Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name))]));

  /** An account and zones as rows of a database at an earlier version (the tables of migration 1). */
  const insertAccount = (db: Database.Database, a: AccountRecord) =>
    db
      .prepare('INSERT INTO accounts (id, name, email, created_on) VALUES (?, ?, ?, ?)')
      .run(a.id, a.name, a.email, a.createdOn);
  const insertZones = (db: Database.Database, accountId: string, zones: readonly ZoneRecord[]) => {
    const insert = db.prepare(
      'INSERT INTO zones (id, name, plan, account_id, paused, created_on, modified_on) VALUES (?, ?, ?, ?, 0, ?, ?)',
    );
    for (const each of zones) insert.run(each.id, each.name, each.plan, accountId, T0, T0);
  };

  const userVersion = (file: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return db.pragma('user_version', { simple: true });
    } finally {
      db.close();
    }
  };

  it('keep their data over close and reopen, in WAL mode, without running migrations again', async () => {
    const first = openSqliteStore(path);
    const a = account({ apiKeyHash: 'd'.repeat(64) });
    const z = zone(a.id, { plan: 'business' });
    const f = filter(z.id, { ref: 'kept' });
    await first.transaction(async (tx) => {
      await tx.accounts.put(a);
      await tx.zones.insert(z);
      await tx.filters.insert(f);
    });
    await first.close();
    expect(userVersion(path)).toBe(schemaVersion);

    // Migration 1 creates tables: running it again would throw.
    const second = openSqliteStore(path);
    try {
      await second.transaction(async (tx) => {
        expect(await tx.accounts.getByApiKeyHash(a.apiKeyHash ?? '')).toEqual(a);
        expect(await tx.zones.get(z.id)).toEqual(z);
        expect(await tx.filters.list(z.id, {}, all)).toEqual({ items: [f], totalCount: 1 });
      });
    } finally {
      await second.close();
    }
    expect(userVersion(path)).toBe(schemaVersion);
    const raw = new Database(path);
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      raw.close();
    }
  });

  it('flush every commit (synchronous=FULL) unless told synchronous=normal, and refuse other modes', async () => {
    // synchronous is a setting of each connection, so it is read back on the connection configured.
    const levels = { full: 2, normal: 1 } as const;
    for (const [mode, level] of [
      [undefined, levels.full],
      ['full', levels.full],
      ['normal', levels.normal],
    ] as const) {
      const db = new Database(path);
      try {
        configure(db, { synchronous: mode });
        expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
        expect(db.pragma('synchronous', { simple: true })).toBe(level);
      } finally {
        db.close();
      }
    }
    // @ts-expect-error: a mode from an untyped caller (a config file, JavaScript)
    expect(() => openSqliteStore(path, { synchronous: 'off' })).toThrow(
      'synchronous must be one of full, normal, not off',
    );
    const normal = openSqliteStore(path, { synchronous: 'normal' });
    const a = account();
    await normal.transaction((tx) => tx.accounts.put(a));
    await normal.close();
    const reopened = openSqliteStore(path);
    try {
      expect(await reopened.transaction((tx) => tx.accounts.get(a.id))).toEqual(a);
    } finally {
      await reopened.close();
    }
  });

  it('see the commits of another connection to the same file as a new generation of every table', async () => {
    const first = openSqliteStore(path);
    const second = openSqliteStore(path);
    try {
      const a = account();
      const before = first.generation(['accounts']);
      const filters = first.generation(['filters']);
      expect(first.generation(['accounts'])).toBe(before);
      await second.transaction((tx) => tx.accounts.put(a));
      expect(first.generation(['accounts'])).not.toBe(before);
      expect(first.generation(['filters'])).not.toBe(filters);
      expect(await first.transaction((tx) => tx.accounts.get(a.id))).toEqual(a);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('migrate only what has not run', async () => {
    const db = new Database(path);
    try {
      expect(migrate(db)).toEqual(Array.from({ length: schemaVersion }, (_, i) => i + 1));
      expect(migrate(db)).toEqual([]);
      expect(db.pragma('user_version', { simple: true })).toBe(schemaVersion);
    } finally {
      db.close();
    }
  });

  it('at version 3 are migrated with their filters, rules, order and keys intact', async () => {
    const db = new Database(path);
    expect(migrate(db, 3)).toEqual([1, 2, 3]);
    const a = account();
    const [z, other] = [zone(a.id), zone(a.id)];
    // Inserted out of creation order on purpose (seq 3 before 1), with a gap left by a deleted filter.
    const [f1, f2, f3] = [filter(z.id, { ref: 'one' }), filter(z.id, { paused: true }), filter(other.id)];
    const r = rule(z.id, f2.id);
    const values = (f: FilterRecord) => [
      f.id,
      f.zoneId,
      f.expression,
      f.description,
      f.paused ? 1 : 0,
      f.ref,
    ];
    try {
      insertAccount(db, a);
      insertZones(db, a.id, [z, other]);
      const insertFilter = db.prepare(
        `INSERT INTO filters (seq, id, zone_id, expression, description, paused, ref, created_on, modified_on)
          VALUES (?, ?, ?, ?, ?, ?, ?, '${T0}', '${T0}')`,
      );
      insertFilter.run(3, ...values(f2));
      insertFilter.run(1, ...values(f1));
      insertFilter.run(4, ...values(filter(z.id)));
      insertFilter.run(2, ...values(f3));
      db.prepare('DELETE FROM filters WHERE seq = 4').run();
      db.prepare(
        `INSERT INTO firewall_rules (id, zone_id, filter_id, action, paused, description, products, created_on,
          modified_on) VALUES (?, ?, ?, 'block', 0, '', '[]', '${T0}', '${T0}')`,
      ).run(r.id, z.id, f2.id);
    } finally {
      db.close();
    }

    const store = openSqliteStore(path);
    try {
      expect(userVersion(path)).toBe(schemaVersion);
      const run = <T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> => store.transaction(work);
      expect(await run((tx) => tx.filters.list(z.id, {}, all))).toEqual({ items: [f1, f2], totalCount: 2 });
      expect((await run((tx) => tx.filters.list(other.id, {}, all))).items).toEqual([f3]);
      expect(await run((tx) => tx.firewallRules.getWithFilter(z.id, r.id))).toEqual({ rule: r, filter: f2 });
      // The foreign keys and the cascade hold on the rebuilt table.
      await expect(run((tx) => tx.filters.delete(z.id, [f2.id]))).rejects.toThrow(/FOREIGN KEY/);
      await expect(run((tx) => tx.firewallRules.insert(rule(other.id, f2.id)))).rejects.toThrow(
        /FOREIGN KEY/,
      );
      // New filters come after the old ones, also after the last one was deleted.
      const [f4, f5] = [filter(z.id), filter(z.id)];
      await run((tx) => tx.filters.insert(f4));
      await run((tx) => tx.filters.delete(z.id, [f4.id]));
      await run((tx) => tx.filters.insert(f5));
      expect(ids(await run((tx) => tx.filters.list(z.id, {}, all)))).toEqual([f1.id, f2.id, f5.id]);
      expect(
        await run((tx) => tx.filters.insertUnlessDuplicate({ ...filter(z.id), expression: f1.expression })),
      ).toBe(false);
      expect(await run((tx) => tx.zones.delete(z.id))).toBe(true);
      expect(
        await run(async (tx) => [await tx.filters.count(z.id), await tx.firewallRules.count(z.id)]),
      ).toEqual([0, 0]);
      expect((await run((tx) => tx.filters.list(other.id, {}, all))).items).toEqual([f3]);
    } finally {
      await store.close();
    }
    const raw = new Database(path, { readonly: true });
    try {
      expect(raw.prepare("SELECT name FROM sqlite_sequence WHERE name = 'filters'").all()).toEqual([]);
      expect(raw.pragma('foreign_key_check')).toEqual([]);
      expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      raw.close();
    }
  });

  it('at version 4 are migrated with their zones, order and children intact; names then unique per account', async () => {
    const db = new Database(path);
    expect(migrate(db, 4)).toEqual([1, 2, 3, 4]);
    const [a, b] = [account(), account()];
    const [z1, z2] = [zone(a.id), zone(a.id)];
    const f = filter(z2.id);
    try {
      for (const each of [a, b]) insertAccount(db, each);
      insertZones(db, a.id, [z1, z2]);
      db.prepare(
        `INSERT INTO filters (id, zone_id, expression, description, paused, created_on, modified_on)
          VALUES (?, ?, ?, '', 0, '${T0}', '${T0}')`,
      ).run(f.id, z2.id, f.expression);
    } finally {
      db.close();
    }
    const store = openSqliteStore(path);
    try {
      const run = <T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> => store.transaction(work);
      expect(ids(await run((tx) => tx.zones.list({}, all)))).toEqual([z1.id, z2.id]);
      expect(await run((tx) => tx.filters.count(z2.id))).toBe(1);
      // Another account may now use a name; the same account still may not, and new zones come last.
      const twin = { ...zone(b.id), name: z1.name };
      await run((tx) => tx.zones.insert(twin));
      await expect(run((tx) => tx.zones.insert({ ...zone(a.id), name: z1.name }))).rejects.toThrow(/UNIQUE/);
      expect(ids(await run((tx) => tx.zones.list({}, all)))).toEqual([z1.id, z2.id, twin.id]);
      // The cascade holds on the rebuilt table.
      await run((tx) => tx.zones.delete(z2.id));
      expect(await run((tx) => tx.filters.count(z2.id))).toBe(0);
    } finally {
      await store.close();
    }
  });

  it("at version 5 keep their zones' rulesets; account rulesets then have tables of their own", async () => {
    const db = new Database(path);
    expect(migrate(db, 5)).toEqual([1, 2, 3, 4, 5]);
    const a = account();
    const z = zone(a.id, { plan: 'enterprise' });
    const rules = [{ id: 'r'.repeat(32), version: 1, action: 'block', expression: 'true' }];
    try {
      insertAccount(db, a);
      insertZones(db, a.id, [z]);
      db.prepare(
        "INSERT INTO rulesets (id, zone_id, kind, phase, name, version) VALUES (?, ?, 'zone', 'http_request_firewall_custom', 'default', 1)",
      ).run('e'.repeat(32), z.id);
      db.prepare(
        "INSERT INTO ruleset_versions (ruleset_id, version, description, rules, last_updated) VALUES (?, 1, '', ?, ?)",
      ).run('e'.repeat(32), JSON.stringify(rules), T0);
    } finally {
      db.close();
    }
    const store = openSqliteStore(path);
    try {
      const run = <T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> => store.transaction(work);
      const kept = await run((tx) => tx.rulesets.entryPoint(z.id, 'http_request_firewall_custom'));
      expect(kept).toMatchObject({ id: 'e'.repeat(32), ownerId: z.id, kind: 'zone', version: 1, rules });
      const root = { ...(kept as RulesetRecord), id: 'f'.repeat(32), ownerId: a.id, kind: 'root' as const };
      await run((tx) => tx.accountRulesets.insert(root));
      expect(await run((tx) => tx.accountRulesets.entryPoint(a.id, 'http_request_firewall_custom'))).toEqual(
        root,
      );
      expect(await run((tx) => tx.accountRulesets.list(z.id))).toEqual([]);
      // One root entry point per phase and account, whatever the service does.
      await expect(run((tx) => tx.accountRulesets.insert({ ...root, id: 'c'.repeat(32) }))).rejects.toThrow(
        /UNIQUE/,
      );
      expect(await run((tx) => tx.rulesets.list(z.id))).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it("at version 6 are migrated with each zone's numbers of filters and firewall rules", async () => {
    const db = new Database(path);
    expect(migrate(db, 6)).toEqual([1, 2, 3, 4, 5, 6]);
    const a = account();
    const [busy, quiet, empty] = [zone(a.id), zone(a.id), zone(a.id)];
    try {
      insertAccount(db, a);
      insertZones(db, a.id, [busy, quiet, empty]);
      const insertFilter = db.prepare(
        "INSERT INTO filters (id, zone_id, expression, description, paused, created_on, modified_on) VALUES (?, ?, ?, '', 0, ?, ?)",
      );
      const insertRule = db.prepare(
        "INSERT INTO firewall_rules (id, zone_id, filter_id, action, paused, description, products, created_on, modified_on) VALUES (?, ?, ?, 'block', 0, '', '[]', ?, ?)",
      );
      for (let i = 0; i < 7; i++) {
        const id = `f${i}`.padEnd(32, '0');
        insertFilter.run(id, busy.id, `http.host eq "${i}.example"`, T0, T0);
        if (i < 3) insertRule.run(`r${i}`.padEnd(32, '0'), busy.id, id, T0, T0);
      }
      insertFilter.run('q'.repeat(32), quiet.id, 'ssl', T0, T0);
    } finally {
      db.close();
    }
    const store = openSqliteStore(path);
    try {
      const counts = (zoneId: string) =>
        store.transaction(async (tx) => [
          await tx.filters.count(zoneId),
          await tx.firewallRules.count(zoneId),
        ]);
      expect(await counts(busy.id)).toEqual([7, 3]);
      expect(await counts(quiet.id)).toEqual([1, 0]);
      expect(await counts(empty.id)).toEqual([0, 0]);
      // And kept from there on.
      await store.transaction((tx) => tx.filters.insert(filter(empty.id)));
      expect(await counts(empty.id)).toEqual([1, 0]);
    } finally {
      await store.close();
    }
  });

  it('from a newer cfrules are refused and left untouched', async () => {
    await openSqliteStore(path).close();
    const db = new Database(path);
    db.pragma(`user_version = ${schemaVersion + 5}`);
    db.close();
    const before = snapshot();
    expect(() => openSqliteStore(path)).toThrow(
      `database schema version ${schemaVersion + 5} is newer than this cfrules (${schemaVersion}); upgrade cfrules`,
    );
    expect(snapshot()).toEqual(before);
  });

  it('from a newer cfrules are not even switched to WAL', async () => {
    const db = new Database(path);
    db.exec('CREATE TABLE future (x)');
    db.pragma(`user_version = ${schemaVersion + 1}`);
    db.close();
    const before = snapshot();
    expect(() => openSqliteStore(path)).toThrow(/is newer than this cfrules/);
    expect(snapshot()).toEqual(before);
  });
});
