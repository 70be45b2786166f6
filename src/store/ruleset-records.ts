/**
 * What the store keeps of the Rulesets API (the zone's own rulesets: custom ones and phase entry points;
 * managed rulesets are catalogue data, never stored). Every change to a ruleset stores a whole new version,
 * so that any earlier version can be read back as it was; the ruleset's row knows the latest one.
 */

/** `custom`: created with POST and reached by id only; `zone`: the entry point of its phase (one per phase). */
export type StoredRulesetKind = 'custom' | 'zone';

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
  zoneId: string;
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

export interface RulesetTable {
  /** The zone's rulesets at their latest version, in creation order. */
  list(zoneId: string): Promise<RulesetHeader[]>;
  /** The latest version. */
  get(zoneId: string, id: string): Promise<RulesetRecord | undefined>;
  /** The zone's entry point (kind `zone`) of a phase, latest version. */
  entryPoint(zoneId: string, phase: string): Promise<RulesetRecord | undefined>;
  getVersion(zoneId: string, id: string, version: number): Promise<RulesetRecord | undefined>;
  /** Every version still kept, oldest first. */
  versions(zoneId: string, id: string): Promise<RulesetHeader[]>;
  /** A new ruleset with its first version (`ruleset.version`). */
  insert(ruleset: RulesetRecord): Promise<void>;
  /** Stores `ruleset` as its new latest version (`ruleset.version`, which must be new). */
  addVersion(ruleset: RulesetRecord): Promise<void>;
  /** Deletes one version (never the latest: the service refuses that); false when there was none. */
  deleteVersion(zoneId: string, id: string, version: number): Promise<boolean>;
  /** Deletes the ruleset with all its versions; false when there was none. */
  delete(zoneId: string, id: string): Promise<boolean>;
}
