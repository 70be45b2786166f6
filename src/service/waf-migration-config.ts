import {
  CLOUDFLARE_MANAGED_RULESET_ID,
  OWASP_ANOMALY_RULE_ID,
  OWASP_RULESET_ID,
  paranoiaTag,
} from '../engine/managed/catalogue.js';
import {
  CLOUDFLARE_PACKAGE_ID,
  MIGRATION_MAPPING,
  type MigrationTarget,
  OWASP_PACKAGE_ID,
  type PreviousWafRule,
} from '../engine/previous-waf/index.js';
import {
  OWASP_ACTIONS,
  OWASP_SENSITIVITY_TABLE,
  type OwaspSensitivityRow,
} from '../engine/previous-waf/owasp-sensitivity.js';
import { pageRuleWafEffect, urlConstraintExpression } from '../engine/previous-waf/url-patterns.js';
import type { PageRuleRecord } from '../store/store.js';
import { type ApiMessage, CODES } from './errors.js';
import type { ZoneWaf } from './previous-waf-state.js';

/**
 * The new WAF configuration equivalent to a zone's previous WAF (`GET …/waf_migration/config`): the body
 * of the `http_request_firewall_managed` entry point. Pure: the service reads the zone, this builds.
 *
 * - `skip` rules first, one per firewall rule that bypasses the WAF and per page rule that turns it off;
 * - an `execute` rule for the Cloudflare Managed Ruleset, with overrides from the CloudFlare package's
 *   groups and rules (through MIGRATION_MAPPING);
 * - an `execute` rule for the OWASP Core Ruleset: paranoia level and score threshold from the old
 *   sensitivity, action from the old action mode. OWASP group and rule overrides are not migrated.
 */

export interface ConfigRule {
  id: '';
  version: '';
  action: 'execute' | 'skip';
  expression: string;
  description: string;
  ref: '';
  enabled: boolean;
  action_parameters: Record<string, unknown>;
}

export interface MigrationConfig {
  name: string;
  rules: ConfigRule[];
}

/** A firewall rule that bypasses the WAF (action `bypass`, products including `waf`). */
export interface BypassRule {
  id: string;
  description: string;
  expression: string;
  /** The rule or its filter is paused. */
  paused: boolean;
}

/** Old traditional rule modes → rule override (`default` changes nothing). */
const RULE_MODE_OVERRIDES: Record<string, { action?: string; enabled?: false }> = {
  disable: { enabled: false },
  simulate: { action: 'log' },
  block: { action: 'block' },
  challenge: { action: 'challenge' },
};

interface RuleOverride {
  id: string;
  action?: string;
  enabled?: boolean;
  score_threshold?: number;
}

/** Overrides of one managed ruleset, merged: a disable wins, the first action given stays. */
class Overrides {
  readonly categories = new Map<string, { category: string; enabled: boolean }>();
  readonly rules = new Map<string, RuleOverride>();

  rule(override: RuleOverride): void {
    const current = this.rules.get(override.id) ?? { id: override.id };
    this.rules.set(override.id, {
      ...override,
      ...current,
      ...(override.enabled === false ? { enabled: false } : {}),
    });
  }

  disableCategory(category: string): void {
    this.categories.set(category, { category, enabled: false });
  }

  enableCategory(category: string): void {
    this.categories.set(category, { category, enabled: true });
  }

  json(): Record<string, unknown> | undefined {
    const json: Record<string, unknown> = {};
    if (this.categories.size > 0) json.categories = [...this.categories.values()];
    if (this.rules.size > 0) json.rules = [...this.rules.values()];
    return Object.keys(json).length === 0 ? undefined : json;
  }
}

const note = (code: number, message: string): ApiMessage => ({ code, message });

/** A page rule's URL target as an expression on `http.request.full_uri`. */
const targetExpression = (rule: PageRuleRecord): string =>
  urlConstraintExpression(rule.targets[0]?.constraint ?? { operator: 'matches', value: '*' });

/** Page rules as skip rules: a page rule applies only when no higher-priority active page rule matches. */
function pageRuleSkips(pageRules: readonly PageRuleRecord[], messages: ApiMessage[]): ConfigRule[] {
  // Highest priority first; among equal priorities, the older first.
  const active = pageRules
    .map((rule, index) => ({ rule, index }))
    .filter(({ rule }) => rule.status === 'active')
    .sort((a, b) => b.rule.priority - a.rule.priority || a.index - b.index)
    .map(({ rule }) => rule);
  const skips: ConfigRule[] = [];
  active.forEach((rule, position) => {
    const effect = pageRuleWafEffect(rule.actions);
    if (effect === 'on') {
      messages.push(
        note(
          CODES.migrationNote,
          `page rule ${rule.id} (WAF On) needs no rule of its own: the managed rulesets run on all traffic; ` +
            'its URLs are left out of the skip rules of lower-priority page rules',
        ),
      );
    }
    if (effect !== 'off') return;
    const higher = active.slice(0, position).map(targetExpression);
    const own = targetExpression(rule);
    skips.push({
      ...blankRule,
      action: 'skip',
      expression:
        higher.length === 0 ? own : `(${own}) and not (${higher.map((e) => `(${e})`).join(' or ')})`,
      description: `Migrated from page rule ${rule.id} (${
        rule.actions.some((a) => a.id === 'disable_security') ? 'Disable Security' : 'WAF Off'
      })`,
      enabled: true,
      action_parameters: { ruleset: 'current' },
    });
  });
  return skips;
}

const blankRule = { id: '', version: '', ref: '' } as const;

/** Applies a migration target as overrides, `change` saying what each new rule or category gets. */
function applyTarget(
  target: MigrationTarget,
  overrides: Map<string, Overrides>,
  change: { action?: string; enabled?: false },
): boolean {
  if (target.kind === 'none') return false;
  let ruleset = overrides.get(target.rulesetId);
  if (ruleset === undefined) {
    ruleset = new Overrides();
    overrides.set(target.rulesetId, ruleset);
  }
  if (target.kind === 'rules') {
    for (const id of target.ruleIds) ruleset.rule({ id, ...change });
  } else if (change.enabled === false) {
    for (const category of target.categories) ruleset.disableCategory(category);
  } else {
    // A category cannot take a rule's action in this migration: each rule of it would need one.
    return false;
  }
  return true;
}

/** Overrides, by new ruleset, equivalent to the CloudFlare package's group and rule settings. */
function cloudflarePackageOverrides(waf: ZoneWaf, messages: ApiMessage[]): Map<string, Overrides> {
  const overrides = new Map<string, Overrides>();
  const groups = waf.groups().filter((group) => group.package_id === CLOUDFLARE_PACKAGE_ID);
  const rules = waf.rules();
  for (const group of groups) {
    const own = rules.filter((rule) => rule.group_id === group.id);
    const target = MIGRATION_MAPPING.get(group.id) ?? { kind: 'none', reason: 'not in the mapping' };
    if (group.mode === 'off') {
      // The group's rules never ran: disable what replaces the group, or else what replaces each rule.
      if (!applyTarget(target, overrides, { enabled: false })) {
        for (const rule of own)
          applyTarget(MIGRATION_MAPPING.get(rule.id) ?? target, overrides, { enabled: false });
      }
      continue;
    }
    for (const rule of own) migrateRule(rule, waf, overrides, messages);
  }
  return overrides;
}

function migrateRule(
  rule: PreviousWafRule,
  waf: ZoneWaf,
  overrides: Map<string, Overrides>,
  messages: ApiMessage[],
) {
  const mode = waf.changes('rule', rule.id).mode;
  if (mode === undefined) return;
  const target = MIGRATION_MAPPING.get(rule.id) ?? { kind: 'none' as const, reason: 'not in the mapping' };
  const change = rule.kind === 'traditional-deny' ? RULE_MODE_OVERRIDES[mode] : undefined;
  if (change !== undefined && applyTarget(target, overrides, change)) return;
  const why = target.kind === 'none' ? target.reason : 'the new rules that replace it take no such setting';
  messages.push(
    note(
      CODES.migrationNotMigrated,
      `WAF rule ${rule.id} (${rule.description}) in mode ${mode} is not migrated: ${why}`,
    ),
  );
}

function owaspExecuteRule(waf: ZoneWaf, extra: Overrides | undefined): ConfigRule {
  const { pkg, sensitivityChanged } = waf.owasp();
  const row: OwaspSensitivityRow =
    sensitivityChanged && pkg.sensitivity !== 'off' ? pkg.sensitivity : 'default';
  const { paranoiaLevel, scoreThreshold } = OWASP_SENSITIVITY_TABLE[row];
  const overrides = extra ?? new Overrides();
  // The ruleset deploys at paranoia level 1: the levels up to the new one are turned on, those above off.
  for (let level = 2; level <= 4; level++) {
    if (level <= paranoiaLevel) overrides.enableCategory(paranoiaTag(level as 2 | 3 | 4));
    else overrides.disableCategory(paranoiaTag(level as 2 | 3 | 4));
  }
  overrides.rule({
    id: OWASP_ANOMALY_RULE_ID,
    score_threshold: scoreThreshold,
    action: OWASP_ACTIONS[pkg.action_mode],
  });
  return {
    ...blankRule,
    action: 'execute',
    expression: 'true',
    description: `Cloudflare OWASP Core Ruleset (previous OWASP sensitivity ${row}, action ${pkg.action_mode})`,
    // Sensitivity `off` turned the whole package off.
    enabled: pkg.sensitivity !== 'off',
    action_parameters: { id: OWASP_RULESET_ID, overrides: overrides.json() },
  };
}

/** The zone's changes to OWASP groups and rules, which have no direct equivalent. */
function owaspOverrideMessages(waf: ZoneWaf): ApiMessage[] {
  const groups = new Set(
    waf
      .groups()
      .filter((g) => g.package_id === OWASP_PACKAGE_ID)
      .map((g) => g.id),
  );
  const rules = new Set(
    waf
      .rules()
      .filter((r) => r.package_id === OWASP_PACKAGE_ID)
      .map((r) => r.id),
  );
  return waf.all().flatMap((setting) => {
    const isOwasp =
      (setting.kind === 'group' && groups.has(setting.itemId)) ||
      (setting.kind === 'rule' && rules.has(setting.itemId));
    if (!isOwasp) return [];
    return [
      note(
        CODES.migrationNotMigrated,
        `OWASP ${setting.kind} override ${setting.itemId} (mode ${setting.settings.mode}) is not migrated: ` +
          'recreate it as a tag or rule override of the Cloudflare OWASP Core Ruleset',
      ),
    ];
  });
}

export function migrationConfig(
  waf: ZoneWaf,
  bypassRules: readonly BypassRule[],
  pageRules: readonly PageRuleRecord[],
): { config: MigrationConfig; messages: ApiMessage[] } {
  const messages: ApiMessage[] = [];
  const firewallSkips = bypassRules.map(
    (rule): ConfigRule => ({
      ...blankRule,
      action: 'skip',
      expression: rule.expression,
      description: `Migrated from firewall rule ${rule.id} (Bypass: WAF managed rules)${
        rule.description === '' ? '' : `: ${rule.description}`
      }`,
      enabled: !rule.paused,
      action_parameters: { ruleset: 'current' },
    }),
  );
  const pageSkips = pageRuleSkips(pageRules, messages);
  const overrides = cloudflarePackageOverrides(waf, messages);
  const cloudflareOn = waf
    .groups()
    .some((group) => group.package_id === CLOUDFLARE_PACKAGE_ID && group.mode === 'on');
  const managedOverrides = overrides.get(CLOUDFLARE_MANAGED_RULESET_ID)?.json();
  const managed: ConfigRule = {
    ...blankRule,
    action: 'execute',
    expression: 'true',
    description: 'Cloudflare Managed Ruleset (from the previous CloudFlare package)',
    enabled: cloudflareOn,
    action_parameters: {
      id: CLOUDFLARE_MANAGED_RULESET_ID,
      ...(managedOverrides === undefined ? {} : { overrides: managedOverrides }),
    },
  };
  messages.push(...owaspOverrideMessages(waf));
  return {
    config: {
      name: 'default',
      rules: [
        ...firewallSkips,
        ...pageSkips,
        managed,
        owaspExecuteRule(waf, overrides.get(OWASP_RULESET_ID)),
      ],
    },
    messages,
  };
}
