import { findManagedRuleset } from '../engine/managed/catalogue.js';
import {
  PREVIOUS_WAF_GROUPS,
  PREVIOUS_WAF_PACKAGES,
  PREVIOUS_WAF_RULES,
} from '../engine/previous-waf/index.js';
import type {
  FirewallRuleEntry,
  PageRuleEntry,
  PreviousWafEntry,
  RulesetEntry,
  RulesetRuleEntry,
  ZoneFile,
} from '../engine/zone/model.js';
import type { Plan } from '../scheme/profile.js';
import type { RulesetTable, StoreTransaction, ZoneRecord } from '../store/store.js';
import { filterJson } from './filters.js';
import { type RuleJson as FirewallRuleJson, ruleJson as firewallRuleJson } from './firewall-rules.js';
import { type PageRuleJson, pageRuleJson } from './page-rules.js';
import { migrationState, ZoneWaf } from './previous-waf-state.js';
import { RULESET_PHASES, type RuleJson, type RulesetJson, rulesetJson } from './rulesets/model.js';
import { migrationStatus, type StatusResult } from './waf-migration.js';
import { type OverrideJson, overrideJson } from './waf-overrides.js';

/**
 * A zone's whole request-filtering configuration as a zone file (src/engine/zone/model.ts), the input of the
 * engine. Built from the API's own JSON (`ZoneParts`), so that `cfrules export zone` gives the same file
 * whether it reads a running service over HTTP or its database, and `POST /zones/{id}/simulate` evaluates
 * what an export would write.
 */

/** What the zone file is made of, in the shapes the v4 API answers. */
export interface ZoneParts {
  plan: Plan;
  /** The zone's name: what `cf.zone.name` is in its requests (account rulesets choose zones by it). */
  name?: string;
  /** `GET /zones/{id}/firewall/rules`, every page. */
  firewallRules: readonly FirewallRuleJson[];
  /** The entry points, then the custom rulesets they execute. */
  rulesets: readonly RulesetJson[];
  /**
   * The zone's account's root entry points, then the custom rulesets they execute (absent when they could
   * not be read: a credential that does not reach the account).
   */
  accountRulesets?: readonly RulesetJson[];
  /** Absent when the zone has no previous WAF: Free plan, or migration complete (the APIs answer 410). */
  previousWaf?: {
    packages: readonly { id: string; sensitivity?: string; action_mode?: string }[];
    groups: readonly { id: string; mode: string }[];
    rules: readonly { id: string; mode: string }[];
    overrides: readonly OverrideJson[];
  };
  pageRules: readonly PageRuleJson[];
  /** `GET …/waf_migration/status`; absent on the Free plan. */
  migration?: Pick<StatusResult, 'migration_state' | 'old_waf_status' | 'new_waf_status'>;
}

export function assembleZoneFile(parts: ZoneParts): ZoneFile {
  const file: ZoneFile = { plan: parts.plan };
  if (parts.name !== undefined) file.name = parts.name;
  const firewallRules = parts.firewallRules.flatMap(firewallRuleEntry);
  if (firewallRules.length > 0) file.firewall_rules = firewallRules;
  if (parts.rulesets.length > 0) file.rulesets = parts.rulesets.map(rulesetEntry);
  if (parts.accountRulesets !== undefined && parts.accountRulesets.length > 0)
    file.account_rulesets = parts.accountRulesets.map(rulesetEntry);
  if (parts.previousWaf) file.previous_waf = previousWafEntry(parts.previousWaf);
  if (parts.pageRules.length > 0) file.page_rules = parts.pageRules.map(pageRuleEntry);
  if (parts.migration) {
    const { migration_state, old_waf_status, new_waf_status } = parts.migration;
    file.waf_migration = { old_waf_status, new_waf_status, migration_state };
  }
  return file;
}

/** A rule whose filter was deleted never matches and has no expression: it is left out. */
function firewallRuleEntry(rule: FirewallRuleJson): FirewallRuleEntry[] {
  if ('deleted' in rule.filter) return [];
  const { filter } = rule;
  return [
    {
      id: rule.id,
      ...(rule.ref === undefined ? {} : { ref: rule.ref }),
      description: rule.description,
      action: rule.action,
      priority: rule.priority,
      paused: rule.paused,
      ...(rule.products === undefined ? {} : { products: rule.products }),
      filter: {
        id: filter.id,
        expression: filter.expression,
        paused: filter.paused,
        description: filter.description,
        ...(filter.ref === undefined ? {} : { ref: filter.ref }),
      },
      created_on: rule.created_on,
      modified_on: rule.modified_on,
    },
  ];
}

function rulesetEntry(ruleset: RulesetJson): RulesetEntry {
  return {
    id: ruleset.id,
    name: ruleset.name,
    description: ruleset.description,
    kind: ruleset.kind as RulesetEntry['kind'],
    phase: ruleset.phase,
    version: ruleset.version,
    last_updated: ruleset.last_updated,
    rules: (ruleset.rules ?? []).map(rulesetRuleEntry),
  };
}

/** A rule as the zone file has it. */
function rulesetRuleEntry(rule: RuleJson): RulesetRuleEntry {
  return {
    id: rule.id,
    ...(rule.ref === '' ? {} : { ref: rule.ref }),
    description: rule.description,
    action: rule.action,
    expression: rule.expression,
    enabled: rule.enabled,
    ...(rule.action_parameters === undefined ? {} : { action_parameters: rule.action_parameters }),
    ...(rule.logging === undefined ? {} : { logging: rule.logging }),
    ...(rule.ratelimit === undefined ? {} : { ratelimit: rule.ratelimit }),
    version: rule.version,
    last_updated: rule.last_updated,
  };
}

/** Only the zone's changes to the catalogue's defaults, as the zone file asks. */
function previousWafEntry(waf: NonNullable<ZoneParts['previousWaf']>): PreviousWafEntry {
  const entry: PreviousWafEntry = { enabled: true };
  const packages = waf.packages.flatMap((pkg) => {
    const base = PREVIOUS_WAF_PACKAGES.find((candidate) => candidate.id === pkg.id);
    if (base?.detection_mode !== 'anomaly') return [];
    const changed = {
      ...(pkg.sensitivity !== undefined && pkg.sensitivity !== base.sensitivity
        ? { sensitivity: pkg.sensitivity }
        : {}),
      ...(pkg.action_mode !== undefined && pkg.action_mode !== base.action_mode
        ? { action_mode: pkg.action_mode }
        : {}),
    };
    return Object.keys(changed).length === 0 ? [] : [{ id: pkg.id, ...changed }];
  });
  const changedModes = (
    items: readonly { id: string; mode: string }[],
    defaults: readonly { id: string; mode: string }[],
  ) =>
    items
      .filter((item) => defaults.find((base) => base.id === item.id)?.mode !== item.mode)
      .map(({ id, mode }) => ({ id, mode }));
  const groups = changedModes(waf.groups, PREVIOUS_WAF_GROUPS);
  const rules = changedModes(waf.rules, PREVIOUS_WAF_RULES);
  if (packages.length > 0) entry.packages = packages;
  if (groups.length > 0) entry.groups = groups;
  if (rules.length > 0) entry.rules = rules;
  if (waf.overrides.length > 0) {
    entry.overrides = waf.overrides.map((override) => ({
      id: override.id,
      description: override.description,
      urls: override.urls,
      priority: override.priority,
      paused: override.paused,
      groups: override.groups,
      rules: override.rules,
      rewrite_action: override.rewrite_action,
    }));
  }
  return entry;
}

function pageRuleEntry(rule: PageRuleJson): PageRuleEntry {
  return {
    id: rule.id,
    targets: rule.targets.map((target) => ({ target: 'url', constraint: { ...target.constraint } })),
    actions: rule.actions,
    priority: rule.priority,
    status: rule.status,
  };
}

/**
 * The rulesets the entry points' execute rules name that are not the catalogue's managed rulesets: the
 * custom rulesets the zone file must hold too (once each, in the order first named).
 */
export function executedCustomRulesetIds(entryPoints: readonly RulesetJson[]): string[] {
  const ids = entryPoints.flatMap((ruleset) =>
    (ruleset.rules ?? []).flatMap((rule) => {
      const id = rule.action === 'execute' ? rule.action_parameters?.id : undefined;
      return typeof id === 'string' && findManagedRuleset(id) === undefined ? [id] : [];
    }),
  );
  return [...new Set(ids)];
}

/** A zone's parts read from the store, as the API would answer them. */
export async function readZoneParts(tx: StoreTransaction, zone: ZoneRecord): Promise<ZoneParts> {
  const perPage = Math.max(1, await tx.firewallRules.count(zone.id));
  const firewallRules = (await tx.firewallRules.list(zone.id, {}, { page: 1, perPage })).items.map(
    ({ rule, filter }) => firewallRuleJson(rule, filterJson(filter)),
  );
  const rulesets = await deployedRulesets(tx.rulesets, zone.id);
  const accountRulesets = await deployedRulesets(tx.accountRulesets, zone.accountId);
  const pageRules = (await tx.pageRules.list(zone.id))
    .map(pageRuleJson)
    // As the API lists them: the page rule that applies first comes first.
    .sort((a, b) => b.priority - a.priority);
  const common = { plan: zone.plan, name: zone.name, firewallRules, rulesets, accountRulesets, pageRules };
  if (zone.plan === 'free') return common;
  const migration = await migrationStatus(tx, zone);
  if ((await migrationState(tx, zone.id)) === 'complete') return { ...common, migration };
  const waf = await ZoneWaf.read(tx, zone.id);
  const overrides = await tx.wafOverrides.list(zone.id, {
    page: 1,
    perPage: Math.max(1, await tx.wafOverrides.count(zone.id)),
  });
  return {
    ...common,
    migration,
    previousWaf: {
      packages: waf.packages(),
      groups: waf.groups(),
      rules: waf.rules(),
      overrides: overrides.items.map(overrideJson),
    },
  };
}

/** An owner's entry points of every phase, then the custom rulesets they execute, as the API answers them. */
async function deployedRulesets(table: RulesetTable, ownerId: string): Promise<RulesetJson[]> {
  const entryPoints: RulesetJson[] = [];
  for (const phase of RULESET_PHASES) {
    const record = await table.entryPoint(ownerId, phase);
    if (record !== undefined) entryPoints.push(rulesetJson(record));
  }
  const executed: RulesetJson[] = [];
  for (const id of executedCustomRulesetIds(entryPoints)) {
    const record = await table.get(ownerId, id);
    if (record !== undefined) executed.push(rulesetJson(record));
  }
  return [...entryPoints, ...executed];
}

/** The zone file of a zone, from the store. */
export const zoneFileFromStore = async (tx: StoreTransaction, zone: ZoneRecord): Promise<ZoneFile> =>
  assembleZoneFile(await readZoneParts(tx, zone));
