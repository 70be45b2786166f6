import type Database from 'better-sqlite3';
import { requirePeer } from '../peers.js';
import { type Plan, parsePlan } from '../scheme/profile.js';
import { assertSchemaSupported, migrate } from './migrations.js';
import { PREVIOUS_WAF_TABLES, previousWafTables } from './sqlite-previous-waf.js';
import { rulesetTable } from './sqlite-rulesets.js';
import type {
  AccountRecord,
  AccountTable,
  FilterQuery,
  FilterRecord,
  FilterTable,
  FirewallRuleAction,
  FirewallRuleQuery,
  FirewallRuleRecord,
  FirewallRuleTable,
  FirewallRuleWithFilter,
  Page,
  PageRequest,
  Permission,
  Store,
  StoreTransaction,
  TableName,
  TokenRecord,
  TokenTable,
  ZoneQuery,
  ZoneRecord,
  ZoneTable,
} from './store.js';
import { SYNCHRONOUS_MODES, type Synchronous } from './synchronous.js';

/**
 * The SQLite store (better-sqlite3, synchronous). One connection per store; every statement is prepared once,
 * when the store opens, and may only run inside `transaction` (a table method called on a transaction
 * object kept after its transaction ended throws instead of writing outside any transaction).
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

/** A statement bound by name (`@column`), run only while its store's transaction is active. */
export interface Query<P extends object, R> {
  get(params: P): R | undefined;
  all(params: P): R[];
  /** Returns the number of rows changed. */
  run(params: P): number;
}

export interface QueryOptions {
  /**
   * Rows as arrays of values in column order, not objects: better-sqlite3 builds an object with a property
   * per column, which costs about as much as the query itself on a page of records.
   */
  raw?: boolean;
  /** The tables a write statement may change (cascades included), whose generation it moves on. */
  writes?: readonly TableName[];
}

export type Prepare = <P extends object, R = never>(sql: string, options?: QueryOptions) => Query<P, R>;

/** A row's values in column order, as raw statements give them. */
export type Values = unknown[];

function sqliteStore(db: Database.Database): Store {
  let closed = false;
  let active = false;

  // Generations (see Store.generation): a count of writes per table through this connection, plus a count
  // of the commits seen from other connections (SQLite's data_version moves only for those).
  const written: Record<TableName, number> = {
    accounts: 0,
    tokens: 0,
    zones: 0,
    filters: 0,
    firewallRules: 0,
    wafSettings: 0,
    wafOverrides: 0,
    pageRules: 0,
    wafMigrations: 0,
    rulesets: 0,
  };
  const writtenInTransaction = new Set<TableName>();
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  let seenDataVersion = dataVersion.get();
  let otherCommits = 0;

  const guard = () => {
    if (closed) throw new Error('the store is closed');
    if (!active) throw new Error('store tables can only be used inside the work of store.transaction()');
  };
  const prepare: Prepare = <P extends object, R>(sql: string, options: QueryOptions = {}): Query<P, R> => {
    const statement = db.prepare<[P], R>(sql);
    if (options.raw) statement.raw(true);
    const writes = options.writes ?? [];
    return {
      get(params: P) {
        guard();
        return statement.get(params);
      },
      all(params: P) {
        guard();
        return statement.all(params);
      },
      run(params: P) {
        guard();
        const changes = statement.run(params).changes;
        for (const table of writes) {
          written[table] += 1;
          writtenInTransaction.add(table);
        }
        return changes;
      },
    };
  };

  const tx: StoreTransaction = {
    accounts: accountTable(prepare),
    tokens: tokenTable(prepare),
    zones: zoneTable(prepare),
    filters: filterTable(prepare),
    firewallRules: firewallRuleTable(prepare),
    ...previousWafTables(prepare),
    rulesets: rulesetTable(prepare),
  };
  // IMMEDIATE (`.immediate`): the write lock is taken at BEGIN, so a transaction that reads then writes
  // cannot fail half-way with SQLITE_BUSY because another connection wrote in between.
  const runWork = db.transaction((work: (tx: StoreTransaction) => unknown) => {
    const result = work(tx);
    if (isThenable(result)) {
      // Its awaited part would run after the commit: refuse, and roll back what it did synchronously.
      throw new Error('store.transaction() work must be synchronous, not return a promise');
    }
    return result;
  });

  return {
    transaction<T>(work: (tx: StoreTransaction) => T): T {
      if (closed) throw new Error('the store is closed');
      if (active)
        throw new Error('store transactions cannot be nested: call store.transaction() once per operation');
      active = true;
      try {
        return runWork.immediate(work) as T;
      } finally {
        active = false;
        // Once more at the end: a copy made inside the transaction after a write may hold rows that a
        // rollback has just undone.
        for (const table of writtenInTransaction) written[table] += 1;
        writtenInTransaction.clear();
      }
    },
    generation(tables: readonly TableName[]): number {
      if (closed) throw new Error('the store is closed');
      // No other connection can reach an in-memory database.
      if (!db.memory) {
        const version = dataVersion.get();
        if (version !== seenDataVersion) {
          seenDataVersion = version;
          otherCommits += 1;
        }
      }
      // A sum of counters that only grow: it changes whenever one of them does.
      let generation = otherCommits;
      for (const table of tables) generation += written[table];
      return generation;
    },
    close(): void {
      if (closed) return;
      if (active) throw new Error('the store cannot be closed inside one of its transactions');
      closed = true;
      db.close();
    },
  };
}

const isThenable = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

// ——— SQL shared by the tables ———

/** `UPDATE table SET (every other column) WHERE (key columns)`: an update writes the whole record. */
export function updateSql(table: string, columns: readonly string[], keys: readonly string[]): string {
  const set = columns.filter((column) => !keys.includes(column)).map((column) => `${column} = @${column}`);
  const where = keys.map((column) => `${column} = @${column}`);
  return `UPDATE ${table} SET ${set.join(', ')} WHERE ${where.join(' AND ')}`;
}

export const insertSql = (table: string, columns: readonly string[]): string =>
  `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')})`;

/** Insert, or update every other column of the row with the same id (keeping its place in creation order). */
const upsertSql = (table: string, columns: readonly string[]): string =>
  `${insertSql(table, columns)} ON CONFLICT (id) DO UPDATE SET ${columns
    .filter((column) => column !== 'id')
    .map((column) => `${column} = excluded.${column}`)
    .join(', ')}`;

/**
 * Case-insensitive substring match of a column against an optional parameter. `instr`, not LIKE: `%` and `_`
 * in the searched text are literal. SQLite's `lower` folds ASCII letters only.
 */
const contains = (column: string, param: string): string =>
  `(@${param} IS NULL OR instr(lower(${column}), lower(@${param})) > 0)`;

/** Equality with an optional parameter. */
const equals = (column: string, param: string): string => `(@${param} IS NULL OR ${column} = @${param})`;

const oneOf = (column: string, param: string): string =>
  `${column} IN (SELECT value FROM json_each(@${param}))`;

export const bit = (value: boolean): 0 | 1 => (value ? 1 : 0);
const optionalBit = (value: boolean | undefined): 0 | 1 | null => (value === undefined ? null : bit(value));
const optionalJson = (values: readonly string[] | undefined): string | null =>
  values === undefined ? null : JSON.stringify(values);

/** Each column's position in a select list, so that records are read from raw rows by name. */
export function positions<C extends string>(columns: readonly C[]): Record<C, number> {
  return Object.fromEntries(columns.map((column, index) => [column, index])) as Record<C, number>;
}

/** The select list of `columns`, each prefixed with a table alias (for joins). */
const qualified = (alias: string, columns: readonly string[]): string =>
  columns.map((column) => `${alias}.${column}`).join(', ');

/** A record read from a raw row, starting at the value of index `at` (its columns in their order). */
export type Read<T> = (values: Values, at: number) => T;

/** A single-row raw statement, as a function giving the record or undefined. */
export function reader<P extends object, T>(
  prepare: Prepare,
  sql: string,
  read: Read<T>,
): (params: P) => T | undefined {
  const statement = prepare<P, Values>(sql, { raw: true });
  return (params) => {
    const values = statement.get(params);
    return values === undefined ? undefined : read(values, 0);
  };
}

interface Limit {
  limit: number;
  offset: number;
}

/** The SQL of one filtered list: `from` may hold an alias, `join` adds the columns of another table. */
interface ListSql {
  from: string;
  join?: string;
  columns: string;
  where: string;
  order: string;
}

/** The page and total count of one filtered list, in creation order; both read with the same `where`. */
export function pagedList<P extends object, T>(
  prepare: Prepare,
  sql: ListSql,
  read: Read<T>,
): (params: P, page: PageRequest) => Page<T> {
  // Every joined row has its partner (foreign keys): counting needs no join.
  const count = prepare<P, { n: number }>(`SELECT count(*) AS n FROM ${sql.from} WHERE ${sql.where}`);
  const select = prepare<P & Limit, Values>(
    `SELECT ${sql.columns} FROM ${sql.from} ${sql.join ?? ''} WHERE ${sql.where} ORDER BY ${sql.order} LIMIT @limit OFFSET @offset`,
    { raw: true },
  );
  return (params, page) => {
    if (
      !Number.isSafeInteger(page.page) ||
      page.page < 1 ||
      !Number.isSafeInteger(page.perPage) ||
      page.perPage < 1
    ) {
      throw new RangeError(`invalid page request: page ${page.page}, ${page.perPage} per page`);
    }
    const totalCount = count.get(params)?.n ?? 0;
    const offset = (page.page - 1) * page.perPage;
    // No query when the page starts after the last item.
    const items =
      offset < totalCount
        ? select.all({ ...params, limit: page.perPage, offset }).map((values) => read(values, 0))
        : [];
    return { items, totalCount };
  };
}

/** Deletes the given ids one by one (at most a page of them), keeping those that existed, in request order. */
function deleter(
  prepare: Prepare,
  table: string,
  writes: readonly TableName[],
): (zoneId: string, ids: readonly string[]) => string[] {
  const remove = prepare<{ zone_id: string; id: string }>(
    `DELETE FROM ${table} WHERE zone_id = @zone_id AND id = @id`,
    { writes },
  );
  return (zoneId, ids) => ids.filter((id) => remove.run({ zone_id: zoneId, id }) > 0);
}

export function counter(prepare: Prepare, table: string): (zoneId: string) => number {
  const count = prepare<{ zone_id: string }, { n: number }>(
    `SELECT count(*) AS n FROM ${table} WHERE zone_id = @zone_id`,
  );
  return (zoneId) => count.get({ zone_id: zoneId })?.n ?? 0;
}

/** Checks that an update changed its row: updating a record that is not there is a bug, not a no-op. */
export function updatedOne(changes: number, what: string, id: string): void {
  if (changes !== 1) throw new Error(`cannot update ${what} ${id}: no such record`);
}

// ——— accounts ———

interface AccountRow {
  id: string;
  name: string;
  email: string;
  api_key_hash: string | null;
  created_on: string;
}

const ACCOUNT_COLUMNS = ['id', 'name', 'email', 'api_key_hash', 'created_on'] as const;
const ACCOUNT = positions(ACCOUNT_COLUMNS);

const accountToRow = (account: AccountRecord): AccountRow => ({
  id: account.id,
  name: account.name,
  email: account.email,
  api_key_hash: account.apiKeyHash,
  created_on: account.createdOn,
});

const readAccount: Read<AccountRecord> = (values, at) => ({
  id: values[at + ACCOUNT.id] as string,
  name: values[at + ACCOUNT.name] as string,
  email: values[at + ACCOUNT.email] as string,
  apiKeyHash: values[at + ACCOUNT.api_key_hash] as string | null,
  createdOn: values[at + ACCOUNT.created_on] as string,
});

function accountTable(prepare: Prepare): AccountTable {
  const select = `SELECT ${ACCOUNT_COLUMNS.join(', ')} FROM accounts`;
  const byId = reader<{ id: string }, AccountRecord>(prepare, `${select} WHERE id = @id`, readAccount);
  const byEmail = reader<{ email: string }, AccountRecord>(
    prepare,
    `${select} WHERE email = @email`,
    readAccount,
  );
  const byKey = reader<{ hash: string }, AccountRecord>(
    prepare,
    `${select} WHERE api_key_hash = @hash`,
    readAccount,
  );
  const put = prepare<AccountRow>(upsertSql('accounts', ACCOUNT_COLUMNS), { writes: ['accounts'] });
  const count = prepare<object, { n: number }>('SELECT count(*) AS n FROM accounts');
  return {
    get: (id) => byId({ id }),
    getByEmail: (email) => byEmail({ email }),
    getByApiKeyHash: (hash) => byKey({ hash }),
    put: (account) => void put.run(accountToRow(account)),
    count: () => count.get({})?.n ?? 0,
  };
}

// ——— tokens ———

interface TokenRow {
  id: string;
  account_id: string;
  token_hash: string;
  /** JSON array. */
  zones: string;
  /** JSON array. */
  permissions: string;
  created_on: string;
}

const TOKEN_COLUMNS = ['id', 'account_id', 'token_hash', 'zones', 'permissions', 'created_on'] as const;
const TOKEN = positions(TOKEN_COLUMNS);

const tokenToRow = (token: TokenRecord): TokenRow => ({
  id: token.id,
  account_id: token.accountId,
  token_hash: token.tokenHash,
  zones: JSON.stringify(token.zones),
  permissions: JSON.stringify(token.permissions),
  created_on: token.createdOn,
});

const readToken: Read<TokenRecord> = (values, at) => ({
  id: values[at + TOKEN.id] as string,
  accountId: values[at + TOKEN.account_id] as string,
  tokenHash: values[at + TOKEN.token_hash] as string,
  zones: JSON.parse(values[at + TOKEN.zones] as string) as string[],
  permissions: JSON.parse(values[at + TOKEN.permissions] as string) as Permission[],
  createdOn: values[at + TOKEN.created_on] as string,
});

function tokenTable(prepare: Prepare): TokenTable {
  const byHash = reader<{ hash: string }, TokenRecord>(
    prepare,
    `SELECT ${TOKEN_COLUMNS.join(', ')} FROM tokens WHERE token_hash = @hash`,
    readToken,
  );
  const put = prepare<TokenRow>(upsertSql('tokens', TOKEN_COLUMNS), { writes: ['tokens'] });
  return {
    getByHash: (hash) => byHash({ hash }),
    put: (token) => void put.run(tokenToRow(token)),
  };
}

// ——— zones ———

interface ZoneRow {
  id: string;
  name: string;
  plan: string;
  account_id: string;
  paused: 0 | 1;
  created_on: string;
  modified_on: string;
}

const ZONE_COLUMNS = ['id', 'name', 'plan', 'account_id', 'paused', 'created_on', 'modified_on'] as const;
const ZONE = positions(ZONE_COLUMNS);

const zoneToRow = (zone: ZoneRecord): ZoneRow => ({
  id: zone.id,
  name: zone.name,
  plan: zone.plan,
  account_id: zone.accountId,
  paused: bit(zone.paused),
  created_on: zone.createdOn,
  modified_on: zone.modifiedOn,
});

const readZone: Read<ZoneRecord> = (values, at) => ({
  id: values[at + ZONE.id] as string,
  name: values[at + ZONE.name] as string,
  plan: storedPlan(values[at + ZONE.id] as string, values[at + ZONE.plan] as string),
  accountId: values[at + ZONE.account_id] as string,
  paused: values[at + ZONE.paused] === 1,
  createdOn: values[at + ZONE.created_on] as string,
  modifiedOn: values[at + ZONE.modified_on] as string,
});

/** The schema leaves plans open (see ./migrations.ts); one this code does not know is refused, not passed on. */
function storedPlan(zoneId: string, stored: string): Plan {
  const plan = parsePlan(stored);
  if (plan === undefined) throw new Error(`zone ${zoneId} has an unknown plan "${stored}"`);
  return plan;
}

interface ZoneListParams {
  /** JSON array, or null for any. */
  account_ids: string | null;
  /** JSON array, or null for any. */
  ids_or_names: string | null;
  name: string | null;
}

/** Deleting a zone deletes its filters, firewall rules, previous WAF settings and rulesets with it (ON DELETE CASCADE). */
const ZONE_WRITES: readonly TableName[] = [
  'zones',
  'filters',
  'firewallRules',
  ...PREVIOUS_WAF_TABLES,
  'rulesets',
];

function zoneTable(prepare: Prepare): ZoneTable {
  const select = `SELECT ${ZONE_COLUMNS.join(', ')} FROM zones`;
  const byId = reader<{ id: string }, ZoneRecord>(prepare, `${select} WHERE id = @id`, readZone);
  const byName = reader<{ account_id: string; name: string }, ZoneRecord>(
    prepare,
    `${select} WHERE account_id = @account_id AND name = @name`,
    readZone,
  );
  const list = pagedList<ZoneListParams, ZoneRecord>(
    prepare,
    {
      from: 'zones',
      columns: ZONE_COLUMNS.join(', '),
      where: [
        `(@account_ids IS NULL OR ${oneOf('account_id', 'account_ids')})`,
        `(@ids_or_names IS NULL OR ${oneOf('id', 'ids_or_names')} OR ${oneOf('name', 'ids_or_names')})`,
        equals('name', 'name'),
      ].join(' AND '),
      order: 'seq',
    },
    readZone,
  );
  const insert = prepare<ZoneRow>(insertSql('zones', ZONE_COLUMNS), { writes: ['zones'] });
  const update = prepare<ZoneRow>(updateSql('zones', ZONE_COLUMNS, ['id']), { writes: ['zones'] });
  const remove = prepare<{ id: string }>('DELETE FROM zones WHERE id = @id', { writes: ZONE_WRITES });
  return {
    get: (id) => byId({ id }),
    getByName: (accountId, name) => byName({ account_id: accountId, name }),
    list: (query: ZoneQuery, page) =>
      list(
        {
          account_ids: optionalJson(query.accountIds),
          ids_or_names: optionalJson(query.idsOrNames),
          name: query.name ?? null,
        },
        page,
      ),
    insert: (zone) => void insert.run(zoneToRow(zone)),
    update: (zone) => updatedOne(update.run(zoneToRow(zone)), 'zone', zone.id),
    delete: (id) => remove.run({ id }) > 0,
  };
}

// ——— filters ———

interface FilterRow {
  id: string;
  zone_id: string;
  expression: string;
  description: string;
  paused: 0 | 1;
  ref: string | null;
  created_with_rule: string | null;
  created_on: string;
  modified_on: string;
}

const FILTER_COLUMNS = [
  'id',
  'zone_id',
  'expression',
  'description',
  'paused',
  'ref',
  'created_with_rule',
  'created_on',
  'modified_on',
] as const;
const FILTER = positions(FILTER_COLUMNS);

const filterToRow = (filter: FilterRecord): FilterRow => ({
  id: filter.id,
  zone_id: filter.zoneId,
  expression: filter.expression,
  description: filter.description,
  paused: bit(filter.paused),
  ref: filter.ref,
  created_with_rule: filter.createdWithRule,
  created_on: filter.createdOn,
  modified_on: filter.modifiedOn,
});

const readFilter: Read<FilterRecord> = (values, at) => ({
  id: values[at + FILTER.id] as string,
  zoneId: values[at + FILTER.zone_id] as string,
  expression: values[at + FILTER.expression] as string,
  description: values[at + FILTER.description] as string,
  paused: values[at + FILTER.paused] === 1,
  ref: values[at + FILTER.ref] as string | null,
  createdWithRule: values[at + FILTER.created_with_rule] as string | null,
  createdOn: values[at + FILTER.created_on] as string,
  modifiedOn: values[at + FILTER.modified_on] as string,
});

interface FilterListParams {
  zone_id: string;
  id: string | null;
  expression: string | null;
  description: string | null;
  ref: string | null;
  paused: 0 | 1 | null;
}

function filterTable(prepare: Prepare): FilterTable {
  const select = `SELECT ${FILTER_COLUMNS.join(', ')} FROM filters`;
  const byId = reader<{ zone_id: string; id: string }, FilterRecord>(
    prepare,
    `${select} WHERE zone_id = @zone_id AND id = @id`,
    readFilter,
  );
  const byExpression = reader<{ zone_id: string; expression: string }, FilterRecord>(
    prepare,
    `${select} WHERE zone_id = @zone_id AND expression = @expression`,
    readFilter,
  );
  const list = pagedList<FilterListParams, FilterRecord>(
    prepare,
    {
      from: 'filters',
      columns: FILTER_COLUMNS.join(', '),
      where: [
        'zone_id = @zone_id',
        equals('id', 'id'),
        contains('expression', 'expression'),
        contains('description', 'description'),
        equals('ref', 'ref'),
        equals('paused', 'paused'),
      ].join(' AND '),
      order: 'seq',
    },
    readFilter,
  );
  // A second filter with the same expression in a zone violates UNIQUE (zone_id, expression) and throws.
  const insert = prepare<FilterRow>(insertSql('filters', FILTER_COLUMNS), { writes: ['filters'] });
  const insertUnlessDuplicate = prepare<FilterRow>(
    `${insertSql('filters', FILTER_COLUMNS)} ON CONFLICT (zone_id, expression) DO NOTHING`,
    { writes: ['filters'] },
  );
  const update = prepare<FilterRow>(updateSql('filters', FILTER_COLUMNS, ['id', 'zone_id']), {
    writes: ['filters'],
  });
  return {
    list: (zoneId, query: FilterQuery, page) =>
      list(
        {
          zone_id: zoneId,
          id: query.id ?? null,
          expression: query.expression ?? null,
          description: query.description ?? null,
          ref: query.ref ?? null,
          paused: optionalBit(query.paused),
        },
        page,
      ),
    get: (zoneId, id) => byId({ zone_id: zoneId, id }),
    getByExpression: (zoneId, expression) => byExpression({ zone_id: zoneId, expression }),
    insert: (filter) => void insert.run(filterToRow(filter)),
    // Any other constraint (the id's uniqueness in the zone, the zone's existence) still throws.
    insertUnlessDuplicate: (filter) => insertUnlessDuplicate.run(filterToRow(filter)) === 1,
    update: (filter) => updatedOne(update.run(filterToRow(filter)), 'filter', filter.id),
    // A filter that a firewall rule still uses cannot be deleted (foreign key): the delete throws.
    delete: deleter(prepare, 'filters', ['filters']),
    count: counter(prepare, 'filters'),
  };
}

// ——— firewall rules ———

interface FirewallRuleRow {
  id: string;
  zone_id: string;
  filter_id: string;
  action: string;
  priority: number | null;
  paused: 0 | 1;
  description: string;
  ref: string | null;
  /** JSON array. */
  products: string;
  created_on: string;
  modified_on: string;
}

const FIREWALL_RULE_COLUMNS = [
  'id',
  'zone_id',
  'filter_id',
  'action',
  'priority',
  'paused',
  'description',
  'ref',
  'products',
  'created_on',
  'modified_on',
] as const;
const RULE = positions(FIREWALL_RULE_COLUMNS);

const firewallRuleToRow = (rule: FirewallRuleRecord): FirewallRuleRow => ({
  id: rule.id,
  zone_id: rule.zoneId,
  filter_id: rule.filterId,
  action: rule.action,
  priority: rule.priority,
  paused: bit(rule.paused),
  description: rule.description,
  ref: rule.ref,
  products: JSON.stringify(rule.products),
  created_on: rule.createdOn,
  modified_on: rule.modifiedOn,
});

const readFirewallRule: Read<FirewallRuleRecord> = (values, at) => ({
  id: values[at + RULE.id] as string,
  zoneId: values[at + RULE.zone_id] as string,
  filterId: values[at + RULE.filter_id] as string,
  action: values[at + RULE.action] as FirewallRuleAction,
  priority: values[at + RULE.priority] as number | null,
  paused: values[at + RULE.paused] === 1,
  description: values[at + RULE.description] as string,
  ref: values[at + RULE.ref] as string | null,
  products: JSON.parse(values[at + RULE.products] as string) as string[],
  createdOn: values[at + RULE.created_on] as string,
  modifiedOn: values[at + RULE.modified_on] as string,
});

/** A rule's columns then its filter's, from the join below. */
const readRuleWithFilter: Read<FirewallRuleWithFilter> = (values, at) => ({
  rule: readFirewallRule(values, at),
  filter: readFilter(values, at + FIREWALL_RULE_COLUMNS.length),
});

/** Rules (alias `r`) with their filters (alias `f`), one row each: the API never shows a rule without it. */
const RULE_WITH_FILTER = {
  from: 'firewall_rules r',
  join: 'JOIN filters f ON f.zone_id = r.zone_id AND f.id = r.filter_id',
  columns: `${qualified('r', FIREWALL_RULE_COLUMNS)}, ${qualified('f', FILTER_COLUMNS)}`,
};

interface FirewallRuleListParams {
  zone_id: string;
  id: string | null;
  action: string | null;
  description: string | null;
  paused: 0 | 1 | null;
}

function firewallRuleTable(prepare: Prepare): FirewallRuleTable {
  const byId = reader<{ zone_id: string; id: string }, FirewallRuleRecord>(
    prepare,
    `SELECT ${FIREWALL_RULE_COLUMNS.join(', ')} FROM firewall_rules WHERE zone_id = @zone_id AND id = @id`,
    readFirewallRule,
  );
  const withFilterById = reader<{ zone_id: string; id: string }, FirewallRuleWithFilter>(
    prepare,
    `SELECT ${RULE_WITH_FILTER.columns} FROM ${RULE_WITH_FILTER.from} ${RULE_WITH_FILTER.join}
      WHERE r.zone_id = @zone_id AND r.id = @id`,
    readRuleWithFilter,
  );
  const list = pagedList<FirewallRuleListParams, FirewallRuleWithFilter>(
    prepare,
    {
      ...RULE_WITH_FILTER,
      where: [
        'r.zone_id = @zone_id',
        equals('r.id', 'id'),
        equals('r.action', 'action'),
        contains('r.description', 'description'),
        equals('r.paused', 'paused'),
      ].join(' AND '),
      order: 'r.seq',
    },
    readRuleWithFilter,
  );
  // The filter must be one of the rule's zone: FOREIGN KEY (zone_id, filter_id).
  const insert = prepare<FirewallRuleRow>(insertSql('firewall_rules', FIREWALL_RULE_COLUMNS), {
    writes: ['firewallRules'],
  });
  const update = prepare<FirewallRuleRow>(
    updateSql('firewall_rules', FIREWALL_RULE_COLUMNS, ['id', 'zone_id']),
    { writes: ['firewallRules'] },
  );
  const using = prepare<{ zone_id: string; filter_id: string }, { n: number }>(
    'SELECT count(*) AS n FROM firewall_rules WHERE zone_id = @zone_id AND filter_id = @filter_id',
  );
  return {
    list: (zoneId, query: FirewallRuleQuery, page) =>
      list(
        {
          zone_id: zoneId,
          id: query.id ?? null,
          action: query.action ?? null,
          description: query.description ?? null,
          paused: optionalBit(query.paused),
        },
        page,
      ),
    get: (zoneId, id) => byId({ zone_id: zoneId, id }),
    getWithFilter: (zoneId, id) => withFilterById({ zone_id: zoneId, id }),
    insert: (rule) => void insert.run(firewallRuleToRow(rule)),
    update: (rule) => updatedOne(update.run(firewallRuleToRow(rule)), 'firewall rule', rule.id),
    delete: deleter(prepare, 'firewall_rules', ['firewallRules']),
    count: counter(prepare, 'firewall_rules'),
    countUsing: (zoneId, filterId) => using.get({ zone_id: zoneId, filter_id: filterId })?.n ?? 0,
  };
}
