import type { Page, PageRequest } from './store.js';

/**
 * The records and tables of the previous WAF (packages, groups and rules of before the Ruleset Engine), its
 * URI-based overrides, page rules, and the WAF migration (docs/api.md §7). The catalogue's defaults are
 * data (src/engine/previous-waf); only a zone's departures from them are stored.
 */

/** What a setting applies to: a package, a group or a rule of the catalogue. */
export type WafSettingKind = 'package' | 'group' | 'rule';

/** A zone's change to one catalogue item: the fields it changed (`mode`, `sensitivity`, `action_mode`). */
export interface WafSettingRecord {
  zoneId: string;
  kind: WafSettingKind;
  itemId: string;
  settings: Record<string, string>;
  modifiedOn: string;
}

export interface WafSettingTable {
  /** Every change of the zone (a few dozen at most: the catalogue is small). */
  list(zoneId: string): Promise<WafSettingRecord[]>;
  /** Inserts or replaces (by zone, kind and item). */
  put(setting: WafSettingRecord): Promise<void>;
  /** Back to the catalogue's default; false when there was no change stored. */
  delete(zoneId: string, kind: WafSettingKind, itemId: string): Promise<boolean>;
}

/** A URI-based WAF override: on matching URLs, groups and rules take other modes. */
export interface WafOverrideRecord {
  id: string;
  zoneId: string;
  description: string | null;
  urls: string[];
  priority: number;
  /** Group id → mode. */
  groups: Record<string, string>;
  /** Rule id → mode. */
  rules: Record<string, string>;
  /** Mode a matched rule would take → mode it takes instead. */
  rewriteAction: Record<string, string>;
  paused: boolean;
  createdOn: string;
  modifiedOn: string;
}

export interface WafOverrideTable {
  /** In creation order. */
  list(zoneId: string, page: PageRequest): Promise<Page<WafOverrideRecord>>;
  get(zoneId: string, id: string): Promise<WafOverrideRecord | undefined>;
  insert(override: WafOverrideRecord): Promise<void>;
  update(override: WafOverrideRecord): Promise<void>;
  delete(zoneId: string, id: string): Promise<boolean>;
  count(zoneId: string): Promise<number>;
}

/** One setting of a page rule: `{id, value?}`, its value kept exactly as given. */
export interface PageRuleAction {
  id: string;
  value?: unknown;
}

export interface PageRuleTarget {
  target: 'url';
  constraint: { operator: string; value: string };
}

export interface PageRuleRecord {
  id: string;
  zoneId: string;
  targets: PageRuleTarget[];
  actions: PageRuleAction[];
  /** Higher runs first: only the first matching page rule applies. */
  priority: number;
  status: 'active' | 'disabled';
  createdOn: string;
  modifiedOn: string;
}

export interface PageRuleTable {
  /** Every page rule of the zone, in creation order (a zone has at most a few dozen). */
  list(zoneId: string): Promise<PageRuleRecord[]>;
  get(zoneId: string, id: string): Promise<PageRuleRecord | undefined>;
  insert(rule: PageRuleRecord): Promise<void>;
  update(rule: PageRuleRecord): Promise<void>;
  delete(zoneId: string, id: string): Promise<boolean>;
}

/** `start` (nothing recorded), `validation` (both WAFs run), `complete` (new WAF only, for good). */
export type WafMigrationState = 'start' | 'validation' | 'complete';

export interface WafMigrationRecord {
  zoneId: string;
  state: Exclude<WafMigrationState, 'start'>;
  /** When the zone entered `state`. */
  changedOn: string;
}

export interface WafMigrationTable {
  /** Undefined while the zone is at `start`. */
  get(zoneId: string): Promise<WafMigrationRecord | undefined>;
  put(record: WafMigrationRecord): Promise<void>;
}
