/**
 * What the store keeps of the Rulesets API (a zone's or an account's own rulesets: custom ones and phase
 * entry points; managed rulesets are catalogue data, never stored). Every change to a ruleset stores a whole new version,
 * so that any earlier version can be read back as it was; the ruleset's row knows the latest one.
 */

/**
 * `custom`: created with POST and reached by id only; `zone` (a zone's) and `root` (an account's): the
 * entry point of its phase (one per phase and owner).
 */
export type StoredRulesetKind = 'custom' | 'zone' | 'root';

export interface RulesetRuleRecord {
  /** 32 lowercase hex characters, unique in the ruleset. */
  id: string;
  /** 1, 2, …: grows when the rule's content changes (not when it only moves). */
  version: number;
  action: string;
  expression: string;
  description: string;
  enabled: boolean;
  ref: string;
  /** RFC 3339 with microseconds: when the rule's content last changed. */
  lastUpdated: string;
  /** Plain JSON, already validated for the action by the service; absent when the rule has none. */
  actionParameters?: Record<string, unknown>;
  logging?: { enabled: boolean };
  ratelimit?: Record<string, unknown>;
}

/** A ruleset at one version, without its rules (lists and version lists). */
export interface RulesetHeader {
  id: string;
  /** The zone's id, or the account's for account rulesets. */
  ownerId: string;
  kind: StoredRulesetKind;
  phase: string;
  /** Immutable once created. */
  name: string;
  description: string;
  /** 1, 2, …: one more per change. */
  version: number;
  lastUpdated: string;
}

export interface RulesetRecord extends RulesetHeader {
  rules: RulesetRuleRecord[];
}

/** One owner kind's rulesets (the zones' or the accounts'), each call naming the owner by id. */
export interface RulesetTable {
  /** The owner's rulesets at their latest version, in creation order. */
  list(ownerId: string): Promise<RulesetHeader[]>;
  /** The latest version. */
  get(ownerId: string, id: string): Promise<RulesetRecord | undefined>;
  /** The owner's entry point (kind `zone` or `root`) of a phase, latest version. */
  entryPoint(ownerId: string, phase: string): Promise<RulesetRecord | undefined>;
  getVersion(ownerId: string, id: string, version: number): Promise<RulesetRecord | undefined>;
  /** Every version still kept, oldest first. */
  versions(ownerId: string, id: string): Promise<RulesetHeader[]>;
  /** A new ruleset with its first version (`ruleset.version`). */
  insert(ruleset: RulesetRecord): Promise<void>;
  /** Stores `ruleset` as its new latest version (`ruleset.version`, which must be new). */
  addVersion(ruleset: RulesetRecord): Promise<void>;
  /** Deletes one version (never the latest: the service refuses that); false when there was none. */
  deleteVersion(ownerId: string, id: string, version: number): Promise<boolean>;
  /** Deletes the ruleset with all its versions; false when there was none. */
  delete(ownerId: string, id: string): Promise<boolean>;
}
