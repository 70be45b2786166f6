import type { Plan } from '../scheme/profile.js';
import type {
  PageRuleTable,
  WafMigrationTable,
  WafOverrideTable,
  WafSettingTable,
} from './previous-waf-store.js';

export type * from './previous-waf-store.js';

import type { RulesetTable } from './ruleset-records.js';

export type * from './ruleset-records.js';

/**
 * The service's storage, as an interface with two implementations: SQLite (./sqlite.ts, the default, one
 * process) and PostgreSQL (./postgres.ts, several service instances on one database).
 *
 * Every service operation is one `transaction`: all its reads and writes see one consistent state and
 * either all happen or none does. Transactions do not nest: one started (or `close` called) from inside
 * another's work would wait for that work to end, which waits for it. Nothing tells such a call from a
 * concurrent request's without AsyncLocalStorage, whose promise hooks cost every promise of the process
 * (measured: a filter's creation 40% slower), so the store trusts its callers. The work is asynchronous (PostgreSQL answers over a socket) and may be
 * run more than once: a PostgreSQL transaction that fails to serialise against another instance's is
 * rolled back and its work run again, so work must not change anything outside the store before it ends.
 * Records are plain data; ids are 32 lowercase hex characters; times are ISO 8601 strings (UTC).
 */
export interface Store {
  /** Which database: `sqlite` or `postgres`. */
  readonly kind: 'sqlite' | 'postgres';
  /** Runs `work` atomically: if it throws, nothing it wrote is kept, and the error is rethrown. */
  transaction<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  /**
   * A number that changes whenever rows of these tables may have changed: after a write to one of them
   * through this store (whether its transaction commits or rolls back), and after a commit to the same
   * database by another connection or process (at once on SQLite; on PostgreSQL when its notification
   * arrives, within milliseconds). While it stays the same, what was read from those tables still holds,
   * so an in-memory copy of their data may key on it. Callable outside transactions.
   */
  generation(tables: readonly TableName[]): number;
  /** Closes the store once the transactions under way have ended; later calls throw. Safe to call twice. */
  close(): Promise<void>;
}

export interface StoreTransaction {
  readonly accounts: AccountTable;
  readonly tokens: TokenTable;
  readonly zones: ZoneTable;
  readonly filters: FilterTable;
  readonly firewallRules: FirewallRuleTable;
  // The previous WAF and its migration (./previous-waf-store.ts).
  readonly wafSettings: WafSettingTable;
  readonly wafOverrides: WafOverrideTable;
  readonly pageRules: PageRuleTable;
  readonly wafMigrations: WafMigrationTable;
  // Rulesets and their versions (./ruleset-records.ts): the zones', and the accounts'.
  readonly rulesets: RulesetTable;
  readonly accountRulesets: RulesetTable;
}

export type TableName = keyof StoreTransaction;

/** A token's permission as configured: a permission name (`firewall_services:edit`) or `read`/`edit`. */
export type Permission = string;

export interface AccountRecord {
  id: string;
  name: string;
  email: string;
  /** SHA-256 (hex) of the global API key; null when the account has none. Keys are never stored. */
  apiKeyHash: string | null;
  createdOn: string;
}

export interface TokenRecord {
  id: string;
  accountId: string;
  /** SHA-256 (hex) of the token value; the value itself is never stored. */
  tokenHash: string;
  /** Zone ids or names the token reaches; `*` is every zone of its account. */
  zones: string[];
  permissions: Permission[];
  createdOn: string;
}

export interface ZoneRecord {
  id: string;
  name: string;
  plan: Plan;
  accountId: string;
  paused: boolean;
  createdOn: string;
  modifiedOn: string;
}

export interface FilterRecord {
  id: string;
  zoneId: string;
  expression: string;
  description: string;
  paused: boolean;
  ref: string | null;
  /**
   * The rule this filter was created with in one call (a firewall rule whose filter was given inline); such
   * a filter cannot be replaced or deleted on its own. Null for filters created through the Filters API.
   */
  createdWithRule: string | null;
  createdOn: string;
  modifiedOn: string;
}

/** The actions of a firewall rule (`log` on Enterprise only). */
import type { FirewallRuleAction } from '../scheme/actions.js';

export { FIREWALL_RULE_ACTIONS, type FirewallRuleAction } from '../scheme/actions.js';

export interface FirewallRuleRecord {
  id: string;
  zoneId: string;
  filterId: string;
  action: FirewallRuleAction;
  priority: number | null;
  paused: boolean;
  description: string;
  ref: string | null;
  /** Products a `bypass` rule bypasses; empty for other actions. */
  products: string[];
  createdOn: string;
  modifiedOn: string;
}

/** A firewall rule with its filter (read in one query, as the API always shows them together). */
export interface FirewallRuleWithFilter {
  rule: FirewallRuleRecord;
  filter: FilterRecord;
}

/** One page of a list, in creation order, with the number of items over all pages. */
export interface Page<T> {
  items: T[];
  totalCount: number;
}

/** `page` counts from 1. */
export interface PageRequest {
  page: number;
  perPage: number;
}

export interface AccountTable {
  get(id: string): Promise<AccountRecord | undefined>;
  getByEmail(email: string): Promise<AccountRecord | undefined>;
  getByApiKeyHash(hash: string): Promise<AccountRecord | undefined>;
  /** Inserts or replaces (by id). */
  put(account: AccountRecord): Promise<void>;
  count(): Promise<number>;
}

export interface TokenTable {
  getByHash(hash: string): Promise<TokenRecord | undefined>;
  /** Inserts or replaces (by id). */
  put(token: TokenRecord): Promise<void>;
}

export interface ZoneQuery {
  /** Only zones of these accounts. */
  accountIds?: readonly string[];
  /** Only zones whose id or name is in this list. */
  idsOrNames?: readonly string[];
  /** Exact name. */
  name?: string;
}

export interface ZoneTable {
  get(id: string): Promise<ZoneRecord | undefined>;
  /** A zone by name within an account: names are unique per account only. */
  getByName(accountId: string, name: string): Promise<ZoneRecord | undefined>;
  list(query: ZoneQuery, page: PageRequest): Promise<Page<ZoneRecord>>;
  insert(zone: ZoneRecord): Promise<void>;
  update(zone: ZoneRecord): Promise<void>;
  /** Deletes the zone with its filters, firewall rules and rulesets; false when there was none. */
  delete(id: string): Promise<boolean>;
}

export interface FilterQuery {
  id?: string;
  /** Case-insensitive substring. */
  expression?: string;
  /** Case-insensitive substring. */
  description?: string;
  /** Exact. */
  ref?: string;
  paused?: boolean;
}

export interface FilterTable {
  list(zoneId: string, query: FilterQuery, page: PageRequest): Promise<Page<FilterRecord>>;
  get(zoneId: string, id: string): Promise<FilterRecord | undefined>;
  /** The zone's filter with exactly this expression, if any. */
  getByExpression(zoneId: string, expression: string): Promise<FilterRecord | undefined>;
  insert(filter: FilterRecord): Promise<void>;
  /**
   * Inserts the filter unless the zone already has one with the same expression (written earlier in the
   * same transaction included): then writes nothing and returns false. The duplicate check and the write
   * in one statement, for the creation of filters, the API's most frequent write.
   */
  insertUnlessDuplicate(filter: FilterRecord): Promise<boolean>;
  update(filter: FilterRecord): Promise<void>;
  /** Deletes the filters that exist; returns their ids. */
  delete(zoneId: string, ids: readonly string[]): Promise<string[]>;
  count(zoneId: string): Promise<number>;
}

export interface FirewallRuleQuery {
  id?: string;
  action?: string;
  /** Case-insensitive substring. */
  description?: string;
  paused?: boolean;
}

export interface FirewallRuleTable {
  list(zoneId: string, query: FirewallRuleQuery, page: PageRequest): Promise<Page<FirewallRuleWithFilter>>;
  get(zoneId: string, id: string): Promise<FirewallRuleRecord | undefined>;
  getWithFilter(zoneId: string, id: string): Promise<FirewallRuleWithFilter | undefined>;
  insert(rule: FirewallRuleRecord): Promise<void>;
  update(rule: FirewallRuleRecord): Promise<void>;
  /** Deletes the rules that exist; returns their ids. */
  delete(zoneId: string, ids: readonly string[]): Promise<string[]>;
  count(zoneId: string): Promise<number>;
  /** How many rules of the zone use this filter. */
  countUsing(zoneId: string, filterId: string): Promise<number>;
}
