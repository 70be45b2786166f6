import catalogue from './catalogue.json' with { type: 'json' };
import type { CatalogueData } from './catalogue-source.js';
import {
  CLOUDFLARE_MANAGED_RULESET_ID,
  DEFAULT_SCORE_THRESHOLD,
  OWASP_ANOMALY_RULE_ID,
  OWASP_RULESET_ID,
} from './constants.js';
import type { ManagedRule, ManagedRuleset } from './model.js';

/**
 * The managed rulesets of the catalogue (docs/managed-rules.md) and lookups in them: data only, without the
 * evaluator, for callers that validate rules (the service, `cfrules validate`). The rulesets are read from
 * catalogue.json, which `npm run catalogue` writes from their sources (catalogue-source.ts).
 */

export type * from './model.js';
export { paranoiaTag, SEVERITY_SCORES } from './model.js';
export { CLOUDFLARE_MANAGED_RULESET_ID, DEFAULT_SCORE_THRESHOLD, OWASP_ANOMALY_RULE_ID, OWASP_RULESET_ID };

const data = catalogue as unknown as CatalogueData;

export const cloudflareManagedRuleset = data.cloudflareManagedRuleset;
export const owaspCoreRuleset = data.owaspCoreRuleset;

/** Rule ids of the Cloudflare Managed Ruleset by the catalogue's stable keys (the previous-WAF mapping). */
export const cloudflareManagedRuleIds: ReadonlyMap<string, string> = new Map(data.cloudflareManagedRuleIds);

/** Rule ids of the OWASP Core Ruleset by rule number (the previous-WAF mapping). */
export const owaspRuleIds: ReadonlyMap<number, string> = new Map(data.owaspRuleIds);

export const managedRulesets: readonly ManagedRuleset[] = [cloudflareManagedRuleset, owaspCoreRuleset];

/** A managed ruleset by id. */
export function findManagedRuleset(id: string): ManagedRuleset | undefined {
  return managedRulesets.find((ruleset) => ruleset.id === id);
}

/** A rule of the catalogue by id, with its ruleset. */
export function findManagedRule(id: string): { ruleset: ManagedRuleset; rule: ManagedRule } | undefined {
  for (const ruleset of managedRulesets) {
    const rule = ruleset.rules.find((candidate) => candidate.id === id);
    if (rule) return { ruleset, rule };
  }
  return undefined;
}

/** Every category (tag) used by a ruleset's rules, sorted. */
export function categoriesOf(ruleset: ManagedRuleset): string[] {
  return [...new Set(ruleset.rules.flatMap((rule) => rule.categories))].sort();
}
