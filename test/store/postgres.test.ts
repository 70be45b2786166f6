import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src/store/migrations.js';
import { migratePostgresDatabase, openPostgresStore } from '../../src/store/postgres.js';
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
