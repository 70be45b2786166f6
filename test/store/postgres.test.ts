import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src/store/migrations.js';
import { migratePostgresDatabase, openPostgresStore } from '../../src/store/postgres.js';
import { migratePostgres } from '../../src/store/postgres-migrations.js';
import type { Store } from '../../src/store/store.js';
import {
  dropTestSchema,
  openTestPostgresStore,
  POSTGRES_TEST_KIND,
  POSTGRES_TEST_URL,
  rawQuery,
} from '../support/postgres.js';
import { storeContract } from './contract.js';

storeContract(
  `PostgreSQL store (${POSTGRES_TEST_KIND})`,
  openTestPostgresStore,
  POSTGRES_TEST_KIND === 'PGlite'
    ? 'postgres tests: on PGlite, in-process (no server: set CFRULES_TEST_POSTGRES=postgres://… to use one)'
    : 'postgres tests: on the PostgreSQL server of CFRULES_TEST_POSTGRES',
);

describe(`PostgreSQL schema (${POSTGRES_TEST_KIND})`, () => {
  it('is migrated once when several instances open a new database at the same moment', async () => {
    const schema = `test_${randomBytes(6).toString('hex')}`;
    const opened = await Promise.allSettled(
      [1, 2, 3].map(() => openPostgresStore(POSTGRES_TEST_URL, { schema, poolSize: 2 })),
    );
    const stores = opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    try {
      expect(opened.filter((result) => result.status === 'rejected')).toEqual([]);
      // Each sees the others' writes: one schema, whole.
      const [first, second] = stores as [Store, Store];
      await first.transaction((tx) =>
        tx.accounts.put({
          id: 'a'.repeat(32),
          name: 'A',
          email: 'a@example.com',
          apiKeyHash: null,
          createdOn: '',
        }),
      );
      expect(await second.transaction((tx) => tx.accounts.count())).toBe(1);
      expect(await migratePostgresDatabase(POSTGRES_TEST_URL, { schema })).toEqual([]);
    } finally {
      for (const store of stores) await store.close();
      await dropTestSchema(schema);
    }
  });

  it("is migrated from version 6 with each zone's numbers of filters and firewall rules (PGlite)", async () => {
    const db = new PGlite();
    // Statements with parameters one at a time; a migration's several statements at once.
    const connection = {
      query: async (sql: string, params?: readonly unknown[]) =>
        params?.length ? db.query(sql, params as unknown[]) : ((await db.exec(sql)).at(-1) ?? { rows: [] }),
    };
    try {
      expect(await migratePostgres(connection, 6)).toEqual([1, 2, 3, 4, 5, 6]);
      await db.exec(`
        INSERT INTO accounts (id, name, email, created_on) VALUES ('a', 'A', 'a@example.com', '');
        INSERT INTO zones (id, name, plan, account_id, paused, created_on, modified_on)
          VALUES ('busy', 'busy.example', 'free', 'a', 0, '', ''), ('empty', 'empty.example', 'free', 'a', 0, '', '');
        INSERT INTO filters (id, zone_id, expression, description, paused, created_on, modified_on)
          VALUES ('f1', 'busy', 'ssl', '', 0, '', ''), ('f2', 'busy', 'true', '', 0, '', '');
        INSERT INTO firewall_rules (id, zone_id, filter_id, action, paused, description, products, created_on, modified_on)
          VALUES ('r1', 'busy', 'f1', 'block', 0, '', '[]', '', '');
      `);
      expect(await migratePostgres(connection, 7)).toEqual([7]);
      const counts = async () =>
        (await db.query('SELECT zone_id, filters, firewall_rules FROM zone_counts ORDER BY zone_id')).rows;
      expect(await counts()).toEqual([
        { zone_id: 'busy', filters: 2, firewall_rules: 1 },
        { zone_id: 'empty', filters: 0, firewall_rules: 0 },
      ]);
      // Kept from there on, through a zone's deletion and its cascades too.
      await db.exec(`
        INSERT INTO filters (id, zone_id, expression, description, paused, created_on, modified_on)
          VALUES ('g1', 'empty', 'ssl', '', 0, '', '');
        DELETE FROM zones WHERE id = 'busy';
      `);
      expect(await counts()).toEqual([{ zone_id: 'empty', filters: 1, firewall_rules: 0 }]);
    } finally {
      await db.close();
    }
  });

  it('refuses a database of a newer cfrules, leaving it unchanged', async () => {
    // On PGlite, a database directory of its own, which the test can also open directly.
    const dir = mkdtempSync(join(tmpdir(), 'cfrules-pglite-'));
    const schema = `test_${randomBytes(6).toString('hex')}`;
    const [url, options] =
      POSTGRES_TEST_KIND === 'PGlite' ? [`pglite:${dir}`, {}] : [POSTGRES_TEST_URL, { schema }];
    const newer = `UPDATE cfrules_schema SET version = ${schemaVersion + 1}`;
    try {
      await (await openPostgresStore(url, options)).close();
      if (POSTGRES_TEST_KIND === 'PGlite') {
        const db = new PGlite(dir);
        await db.exec(newer);
        await db.close();
      } else {
        await rawQuery(schema, newer);
      }
      await expect(openPostgresStore(url, options)).rejects.toThrow(
        `database schema version ${schemaVersion + 1} is newer than this cfrules (${schemaVersion}); upgrade cfrules`,
      );
      await expect(migratePostgresDatabase(url, options)).rejects.toThrow(/is newer than this cfrules/);
    } finally {
      await dropTestSchema(schema);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
