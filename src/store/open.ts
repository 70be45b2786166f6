import { schemaVersion } from './migrations.js';
import {
  isPostgresUrl,
  migratePostgresDatabase,
  openPostgresStore,
  type PostgresStoreOptions,
} from './postgres.js';
import { migrateSqliteFile, openSqliteStore, type SqliteStoreOptions } from './sqlite.js';
import type { Store } from './store.js';

/** The options of both stores; each takes its own (`synchronous` is SQLite's, the pool PostgreSQL's). */
export type StoreOptions = SqliteStoreOptions & PostgresStoreOptions;

/**
 * Opens the store a database string names: `postgres://…` (or `postgresql://…`) a PostgreSQL server,
 * `pglite:PATH` PostgreSQL in-process, anything else a SQLite database file (`:memory:` keeps nothing).
 * Either is created and migrated when needed.
 */
export async function openStore(database: string, options: StoreOptions = {}): Promise<Store> {
  if (isPostgresUrl(database)) return openPostgresStore(database, options);
  return openSqliteStore(database, options);
}

/**
 * Brings a database to this cfrules' schema without starting the service (ahead of a deployment); the
 * versions applied, none when it was up to date, and the version it is at now.
 */
export async function migrateDatabase(
  database: string,
  options: StoreOptions = {},
): Promise<{ applied: number[]; version: number }> {
  const applied = isPostgresUrl(database)
    ? await migratePostgresDatabase(database, options)
    : migrateSqliteFile(database, options);
  return { applied, version: schemaVersion };
}

/** The database string with any password replaced, for messages and logs. */
export function describeDatabase(database: string): string {
  if (!isPostgresUrl(database)) return database;
  try {
    const url = new URL(database);
    if (url.password !== '') url.password = '***';
    return url.toString();
  } catch {
    return database.replace(/:[^:@/]*@/, ':***@');
  }
}
