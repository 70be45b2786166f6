import type { Page, PageRequest, TableName } from './store.js';

/**
 * What the tables (./tables.ts, ./previous-waf-tables.ts, ./ruleset-table.ts) are written against: named
 * statements (`@column`) on one connection, and the few SQL fragments that differ between SQLite and
 * PostgreSQL. The same table code serves both stores, so that they cannot drift apart in behaviour.
 */

/** A statement bound by name (`@column`), run on its connection within a transaction. */
export interface Query<P extends object, R> {
  get(params: P): Promise<R | undefined>;
  all(params: P): Promise<R[]>;
  /** Resolves to the number of rows changed. */
  run(params: P): Promise<number>;
}

export interface QueryOptions {
  /**
   * Rows as arrays of values in column order, not objects: building an object with a property per column
   * costs about as much as the query itself on a page of records.
   */
  raw?: boolean;
  /** The tables a write statement may change (cascades included), whose generation it moves on. */
  writes?: readonly TableName[];
}

export type Prepare = <P extends object, R = never>(sql: string, options?: QueryOptions) => Query<P, R>;

/** The SQL that is not the same in both databases. */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /** Case-insensitive substring match of a column against an optional text parameter (`%`, `_` literal). */
  contains(column: string, param: string): string;
  /** The column's value is one of the strings of a parameter holding a JSON array (text). */
  oneOf(column: string, param: string): string;
  /** What a zone's filter expressions are unique by (the index that ON CONFLICT names). */
  readonly expressionKey: string;
  /** The filter's expression is the parameter's, found through that index. */
  sameExpression(param: string): string;
}

export const SQLITE: Dialect = {
  name: 'sqlite',
  // `instr`, not LIKE: `%` and `_` in the searched text are literal. SQLite's `lower` folds ASCII only.
  contains: (column, param) =>
    `(CAST(@${param} AS TEXT) IS NULL OR instr(lower(${column}), lower(CAST(@${param} AS TEXT))) > 0)`,
  oneOf: (column, param) => `${column} IN (SELECT value FROM json_each(@${param}))`,
  expressionKey: 'expression',
  sameExpression: (param) => `expression = @${param}`,
};

export const POSTGRES: Dialect = {
  name: 'postgres',
  // Casts: a parameter compared with nothing typed would have no type for PostgreSQL to infer.
  contains: (column, param) =>
    `(CAST(@${param} AS TEXT) IS NULL OR strpos(lower(${column}), lower(CAST(@${param} AS TEXT))) > 0)`,
  oneOf: (column, param) =>
    `${column} IN (SELECT json_array_elements_text(CAST(CAST(@${param} AS TEXT) AS JSON)))`,
  // A B-tree entry holds at most 2,704 bytes, less than a long expression: the index is on its digest.
  expressionKey: 'md5(expression)',
  sameExpression: (param) => `md5(expression) = md5(CAST(@${param} AS TEXT)) AND expression = @${param}`,
};

/** One connection's statements and its database's dialect: what every table is built from. */
export interface Sql {
  prepare: Prepare;
  dialect: Dialect;
}

/** A row's values in column order, as raw statements give them. */
export type Values = unknown[];

/** `UPDATE table SET (every other column) WHERE (key columns)`: an update writes the whole record. */
export function updateSql(table: string, columns: readonly string[], keys: readonly string[]): string {
  const set = columns.filter((column) => !keys.includes(column)).map((column) => `${column} = @${column}`);
  const where = keys.map((column) => `${column} = @${column}`);
  return `UPDATE ${table} SET ${set.join(', ')} WHERE ${where.join(' AND ')}`;
}

export const insertSql = (table: string, columns: readonly string[]): string =>
  `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')})`;

/** Insert, or update every other column of the row with the same id (keeping its place in creation order). */
export const upsertSql = (table: string, columns: readonly string[]): string =>
  `${insertSql(table, columns)} ON CONFLICT (id) DO UPDATE SET ${columns
    .filter((column) => column !== 'id')
    .map((column) => `${column} = excluded.${column}`)
    .join(', ')}`;

/**
 * Equality with an optional parameter of the column's type. The casts give PostgreSQL a type for the
 * parameter, which a bare `IS NULL` does not; SQLite takes them as they are.
 */
export const equals = (column: string, param: string, type: 'TEXT' | 'INTEGER'): string =>
  `(CAST(@${param} AS ${type}) IS NULL OR ${column} = CAST(@${param} AS ${type}))`;

/** `count(*)` as a plain integer in both databases (PostgreSQL's is a bigint, which drivers give as text). */
export const COUNT = 'CAST(count(*) AS INTEGER) AS n';

export const bit = (value: boolean): 0 | 1 => (value ? 1 : 0);
export const optionalBit = (value: boolean | undefined): 0 | 1 | null =>
  value === undefined ? null : bit(value);
export const optionalJson = (values: readonly string[] | undefined): string | null =>
  values === undefined ? null : JSON.stringify(values);
export const parseJson = <T>(text: unknown): T => JSON.parse(text as string) as T;

/** Each column's position in a select list, so that records are read from raw rows by name. */
export function positions<C extends string>(columns: readonly C[]): Record<C, number> {
  return Object.fromEntries(columns.map((column, index) => [column, index])) as Record<C, number>;
}

/** The select list of `columns`, each prefixed with a table alias (for joins). */
export const qualified = (alias: string, columns: readonly string[]): string =>
  columns.map((column) => `${alias}.${column}`).join(', ');

/** A record read from a raw row, starting at the value of index `at` (its columns in their order). */
export type Read<T> = (values: Values, at: number) => T;

/** A single-row raw statement, as a function giving the record or undefined. */
export function reader<P extends object, T>(
  prepare: Prepare,
  sql: string,
  read: Read<T>,
): (params: P) => Promise<T | undefined> {
  const statement = prepare<P, Values>(sql, { raw: true });
  return async (params) => {
    const values = await statement.get(params);
    return values === undefined ? undefined : read(values, 0);
  };
}

interface Limit {
  limit: number;
  offset: number;
}

/** The SQL of one filtered list: `from` may hold an alias, `join` adds the columns of another table. */
export interface ListSql {
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
): (params: P, page: PageRequest) => Promise<Page<T>> {
  // Every joined row has its partner (foreign keys): counting needs no join.
  const count = prepare<P, { n: number }>(`SELECT ${COUNT} FROM ${sql.from} WHERE ${sql.where}`);
  const select = prepare<P & Limit, Values>(
    `SELECT ${sql.columns} FROM ${sql.from} ${sql.join ?? ''} WHERE ${sql.where} ORDER BY ${sql.order} LIMIT @limit OFFSET @offset`,
    { raw: true },
  );
  return async (params, page) => {
    if (
      !Number.isSafeInteger(page.page) ||
      page.page < 1 ||
      !Number.isSafeInteger(page.perPage) ||
      page.perPage < 1
    ) {
      throw new RangeError(`invalid page request: page ${page.page}, ${page.perPage} per page`);
    }
    const totalCount = (await count.get(params))?.n ?? 0;
    const offset = (page.page - 1) * page.perPage;
    // No query when the page starts after the last item.
    const items =
      offset < totalCount
        ? (await select.all({ ...params, limit: page.perPage, offset })).map((values) => read(values, 0))
        : [];
    return { items, totalCount };
  };
}

/** Deletes the given ids one by one (at most a page of them), keeping those that existed, in request order. */
export function deleter(
  prepare: Prepare,
  table: string,
  writes: readonly TableName[],
): (zoneId: string, ids: readonly string[]) => Promise<string[]> {
  const remove = prepare<{ zone_id: string; id: string }>(
    `DELETE FROM ${table} WHERE zone_id = @zone_id AND id = @id`,
    { writes },
  );
  return async (zoneId, ids) => {
    const deleted: string[] = [];
    for (const id of ids) if ((await remove.run({ zone_id: zoneId, id })) > 0) deleted.push(id);
    return deleted;
  };
}

/** The number of a zone's rows in `table`. */
export function counter(prepare: Prepare, table: string): (zoneId: string) => Promise<number> {
  return zoneNumber(prepare, `SELECT ${COUNT} FROM ${table} WHERE zone_id = @zone_id`);
}

/**
 * The number of a zone's filters or firewall rules, from the row that triggers keep for the zone
 * (migration 7): one look-up, where counting the rows walked the zone's whole index.
 */
export function zoneCounter(
  prepare: Prepare,
  column: 'filters' | 'firewall_rules',
): (zoneId: string) => Promise<number> {
  return zoneNumber(prepare, `SELECT ${column} AS n FROM zone_counts WHERE zone_id = @zone_id`);
}

/** A query of one number `n` for a zone, 0 when it gives no row. */
function zoneNumber(prepare: Prepare, sql: string): (zoneId: string) => Promise<number> {
  const query = prepare<{ zone_id: string }, { n: number }>(sql);
  return async (zoneId) => (await query.get({ zone_id: zoneId }))?.n ?? 0;
}

/** Checks that an update changed its row: updating a record that is not there is a bug, not a no-op. */
export function updatedOne(changes: number, what: string, id: string): void {
  if (changes !== 1) throw new Error(`cannot update ${what} ${id}: no such record`);
}
