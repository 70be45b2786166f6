import { type ManagedRuleset, managedRulesets } from '../../engine/managed/catalogue.js';
import type { RuleJson, RulesetJson } from './model.js';

/**
 * The catalogue's managed rulesets (src/engine/managed) as the Rulesets API shows them: read-only, at
 * version 1, the same in every zone. They are data of this build, not of the store, so their `last_updated`
 * is a fixed date rather than the time the service started.
 */

const CATALOGUE_DATE = '2024-01-01T00:00:00.000000Z';

function managedJson(ruleset: ManagedRuleset): RulesetJson {
  return {
    id: ruleset.id,
    name: ruleset.name,
    description: ruleset.description,
    source: 'firewall_managed',
    kind: ruleset.kind,
    version: '1',
    last_updated: CATALOGUE_DATE,
    phase: ruleset.phase,
    rules: ruleset.rules.map(
      (rule): RuleJson => ({
        id: rule.id,
        version: '1',
        action: rule.action,
        categories: [...rule.categories],
        description: rule.description,
        enabled: rule.enabled,
        expression: rule.expression,
        ...(rule.kind === 'anomaly' ? { score_threshold: rule.scoreThreshold } : {}),
        ref: rule.id,
        last_updated: CATALOGUE_DATE,
      }),
    ),
  };
}

const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
};

/** Built once; shared by every answer, so frozen. */
const MANAGED: ReadonlyMap<string, RulesetJson> = new Map(
  managedRulesets.map((ruleset) => [ruleset.id, deepFreeze(managedJson(ruleset))]),
);

/** A managed ruleset with its rules, by id. */
export const managedRulesetJson = (id: string): RulesetJson | undefined => MANAGED.get(id);

/** The managed rulesets as lists show them: without rules. */
export const managedRulesetHeaders = (): RulesetJson[] =>
  [...MANAGED.values()].map(({ rules: _rules, ...header }) => header);
