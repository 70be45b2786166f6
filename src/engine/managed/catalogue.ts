import { CLOUDFLARE_MANAGED_RULESET_ID, cloudflareManagedRuleset } from './cloudflare/index.js';
import type { ManagedRule, ManagedRuleset } from './model.js';
import { OWASP_ANOMALY_RULE_ID, OWASP_RULESET_ID, owaspCoreRuleset } from './owasp/index.js';

/**
 * The managed rulesets of the catalogue (docs/managed-rules.md) and lookups in them: data only, without the
 * evaluator, for callers that validate rules (the service, `cfrules validate`).
 */

export type * from './model.js';
export { paranoiaTag, SEVERITY_SCORES } from './model.js';
export { DEFAULT_SCORE_THRESHOLD } from './owasp/index.js';
export {
  CLOUDFLARE_MANAGED_RULESET_ID,
  cloudflareManagedRuleset,
  OWASP_ANOMALY_RULE_ID,
  OWASP_RULESET_ID,
  owaspCoreRuleset,
};

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
