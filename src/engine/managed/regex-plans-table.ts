import { type RegexPlanData, regexPlanData } from '../../regex/index.js';
import { managedRulesets } from './catalogue.js';
import { compiledRules } from './evaluate.js';
import { regexPatternsOf } from './regex-plans.js';

/**
 * The plans the catalogue's table should hold: every `matches` pattern of every managed rule, each planned
 * afresh (not from the table), in the catalogue's order. Used by the script that writes the table and by
 * the test that checks it.
 */
export function catalogueRegexPlanTable(): RegexPlanData[] {
  const patterns = new Set<string>();
  for (const ruleset of managedRulesets)
    for (const { filter } of compiledRules(ruleset))
      for (const p of regexPatternsOf(filter.ast)) patterns.add(p);
  return [...patterns].map(regexPlanData);
}
