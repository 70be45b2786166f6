import { migrations, schemaVersion } from './migrations.js';

/**
 * The schema's migrations on PostgreSQL. The version a database has reached is the one row of
 * `cfrules_schema`. All the migrations a database needs run in one transaction, under an advisory lock: when
 * several instances start at the same moment on a new database, one migrates and the others wait, then find
 * nothing left to run. PostgreSQL's DDL is transactional, so a failed migration leaves nothing behind.
 */

/** What the migrations need of a connection: one statement at a time, with positional parameters. */
export interface SqlRunner {
  query(sql: string, params?: readonly unknown[]): Promise<{ rows: unknown[] }>;
}

/** The advisory lock's key: any constant 64-bit number, the same for every cfrules. */
const MIGRATION_LOCK = 7_231_904_115;

async function versionOf(connection: SqlRunner): Promise<number> {
  const { rows } = await connection.query(
    "SELECT CAST(to_regclass('cfrules_schema') IS NOT NULL AS INTEGER) AS present",
  );
  if ((rows[0] as { present: number }).present === 0) return 0;
  const found = await connection.query('SELECT version FROM cfrules_schema');
  return (found.rows[0] as { version: number } | undefined)?.version ?? 0;
}

const newerError = (version: number): Error =>
  new Error(
    `database schema version ${version} is newer than this cfrules (${schemaVersion}); upgrade cfrules`,
  );

/**
 * Runs the migrations the database has not run yet, up to `to` (the latest by default); resolves to their
 * versions. Refuses a database from a newer cfrules without changing it.
 */
export async function migratePostgres(connection: SqlRunner, to: number = schemaVersion): Promise<number[]> {
  // Read first without the lock: a database already up to date (every start but the first) waits for no one.
  const current = await versionOf(connection);
  if (current > schemaVersion) throw newerError(current);
  if (current >= to) return [];
  // Taken before the transaction, not in it: a transaction that begins after another's commit sees the
  // tables it created, where one begun before the wait would look them up in a stale catalog.
  await connection.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
  try {
    await connection.query('BEGIN');
    try {
      const version = await versionOf(connection);
      if (version > schemaVersion) throw newerError(version);
      const applied: number[] = [];
      for (const migration of migrations) {
        if (migration.version <= version || migration.version > to) continue;
        await connection.query(migration.postgres);
        applied.push(migration.version);
      }
      if (applied.length > 0) {
        await connection.query(
          'CREATE TABLE IF NOT EXISTS cfrules_schema (one INTEGER PRIMARY KEY CHECK (one = 1), version INTEGER NOT NULL)',
        );
        await connection.query(
          'INSERT INTO cfrules_schema (one, version) VALUES (1, $1) ON CONFLICT (one) DO UPDATE SET version = $1',
          [applied[applied.length - 1]],
        );
      }
      await connection.query('COMMIT');
      return applied;
    } catch (error) {
      await connection.query('ROLLBACK');
      throw error;
    }
  } finally {
    await connection.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`);
  }
}

/** The version the database has reached (0 for an empty one). */
export const postgresSchemaVersion = versionOf;
