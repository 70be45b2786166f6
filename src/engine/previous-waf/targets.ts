import {
  CLOUDFLARE_MANAGED_RULESET_ID,
  cloudflareManagedRuleIds,
  OWASP_RULESET_ID,
  owaspRuleIds,
} from '../managed/catalogue.js';

/**
 * What replaces a previous WAF rule or group in the new WAF Managed Rules: rules of a managed ruleset,
 * the categories (tags) that cover it, or nothing, with the reason.
 */
export type MigrationTarget =
  | { readonly kind: 'rules'; readonly rulesetId: string; readonly ruleIds: readonly string[] }
  | { readonly kind: 'categories'; readonly rulesetId: string; readonly categories: readonly string[] }
  | { readonly kind: 'none'; readonly reason: string };

function lookup<K>(ids: ReadonlyMap<K, string>, keys: readonly K[]): string[] {
  return keys.map((key) => {
    const id = ids.get(key);
    // A renamed or removed rule must break the build of the mapping, not leave a dangling id.
    if (id === undefined) throw new Error(`the managed rules catalogue has no rule ${String(key)}`);
    return id;
  });
}

/** Rules of the Cloudflare Managed Ruleset, by catalogue key. */
export const managedRules = (...keys: string[]): MigrationTarget => ({
  kind: 'rules',
  rulesetId: CLOUDFLARE_MANAGED_RULESET_ID,
  ruleIds: lookup(cloudflareManagedRuleIds, keys),
});

/** Rules of the OWASP Core Ruleset, by rule number. */
export const owaspRules = (...numbers: number[]): MigrationTarget => ({
  kind: 'rules',
  rulesetId: OWASP_RULESET_ID,
  ruleIds: lookup(owaspRuleIds, numbers),
});

export const managedCategories = (...categories: string[]): MigrationTarget => ({
  kind: 'categories',
  rulesetId: CLOUDFLARE_MANAGED_RULESET_ID,
  categories,
});

export const owaspCategories = (...categories: string[]): MigrationTarget => ({
  kind: 'categories',
  rulesetId: OWASP_RULESET_ID,
  categories,
});

export const noEquivalent = (reason: string): MigrationTarget => ({ kind: 'none', reason });
