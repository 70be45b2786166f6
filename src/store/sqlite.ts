import Database from 'better-sqlite3';
import { type Plan, parsePlan } from '../scheme/profile.js';
import { assertSchemaSupported, migrate } from './migrations.js';
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
  Page,
  PageRequest,
  Permission,
  Store,
  StoreTransaction,
  TokenRecord,
  TokenTable,
  ZoneQuery,
  ZoneRecord,
  ZoneTable,
} from './store.js';

/**
 * The SQLite store (better-sqlite3, synchronous). One connection per store; every statement is prepared once,
 * when the store opens, and may only run inside `transaction` (a table method called on a transaction
 * object kept after its transaction ended throws instead of writing outside any transaction).
 */

/** How long a statement waits for another connection's lock before failing with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * How a database file is flushed to disk (SQLite's `synchronous`, in WAL mode):
 * - `full` (the default): every commit fsyncs the log before the transaction returns, so an acknowledged
 *   write survives anything, power loss included;
 * - `normal`: commits are fsynced only at checkpoints. A process crash (even `kill -9`) still loses
 *   nothing, since the kernel writes the page cache out; an OS crash or power loss can lose the last
 *   acknowledged transactions, but the database stays consistent (never half a transaction).
 * Ignored for `:memory:`, which keeps nothing anyway.
 */
export type Synchronous = 'full' | 'normal';
export const SYNCHRONOUS_MODES: readonly Synchronous[] = ['full', 'normal'];

export interface SqliteStoreOptions {
  synchronous?: Synchronous;
}

/** Opens (creating and migrating when needed) the database at `path`; `':memory:'` for a throwaway one. */
export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): Store {
  const db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
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
interface Query<P extends object, R> {
  get(params: P): R | undefined;
  all(params: P): R[];
  /** Returns the number of rows changed. */
  run(params: P): number;
}

type Prepare = <P extends object, R = never>(sql: string) => Query<P, R>;

function sqliteStore(db: Database.Database): Store {
  let closed = false;
  let active = false;

  const guard = () => {
    if (closed) throw new Error('the store is closed');
    if (!active) throw new Error('store tables can only be used inside the work of store.transaction()');
  };
  const prepare: Prepare = <P extends object, R>(sql: string): Query<P, R> => {
    const statement = db.prepare<[P], R>(sql);
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
        return statement.run(params).changes;
      },
    };
  };

  const tx: StoreTransaction = {
    accounts: accountTable(prepare),
    tokens: tokenTable(prepare),
    zones: zoneTable(prepare),
    filters: filterTable(prepare),
    firewallRules: firewallRuleTable(prepare),
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
      }
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
function updateSql(table: string, columns: readonly string[], keys: readonly string[]): string {
  const set = columns.filter((column) => !keys.includes(column)).map((column) => `${column} = @${column}`);
  const where = keys.map((column) => `${column} = @${column}`);
  return `UPDATE ${table} SET ${set.join(', ')} WHERE ${where.join(' AND ')}`;
}

const insertSql = (table: string, columns: readonly string[]): string =>
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

/** A row-to-record conversion that passes "no row" through. */
const orUndefined =
  <R, T>(fromRow: (row: R) => T) =>
  (row: R | undefined): T | undefined =>
    row === undefined ? undefined : fromRow(row);

const bit = (value: boolean): 0 | 1 => (value ? 1 : 0);
const optionalBit = (value: boolean | undefined): 0 | 1 | null => (value === undefined ? null : bit(value));
const optionalJson = (values: readonly string[] | undefined): string | null =>
  values === undefined ? null : JSON.stringify(values);

interface Limit {
  limit: number;
  offset: number;
}

/** The page and total count of one filtered list, in creation order; both read with the same `where`. */
function pagedList<P extends object, R, T>(
  prepare: Prepare,
  table: string,
  columns: readonly string[],
  where: string,
  toRecord: (row: R) => T,
): (params: P, page: PageRequest) => Page<T> {
  const count = prepare<P, { n: number }>(`SELECT count(*) AS n FROM ${table} WHERE ${where}`);
  const select = prepare<P & Limit, R>(
    `SELECT ${columns.join(', ')} FROM ${table} WHERE ${where} ORDER BY seq LIMIT @limit OFFSET @offset`,
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
      offset < totalCount ? select.all({ ...params, limit: page.perPage, offset }).map(toRecord) : [];
    return { items, totalCount };
  };
}

/** Deletes the given ids one by one (at most a page of them), keeping those that existed, in request order. */
function deleter(prepare: Prepare, table: string): (zoneId: string, ids: readonly string[]) => string[] {
  const remove = prepare<{ zone_id: string; id: string }>(
    `DELETE FROM ${table} WHERE zone_id = @zone_id AND id = @id`,
  );
  return (zoneId, ids) => ids.filter((id) => remove.run({ zone_id: zoneId, id }) > 0);
}

function counter(prepare: Prepare, table: string): (zoneId: string) => number {
  const count = prepare<{ zone_id: string }, { n: number }>(
    `SELECT count(*) AS n FROM ${table} WHERE zone_id = @zone_id`,
  );
  return (zoneId) => count.get({ zone_id: zoneId })?.n ?? 0;
}

/** Checks that an update changed its row: updating a record that is not there is a bug, not a no-op. */
function updatedOne(changes: number, what: string, id: string): void {
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

const accountToRow = (account: AccountRecord): AccountRow => ({
  id: account.id,
  name: account.name,
  email: account.email,
  api_key_hash: account.apiKeyHash,
  created_on: account.createdOn,
});

const accountFromRow = (row: AccountRow): AccountRecord => ({
  id: row.id,
  name: row.name,
  email: row.email,
  apiKeyHash: row.api_key_hash,
  createdOn: row.created_on,
});

function accountTable(prepare: Prepare): AccountTable {
  const select = `SELECT ${ACCOUNT_COLUMNS.join(', ')} FROM accounts`;
  const byId = prepare<{ id: string }, AccountRow>(`${select} WHERE id = @id`);
  const byEmail = prepare<{ email: string }, AccountRow>(`${select} WHERE email = @email`);
  const byKey = prepare<{ hash: string }, AccountRow>(`${select} WHERE api_key_hash = @hash`);
  const put = prepare<AccountRow>(upsertSql('accounts', ACCOUNT_COLUMNS));
  const count = prepare<object, { n: number }>('SELECT count(*) AS n FROM accounts');
  const record = orUndefined(accountFromRow);
  return {
    get: (id) => record(byId.get({ id })),
    getByEmail: (email) => record(byEmail.get({ email })),
    getByApiKeyHash: (hash) => record(byKey.get({ hash })),
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

const tokenToRow = (token: TokenRecord): TokenRow => ({
  id: token.id,
  account_id: token.accountId,
  token_hash: token.tokenHash,
  zones: JSON.stringify(token.zones),
  permissions: JSON.stringify(token.permissions),
  created_on: token.createdOn,
});

const tokenFromRow = (row: TokenRow): TokenRecord => ({
  id: row.id,
  accountId: row.account_id,
  tokenHash: row.token_hash,
  zones: JSON.parse(row.zones) as string[],
  permissions: JSON.parse(row.permissions) as Permission[],
  createdOn: row.created_on,
});

function tokenTable(prepare: Prepare): TokenTable {
  const byHash = prepare<{ hash: string }, TokenRow>(
    `SELECT ${TOKEN_COLUMNS.join(', ')} FROM tokens WHERE token_hash = @hash`,
  );
  const put = prepare<TokenRow>(upsertSql('tokens', TOKEN_COLUMNS));
  const record = orUndefined(tokenFromRow);
  return {
    getByHash: (hash) => record(byHash.get({ hash })),
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

const zoneToRow = (zone: ZoneRecord): ZoneRow => ({
  id: zone.id,
  name: zone.name,
  plan: zone.plan,
  account_id: zone.accountId,
  paused: bit(zone.paused),
  created_on: zone.createdOn,
  modified_on: zone.modifiedOn,
});

const zoneFromRow = (row: ZoneRow): ZoneRecord => ({
  id: row.id,
  name: row.name,
  plan: storedPlan(row),
  accountId: row.account_id,
  paused: row.paused === 1,
  createdOn: row.created_on,
  modifiedOn: row.modified_on,
});

/** The schema leaves plans open (see ./migrations.ts); one this code does not know is refused, not passed on. */
function storedPlan(row: ZoneRow): Plan {
  const plan = parsePlan(row.plan);
  if (plan === undefined) throw new Error(`zone ${row.id} has an unknown plan "${row.plan}"`);
  return plan;
}

interface ZoneListParams {
  /** JSON array, or null for any. */
  account_ids: string | null;
  /** JSON array, or null for any. */
  ids_or_names: string | null;
  name: string | null;
}

function zoneTable(prepare: Prepare): ZoneTable {
  const select = `SELECT ${ZONE_COLUMNS.join(', ')} FROM zones`;
  const byId = prepare<{ id: string }, ZoneRow>(`${select} WHERE id = @id`);
  const byName = prepare<{ name: string }, ZoneRow>(`${select} WHERE name = @name`);
  const list = pagedList<ZoneListParams, ZoneRow, ZoneRecord>(
    prepare,
    'zones',
    ZONE_COLUMNS,
    [
      `(@account_ids IS NULL OR ${oneOf('account_id', 'account_ids')})`,
      `(@ids_or_names IS NULL OR ${oneOf('id', 'ids_or_names')} OR ${oneOf('name', 'ids_or_names')})`,
      equals('name', 'name'),
    ].join(' AND '),
    zoneFromRow,
  );
  const insert = prepare<ZoneRow>(insertSql('zones', ZONE_COLUMNS));
  const update = prepare<ZoneRow>(updateSql('zones', ZONE_COLUMNS, ['id']));
  // Its filters and firewall rules go with it: ON DELETE CASCADE.
  const remove = prepare<{ id: string }>('DELETE FROM zones WHERE id = @id');
  const record = orUndefined(zoneFromRow);
  return {
    get: (id) => record(byId.get({ id })),
    getByName: (name) => record(byName.get({ name })),
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

const filterFromRow = (row: FilterRow): FilterRecord => ({
  id: row.id,
  zoneId: row.zone_id,
  expression: row.expression,
  description: row.description,
  paused: row.paused === 1,
  ref: row.ref,
  createdWithRule: row.created_with_rule,
  createdOn: row.created_on,
  modifiedOn: row.modified_on,
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
  const byId = prepare<{ zone_id: string; id: string }, FilterRow>(
    `${select} WHERE zone_id = @zone_id AND id = @id`,
  );
  const byExpression = prepare<{ zone_id: string; expression: string }, FilterRow>(
    `${select} WHERE zone_id = @zone_id AND expression = @expression`,
  );
  const list = pagedList<FilterListParams, FilterRow, FilterRecord>(
    prepare,
    'filters',
    FILTER_COLUMNS,
    [
      'zone_id = @zone_id',
      equals('id', 'id'),
      contains('expression', 'expression'),
      contains('description', 'description'),
      equals('ref', 'ref'),
      equals('paused', 'paused'),
    ].join(' AND '),
    filterFromRow,
  );
  // A second filter with the same expression in a zone violates UNIQUE (zone_id, expression) and throws.
  const insert = prepare<FilterRow>(insertSql('filters', FILTER_COLUMNS));
  const update = prepare<FilterRow>(updateSql('filters', FILTER_COLUMNS, ['id', 'zone_id']));
  const record = orUndefined(filterFromRow);
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
    get: (zoneId, id) => record(byId.get({ zone_id: zoneId, id })),
    getByExpression: (zoneId, expression) => record(byExpression.get({ zone_id: zoneId, expression })),
    insert: (filter) => void insert.run(filterToRow(filter)),
    update: (filter) => updatedOne(update.run(filterToRow(filter)), 'filter', filter.id),
    // A filter that a firewall rule still uses cannot be deleted (foreign key): the delete throws.
    delete: deleter(prepare, 'filters'),
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

const firewallRuleFromRow = (row: FirewallRuleRow): FirewallRuleRecord => ({
  id: row.id,
  zoneId: row.zone_id,
  filterId: row.filter_id,
  action: row.action as FirewallRuleAction,
  priority: row.priority,
  paused: row.paused === 1,
  description: row.description,
  ref: row.ref,
  products: JSON.parse(row.products) as string[],
  createdOn: row.created_on,
  modifiedOn: row.modified_on,
});

interface FirewallRuleListParams {
  zone_id: string;
  id: string | null;
  action: string | null;
  description: string | null;
  paused: 0 | 1 | null;
}

function firewallRuleTable(prepare: Prepare): FirewallRuleTable {
  const byId = prepare<{ zone_id: string; id: string }, FirewallRuleRow>(
    `SELECT ${FIREWALL_RULE_COLUMNS.join(', ')} FROM firewall_rules WHERE zone_id = @zone_id AND id = @id`,
  );
  const list = pagedList<FirewallRuleListParams, FirewallRuleRow, FirewallRuleRecord>(
    prepare,
    'firewall_rules',
    FIREWALL_RULE_COLUMNS,
    [
      'zone_id = @zone_id',
      equals('id', 'id'),
      equals('action', 'action'),
      contains('description', 'description'),
      equals('paused', 'paused'),
    ].join(' AND '),
    firewallRuleFromRow,
  );
  // The filter must be one of the rule's zone: FOREIGN KEY (zone_id, filter_id).
  const insert = prepare<FirewallRuleRow>(insertSql('firewall_rules', FIREWALL_RULE_COLUMNS));
  const update = prepare<FirewallRuleRow>(
    updateSql('firewall_rules', FIREWALL_RULE_COLUMNS, ['id', 'zone_id']),
  );
  const using = prepare<{ zone_id: string; filter_id: string }, { n: number }>(
    'SELECT count(*) AS n FROM firewall_rules WHERE zone_id = @zone_id AND filter_id = @filter_id',
  );
  const record = orUndefined(firewallRuleFromRow);
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
    get: (zoneId, id) => record(byId.get({ zone_id: zoneId, id })),
    insert: (rule) => void insert.run(firewallRuleToRow(rule)),
    update: (rule) => updatedOne(update.run(firewallRuleToRow(rule)), 'firewall rule', rule.id),
    delete: deleter(prepare, 'firewall_rules'),
    count: counter(prepare, 'firewall_rules'),
    countUsing: (zoneId, filterId) => using.get({ zone_id: zoneId, filter_id: filterId })?.n ?? 0,
  };
}
