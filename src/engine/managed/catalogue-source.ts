import { cloudflareManagedRuleIds, cloudflareManagedRuleset } from './cloudflare/index.js';
import type { AnomalyRule, ManagedRuleset, ScoringRule, SignatureRule } from './model.js';
import { owaspCoreRuleset, owaspRuleIds } from './owasp/index.js';

/**
 * The managed rulesets as data: what the catalogue's sources (cloudflare/, owasp/: word lists, CRS facts
 * and the builders that turn them into expressions) produce. Building them takes a process a tenth of a
 * second, so the library reads them from src/engine/managed/catalogue.json, written from this by
 * `npm run catalogue`; test/engine/catalogue-data.test.ts fails when the two differ.
 */
export interface CatalogueData {
  cloudflareManagedRuleset: ManagedRuleset<SignatureRule>;
  owaspCoreRuleset: ManagedRuleset<ScoringRule | AnomalyRule>;
  /** Rule ids by the Cloudflare Managed Ruleset's stable keys (the previous-WAF mapping is written in keys). */
  cloudflareManagedRuleIds: [key: string, id: string][];
  /** Rule ids by OWASP rule number (the previous-WAF mapping is written in numbers). */
  owaspRuleIds: [number: number, id: string][];
}

/** The catalogue built from its sources. */
export function catalogueFromSources(): CatalogueData {
  return {
    cloudflareManagedRuleset,
    owaspCoreRuleset,
    cloudflareManagedRuleIds: [...cloudflareManagedRuleIds],
    owaspRuleIds: [...owaspRuleIds],
  };
}
