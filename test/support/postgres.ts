// Where the tests find PostgreSQL: the server named by CFRULES_TEST_POSTGRES (a postgres:// URL; .ci/run
// sets it when the machine has a server), else PGlite in-process, so that `npm test` exercises the
// PostgreSQL store on any machine. Each test store gets a schema of its own, dropped when it closes.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgresStore } from '../../src/store/postgres.js';
import type { Store } from '../../src/store/store.js';

export const POSTGRES_TEST_URL: string = process.env.CFRULES_TEST_POSTGRES || 'pglite:memory';

/** Which PostgreSQL the tests run on, for test names and the summary line. */
export const POSTGRES_TEST_KIND = POSTGRES_TEST_URL.startsWith('pglite:') ? 'PGlite' : 'server';

/** A new, empty PostgreSQL store in a schema of its own. */
export async function openTestPostgresStore(): Promise<Store> {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const store = await openPostgresStore(POSTGRES_TEST_URL, { schema, poolSize: 4 });
  if (POSTGRES_TEST_KIND === 'PGlite') return store;
  return {
    kind: store.kind,
    transaction: (work) => store.transaction(work),
    generation: (tables) => store.generation(tables),
    async close() {
      await store.close();
      await dropTestSchema(schema);
    },
  };
}

/** Drops a test schema (nothing to do on PGlite in memory, which ends with the process). */
export async function dropTestSchema(schema: string): Promise<void> {
  if (POSTGRES_TEST_KIND === 'PGlite') return;
  await rawQuery(undefined, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
}

/** One statement on the test server's database, in `schema` when given, outside any store. */
export async function rawQuery(schema: string | undefined, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_TEST_URL });
  await client.connect();
  try {
    if (schema !== undefined) await client.query(`SET search_path TO ${schema}`);
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * The store the API tests run on: SQLite in memory, or PostgreSQL when CFRULES_TEST_STORE=postgres (the
 * `postgres` project of vitest.config.ts runs the API suites so).
 */
export const API_TEST_STORE: 'sqlite' | 'postgres' =
  process.env.CFRULES_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';
