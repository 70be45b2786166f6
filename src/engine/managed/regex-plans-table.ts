import { type RegexPlanData, regexPlanData } from '../../regex/index.js';
import { compiledRules } from './evaluate.js';
import type { ManagedRuleset } from './model.js';
import { regexPatternsOf } from './regex-plans.js';

/**
 * The plans a table of regex plans should hold for these rulesets: every `matches` pattern of every rule,
 * each planned afresh (not from the table), in the rulesets' order. Used by the script that writes the
 * catalogue's table and by the test that checks it.
 */
export function regexPlanTable(rulesets: readonly ManagedRuleset[]): RegexPlanData[] {
  const patterns = new Set<string>();
  for (const ruleset of rulesets)
    for (const { filter } of compiledRules(ruleset))
      for (const pattern of regexPatternsOf(filter.ast)) patterns.add(pattern);
  return [...patterns].map(regexPlanData);
}
