import { conditionOf, countTestedValues } from '../program/condition.js';
import { type ConditionData, conditionToData } from '../program/condition-data.js';
import { compiledRules } from './evaluate.js';
import type { ManagedRuleset } from './model.js';

/**
 * The conditions a table (./conditions.ts) should hold for these rulesets, each worked out afresh from the
 * rule's checked tree, with the values tested counted over all of them as a zone deploying them together
 * counts them. A rule whose condition data cannot say (address ranges) is left out: the index then reads
 * its tree. Used by the script that writes the catalogue's table and by the test that checks it.
 */
export function conditionTable(rulesets: readonly ManagedRuleset[]): Record<string, ConditionData> {
  const rules = rulesets.flatMap((ruleset) => compiledRules(ruleset));
  const popularity = countTestedValues(rules.map(({ filter }) => filter.ast));
  const table: Record<string, ConditionData> = {};
  for (const { rule, filter } of rules) {
    const data = conditionToData(conditionOf(filter.ast, popularity));
    if (data !== undefined) table[rule.id] = data;
  }
  return table;
}
