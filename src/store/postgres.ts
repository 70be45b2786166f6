import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { requirePeer } from '../peers.js';
import { migratePostgres } from './postgres-migrations.js';
import { POSTGRES, type Prepare, type Query, type QueryOptions } from './sql.js';
import type { Store, StoreTransaction, TableName } from './store.js';
import { storeTables } from './tables.js';
import { InFlight, Mutex, WriteCounters } from './transactions.js';

/**
 * The PostgreSQL store: several service instances on one database. Each transaction takes a connection of
 * a pool and runs SERIALIZABLE, so that checks and writes racing on different instances (a zone's quota, a
 * ruleset's next version, the WAF migration's state) behave as if run one after the other; one that
 * PostgreSQL cannot serialise is rolled back and its work run again, never answered as an error. Each commit
 * that wrote tells the other instances which tables changed (NOTIFY), so that what they keep in memory
 * (credentials, zones, read answers) is dropped within milliseconds.
 *
 * `pglite:` databases run the same store in-process on PGlite (PostgreSQL compiled to WebAssembly, the
 * optional package @electric-sql/pglite): one connection, for tests and trials without a server.
 */

export interface PostgresStoreOptions {
  /** Connections per instance (default 10). */
  poolSize?: number;
  /** How long to wait for a connection, from the server or the pool, before failing (default 10 s). */
  connectTimeoutMs?: number;
  /** The longest a statement may run before the server cancels it (default 30 s). */
  statementTimeoutMs?: number;
  /** The schema to keep the tables in, created if missing (default: the server's, usually `public`). */
  schema?: string;
}

export const POSTGRES_DEFAULTS = { poolSize: 10, connectTimeoutMs: 10_000, statementTimeoutMs: 30_000 };

/** The options with the defaults in place of those absent (or given as undefined). */
const withDefaults = (options: PostgresStoreOptions) => ({
  schema: options.schema,
  poolSize: options.poolSize ?? POSTGRES_DEFAULTS.poolSize,
  connectTimeoutMs: options.connectTimeoutMs ?? POSTGRES_DEFAULTS.connectTimeoutMs,
  statementTimeoutMs: options.statementTimeoutMs ?? POSTGRES_DEFAULTS.statementTimeoutMs,
});

/** How often a transaction that fails to serialise is tried in all, and the longest pause between tries. */
const MAX_ATTEMPTS = 30;
const MAX_BACKOFF_MS = 50;
/** PostgreSQL's codes for "run it again": serialization_failure and deadlock_detected. */
const RETRYABLE = new Set(['40001', '40P01']);

export const isPostgresUrl = (database: string): boolean => /^(postgres|postgresql|pglite):/i.test(database);

/** One connection as the store uses it. */
interface Connection {
  query(
    sql: string,
    params?: readonly unknown[],
    options?: { raw?: boolean; name?: string },
  ): Promise<{ rows: unknown[]; rowCount: number }>;
}

/** A source of connections: a pool of a server's, or PGlite's one. */
interface Driver {
  acquire(): Promise<{ connection: Connection; release: (broken: boolean) => void }>;
  /** Calls `onNotify` with each notification on `channel`, `onLost` when some may have been missed. */
  listen(channel: string, onNotify: (payload: string) => void, onLost: () => void): Promise<void>;
  end(): Promise<void>;
}

/** Opens (creating the schema and migrating when needed) the database at `url`. */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<Store> {
  const schema = options.schema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(
      `schema must be a lowercase SQL name (letters, digits, _), not ${JSON.stringify(schema)}`,
    );
  }
  const driver = url.toLowerCase().startsWith('pglite:')
    ? await pgliteDriver(url, schema)
    : await poolDriver(url, withDefaults(options));
  try {
    const { connection, release } = await driver.acquire();
    try {
      await migratePostgres(connection);
    } finally {
      release(false);
    }
    return await postgresStore(driver, `cfrules_${schema ?? 'public'}`);
  } catch (error) {
    await driver.end();
    throw error;
  }
}

/** Applies the migrations the database lacks (`cfrules migrate`); resolves to the versions applied. */
export async function migratePostgresDatabase(
  url: string,
  options: PostgresStoreOptions = {},
): Promise<number[]> {
  const driver = url.toLowerCase().startsWith('pglite:')
    ? await pgliteDriver(url, options.schema)
    : await poolDriver(url, { ...withDefaults(options), poolSize: 1 });
  try {
    const { connection, release } = await driver.acquire();
    try {
      return await migratePostgres(connection);
    } finally {
      release(false);
    }
  } finally {
    await driver.end();
  }
}

/** `@name` parameters as PostgreSQL's `$1`…, each name given its number once. */
function positional(sql: string): { text: string; names: string[] } {
  const names: string[] = [];
  const text = sql.replace(/@(\w+)/g, (_, name: string) => {
    let index = names.indexOf(name);
    if (index === -1) index = names.push(name) - 1;
    return `$${index + 1}`;
  });
  return { text, names };
}

async function postgresStore(driver: Driver, channel: string): Promise<Store> {
  const counters = new WriteCounters();
  const inFlight = new InFlight();
  // Statements by SQL, numbered once per store: the same name on every connection, which prepares it once.
  const statements = new Map<string, { name: string; text: string; names: string[] }>();
  // Until the first notification channel is up, and whenever it was lost, every read may be stale.
  let listening = false;
  // Names this store in its notifications.
  const instance = randomBytes(8).toString('hex');
  // Set once the transactions under way have ended (closing waits for them, their statements still run).
  let closed = false;

  /** A connection's tables, built once per connection, and the state of the transaction it runs. */
  interface Session {
    tables: StoreTransaction;
    active: boolean;
    written: Set<TableName>;
  }
  const sessions = new WeakMap<Connection, Session>();
  const sessionOf = (connection: Connection): Session => {
    const known = sessions.get(connection);
    if (known !== undefined) return known;
    const session: Session = {
      tables: undefined as unknown as StoreTransaction,
      active: false,
      written: new Set(),
    };
    const guard = () => {
      if (closed) throw new Error('the store is closed');
      if (!session.active)
        throw new Error('store tables can only be used inside the work of store.transaction()');
    };
    const prepare: Prepare = <P extends object, R>(sql: string, options: QueryOptions = {}): Query<P, R> => {
      let statement = statements.get(sql);
      if (statement === undefined) {
        statement = { name: `cfrules_${statements.size + 1}`, ...positional(sql) };
        statements.set(sql, statement);
      }
      const { name, text, names } = statement;
      const values = (params: P) =>
        names.map((key) => {
          const value = (params as Record<string, unknown>)[key];
          if (value === undefined) throw new Error(`no value for the parameter @${key} of: ${sql}`);
          return value;
        });
      const raw = options.raw ?? false;
      const writes = options.writes ?? [];
      return {
        async get(params: P) {
          guard();
          return (await connection.query(text, values(params), { raw, name })).rows[0] as R | undefined;
        },
        async all(params: P) {
          guard();
          return (await connection.query(text, values(params), { raw, name })).rows as R[];
        },
        async run(params: P) {
          guard();
          const { rowCount } = await connection.query(text, values(params), { raw, name });
          counters.wrote(writes, session.written);
          return rowCount;
        },
      };
    };
    session.tables = storeTables({ prepare, dialect: POSTGRES });
    sessions.set(connection, session);
    return session;
  };

  const attempt = async <T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> => {
    const { connection, release } = await driver.acquire();
    let broken = false;
    const session = sessionOf(connection);
    try {
      try {
        await connection.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
      } catch (error) {
        // Not an answer of the server: the connection itself failed, and goes.
        broken = !isDatabaseError(error);
        throw error;
      }
      session.active = true;
      try {
        const result = await work(session.tables);
        if (session.written.size > 0) {
          // Delivered at the commit, and only if it commits.
          const payload = `${instance} ${[...session.written].join(',')}`;
          await connection.query('SELECT pg_notify($1, $2)', [channel, payload]);
        }
        await connection.query('COMMIT');
        return result;
      } catch (error) {
        // The work's own errors (a refusal) leave the connection sound; one that cannot even roll back
        // is not, and goes.
        try {
          await connection.query('ROLLBACK');
        } catch {
          broken = true;
        }
        throw error;
      } finally {
        session.active = false;
        counters.transactionEnded(session.written);
      }
    } finally {
      release(broken);
    }
  };

  await driver.listen(
    channel,
    (payload) => {
      // `instance tables`: this store's own commits were counted as they were written.
      const [from, tables = ''] = payload.split(' ');
      if (from !== instance) counters.otherCommitted(tables.split(','));
    },
    () => {
      listening = false;
      counters.otherCommitted();
    },
  );
  listening = true;

  return {
    kind: 'postgres',
    async transaction(work) {
      return inFlight.track(async () => {
        for (let tries = 1; ; tries += 1) {
          try {
            return await attempt(work);
          } catch (error) {
            const code = (error as { code?: string }).code;
            if (code === undefined || !RETRYABLE.has(code) || tries >= MAX_ATTEMPTS) throw error;
            // Jittered and growing: instances that collided do not collide again in step.
            const pause = Math.random() * Math.min(MAX_BACKOFF_MS, 2 ** tries);
            await new Promise((resolve) => setTimeout(resolve, pause));
          }
        }
      });
    },
    generation(tables) {
      if (closed) throw new Error('the store is closed');
      // Without the channel, another instance's commit would go unseen: no generation lasts.
      if (!listening) counters.otherCommitted();
      return counters.generation(tables);
    },
    close() {
      return inFlight.close(() => {
        closed = true;
        return driver.end();
      });
    },
  };
}

/** An error the server answered (a constraint, a syntax error…): the connection itself is still sound. */
const isDatabaseError = (error: unknown): boolean =>
  typeof (error as { code?: unknown }).code === 'string' &&
  /^[0-9A-Z]{5}$/.test((error as { code: string }).code) &&
  (error as { severity?: unknown }).severity !== undefined;

// ——— a server, through a pool of node-postgres connections ———

async function poolDriver(url: string, options: ReturnType<typeof withDefaults>): Promise<Driver> {
  const { Pool, Client } = requirePeer<typeof pg>('pg');
  const settings = [`-c statement_timeout=${options.statementTimeoutMs}`];
  if (options.schema !== undefined) settings.push(`-c search_path=${options.schema}`);
  const config = {
    connectionString: url,
    connectionTimeoutMillis: options.connectTimeoutMs,
    options: settings.join(' '),
  };
  if (options.schema !== undefined) {
    const client = new Client({ connectionString: url, connectionTimeoutMillis: options.connectTimeoutMs });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${options.schema}`);
    } catch (error) {
      // Two instances creating it at once: the loser's error is a duplicate it can ignore.
      if ((error as { code?: string }).code !== '23505') throw error;
    } finally {
      await client.end();
    }
  }
  const pool = new Pool({ ...config, max: options.poolSize, idleTimeoutMillis: 30_000 });
  // An idle connection the server drops (a restart, a timeout) must not take the process down.
  pool.on('error', () => undefined);
  let listener: pg.Client | undefined;
  let ended = false;

  const wrap = (client: pg.PoolClient): Connection => ({
    async query(sql, params, { raw = false, name } = {}) {
      const result = await client.query({
        text: sql,
        values: params as unknown[] | undefined,
        ...(name === undefined ? {} : { name }),
        ...(raw ? { rowMode: 'array' as const } : {}),
      });
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    },
  });
  const connections = new WeakMap<pg.PoolClient, Connection>();

  return {
    async acquire() {
      const client = await pool.connect();
      let connection = connections.get(client);
      if (connection === undefined) {
        connection = wrap(client);
        connections.set(client, connection);
      }
      return { connection, release: (broken) => client.release(broken) };
    },
    async listen(channel, onNotify, onLost) {
      const connect = async (): Promise<void> => {
        const client = new Client(config);
        client.on('notification', (message) => {
          if (message.channel === channel && message.payload !== undefined) onNotify(message.payload);
        });
        client.on('error', () => undefined);
        client.on('end', () => {
          if (ended) return;
          onLost();
          // Reconnect with a pause; meanwhile the store's generations never hold.
          setTimeout(() => void connect().catch(() => undefined), 500).unref();
        });
        await client.connect();
        await client.query(`LISTEN "${channel}"`);
        listener = client;
      };
      await connect();
    },
    async end() {
      ended = true;
      await listener?.end().catch(() => undefined);
      await pool.end();
    },
  };
}

// ——— PGlite, in-process ———

/**
 * PGlite takes a second or two to start: the stores a process opens on the same `pglite:` database share
 * one instance, each in its own schema when given one (tests open hundreds of stores). In memory, it lives
 * as long as the process; on disk, until its last store closes.
 */
const pglites = new Map<string, Promise<PGliteShared>>();

interface PGliteShared {
  db: import('@electric-sql/pglite').PGlite;
  /** One connection: one transaction at a time, whichever store runs it. */
  mutex: Mutex;
  /** The schema the connection's search_path names now. */
  searchPath: string | undefined;
  stores: number;
}

async function startPglite(path: string): Promise<PGliteShared> {
  // Required, not imported: the CLI runs its bundle from a code cache, where a dynamic import cannot load.
  const { PGlite } = requirePeer<typeof import('@electric-sql/pglite')>('@electric-sql/pglite');
  const db = new PGlite(path === '' || path === 'memory' ? undefined : path);
  await db.waitReady;
  return { db, mutex: new Mutex(), searchPath: undefined, stores: 0 };
}

async function pgliteDriver(url: string, schema: string | undefined): Promise<Driver> {
  const path = url.slice('pglite:'.length);
  const key = path === '' ? 'memory' : path;
  let starting = pglites.get(key);
  if (starting === undefined) {
    starting = startPglite(key);
    pglites.set(key, starting);
    starting.catch(() => pglites.delete(key));
  }
  const shared = await starting;
  shared.stores += 1;
  const { db } = shared;
  const searchPath = schema ?? 'public';
  if (schema !== undefined) await db.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  const connection: Connection = {
    async query(sql, params, { raw = false } = {}) {
      if (params === undefined) {
        // Without parameters, as the migrations are: several statements at once (the simple protocol).
        const results = await db.exec(sql);
        const last = results[results.length - 1];
        return { rows: last?.rows ?? [], rowCount: last?.affectedRows ?? 0 };
      }
      const result = await db.query(sql, params as unknown[], raw ? { rowMode: 'array' } : {});
      return { rows: result.rows, rowCount: result.affectedRows ?? 0 };
    },
  };
  return {
    async acquire() {
      const release = await shared.mutex.acquire();
      try {
        if (shared.searchPath !== searchPath) {
          await db.exec(`SET search_path TO ${searchPath}`);
          shared.searchPath = searchPath;
        }
      } catch (error) {
        release();
        throw error;
      }
      return { connection, release: () => release() };
    },
    // Nothing else can reach an in-process database: there is nothing to hear.
    async listen() {},
    async end() {
      shared.stores -= 1;
      if (key !== 'memory' && shared.stores === 0) {
        pglites.delete(key);
        await db.close();
      }
    },
  };
}
