import type Database from 'better-sqlite3';
import { requirePeer } from '../peers.js';
import { assertSchemaSupported, migrate } from './migrations.js';
import { type Prepare, type Query, type QueryOptions, SQLITE } from './sql.js';
import type { Store, StoreTransaction, TableName } from './store.js';
import { SYNCHRONOUS_MODES, type Synchronous } from './synchronous.js';
import { storeTables } from './tables.js';
import { InFlight, Mutex, WriteCounters } from './transactions.js';

/**
 * The SQLite store (better-sqlite3). One connection per store, so one transaction at a time: the others
 * queue. better-sqlite3 answers synchronously, so a transaction's work holds the connection for as long as
 * it computes, never waiting on input or output. Every statement is prepared once, when the store opens, and
 * may only run inside `transaction` (a table method called on a transaction object kept after its
 * transaction ended throws instead of writing outside any transaction).
 */

/** How long a statement waits for another connection's lock before failing with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

// The modes are in ./synchronous.ts, which the CLI checks `--synchronous` with before loading the store.
export { SYNCHRONOUS_MODES, type Synchronous } from './synchronous.js';

export interface SqliteStoreOptions {
  synchronous?: Synchronous;
}

/** Opens (creating and migrating when needed) the database at `path`; `':memory:'` for a throwaway one. */
export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): Store {
  const BetterSqlite3 = requirePeer<typeof Database>('better-sqlite3');
  const db = new BetterSqlite3(path, { timeout: BUSY_TIMEOUT_MS });
  try {
    // Before anything that writes to the file: a database from a newer cfrules is left as it is.
    assertSchemaSupported(db);
    configure(db, options);
    migrate(db);
    // After migrating, which runs with foreign keys off; outside any transaction, where this pragma is a no-op.
    db.pragma('foreign_keys = ON');
    return sqliteStore(db);
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Applies the migrations the database file lacks (`cfrules migrate`); returns the versions applied. */
export function migrateSqliteFile(path: string, options: SqliteStoreOptions = {}): number[] {
  const BetterSqlite3 = requirePeer<typeof Database>('better-sqlite3');
  const db = new BetterSqlite3(path, { timeout: BUSY_TIMEOUT_MS });
  try {
    assertSchemaSupported(db);
    configure(db, options);
    return migrate(db);
  } finally {
    db.close();
  }
}

/** Journal and flush settings of a new connection (exported for the tests, which read the pragmas back). */
export function configure(db: Database.Database, { synchronous = 'full' }: SqliteStoreOptions = {}): void {
  if (!SYNCHRONOUS_MODES.includes(synchronous)) {
    throw new Error(`synchronous must be one of ${SYNCHRONOUS_MODES.join(', ')}, not ${String(synchronous)}`);
  }
  if (db.memory) return;
  // WAL: readers do not block the writer, and a commit is one append to the log.
  const mode = db.pragma('journal_mode = WAL', { simple: true });
  if (mode !== 'wal') throw new Error(`cannot use WAL journal mode on ${db.name} (got ${String(mode)})`);
  // FULL by default: our durability promise is "acknowledged means stored", on disk and not only in the OS
  // page cache. NORMAL trades the last transactions on an OS crash or power loss for speed (see Synchronous).
  db.pragma(`synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
}

function sqliteStore(db: Database.Database): Store {
  const counters = new WriteCounters();
  const inFlight = new InFlight();
  const mutex = new Mutex();
  const written = new Set<TableName>();
  let active = false;
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  let seenDataVersion = dataVersion.get();

  const guard = () => {
    if (!db.open) throw new Error('the store is closed');
    if (!active) throw new Error('store tables can only be used inside the work of store.transaction()');
  };
  const prepare: Prepare = <P extends object, R>(sql: string, options: QueryOptions = {}): Query<P, R> => {
    const statement = db.prepare<[P], R>(sql);
    if (options.raw) statement.raw(true);
    const writes = options.writes ?? [];
    return {
      async get(params: P) {
        guard();
        return statement.get(params);
      },
      async all(params: P) {
        guard();
        return statement.all(params);
      },
      async run(params: P) {
        guard();
        const changes = statement.run(params).changes;
        counters.wrote(writes, written);
        return changes;
      },
    };
  };
  const tx = storeTables({ prepare, dialect: SQLITE });
  // IMMEDIATE: the write lock is taken at BEGIN, so a transaction that reads then writes cannot fail
  // half-way with SQLITE_BUSY because another connection wrote in between.
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');

  const runOne = async <T>(work: (tables: StoreTransaction) => Promise<T>): Promise<T> => {
    begin.run();
    active = true;
    try {
      const result = await work(tx);
      commit.run();
      return result;
    } catch (error) {
      if (db.inTransaction) rollback.run();
      throw error;
    } finally {
      active = false;
      counters.transactionEnded(written);
    }
  };

  return {
    kind: 'sqlite',
    async transaction(work) {
      return inFlight.track(async () => {
        const release = await mutex.acquire();
        try {
          return await runOne(work);
        } finally {
          release();
        }
      });
    },
    generation(tables) {
      if (!db.open) throw new Error('the store is closed');
      // No other connection can reach an in-memory database; for a file, data_version moves when another
      // connection commits.
      if (!db.memory) {
        const version = dataVersion.get();
        if (version !== seenDataVersion) {
          seenDataVersion = version;
          counters.otherCommitted();
        }
      }
      return counters.generation(tables);
    },
    close() {
      return inFlight.close(() => {
        if (db.open) db.close();
      });
    },
  };
}
