/**
 * Writes the managed catalogue's data from its sources (src/engine/managed/catalogue-source.ts says why it
 * is kept as data): src/engine/managed/catalogue.json, the two rulesets, and
 * src/engine/managed/regex-plans.json, the regex layer's plan of each of their patterns, and
 * src/engine/managed/conditions.json, what the zone program's index needs of each rule, and
 * src/engine/managed/values.json, the checked trees of the values those conditions read. Run it after
 * changing a managed rule, the regex layer's planning or the index's conditions: `npm run catalogue`.
 */
import { writeFileSync } from 'node:fs';
import { catalogueFromSources } from '../src/engine/managed/catalogue-source.js';
import { valueTableFor } from '../src/engine/managed/conditions.js';
import { conditionTable } from '../src/engine/managed/conditions-table.js';
import { catalogueOptions } from '../src/engine/managed/evaluate.js';
import { regexPlanTable } from '../src/engine/managed/regex-plans-table.js';

const write = (name: string, lines: string[]): void => {
  writeFileSync(new URL(`../src/engine/managed/${name}`, import.meta.url), `${lines.join('\n')}\n`);
  console.log(`wrote src/engine/managed/${name}`);
};

const catalogue = catalogueFromSources();
// One rule (or one plan) per line, so that a change shows as the lines of what it touched.
const rulesetLines = (ruleset: { rules: readonly unknown[] }): string => {
  const { rules, ...rest } = ruleset;
  const head = JSON.stringify(rest).slice(0, -1);
  return `${head},"rules":[\n${rules.map((rule) => JSON.stringify(rule)).join(',\n')}\n]}`;
};
write('catalogue.json', [
  '{',
  `"cloudflareManagedRuleset":${rulesetLines(catalogue.cloudflareManagedRuleset)},`,
  `"owaspCoreRuleset":${rulesetLines(catalogue.owaspCoreRuleset)},`,
  `"cloudflareManagedRuleIds":${JSON.stringify(catalogue.cloudflareManagedRuleIds)},`,
  `"owaspRuleIds":${JSON.stringify(catalogue.owaspRuleIds)}`,
  '}',
]);
const rulesets = [catalogue.cloudflareManagedRuleset, catalogue.owaspCoreRuleset];
const plans = regexPlanTable(rulesets);
write('regex-plans.json', ['[', plans.map((plan) => JSON.stringify(plan)).join(',\n'), ']']);
const conditionsById = conditionTable(rulesets);
const conditions = Object.entries(conditionsById);
write('conditions.json', [
  '{',
  conditions.map(([id, condition]) => `${JSON.stringify(id)}:${JSON.stringify(condition)}`).join(',\n'),
  '}',
]);
const phase = catalogue.owaspCoreRuleset.phase;
const values = Object.entries(valueTableFor(conditionsById, catalogueOptions(phase)));
write('values.json', [
  '{',
  values.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(',\n'),
  '}',
]);
