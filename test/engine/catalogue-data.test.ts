import { describe, expect, it } from 'vitest';
import { catalogueFromSources } from '../../src/engine/managed/catalogue-source.js';
import {
  cloudflareManagedRuleIds,
  cloudflareManagedRuleset,
  compiledRules,
  managedRulesets,
  owaspCoreRuleset,
  owaspRuleIds,
} from '../../src/engine/managed/index.js';
import { catalogueRegexPlans } from '../../src/engine/managed/regex-plans.js';
import { regexPlanTable } from '../../src/engine/managed/regex-plans-table.js';
import { regexPrefilter } from '../../src/regex/index.js';

// When a test of this file fails, the catalogue's sources or the regex layer's planning changed since its
// data was written: run `npm run catalogue`.
//
// A file of its own: the regex layer's plans are per process, and here no pattern is planned before the
// catalogue is compiled.
describe("the managed catalogue's data (src/engine/managed/catalogue.json, regex-plans.json)", () => {
  it('are what compiling the catalogue uses: an index reads the literals of the table, not of a new plan', () => {
    for (const ruleset of managedRulesets) compiledRules(ruleset);
    for (const plan of catalogueRegexPlans)
      expect(regexPrefilter(plan.pattern), plan.pattern).toBe(plan.indexPrefilter ?? plan.prefilter);
  });

  it('hold the rulesets and rule ids their sources build', () => {
    const sources = catalogueFromSources();
    expect(cloudflareManagedRuleset).toEqual(sources.cloudflareManagedRuleset);
    expect(owaspCoreRuleset).toEqual(sources.owaspCoreRuleset);
    expect([...cloudflareManagedRuleIds]).toEqual(sources.cloudflareManagedRuleIds);
    expect([...owaspRuleIds]).toEqual(sources.owaspRuleIds);
  });

  it('hold, for every pattern of the catalogue, what the regex layer finds when it plans it afresh', () => {
    const expected = regexPlanTable(managedRulesets);
    expect(catalogueRegexPlans.map((plan) => plan.pattern)).toEqual(expected.map((plan) => plan.pattern));
    expect(catalogueRegexPlans).toEqual(expected);
  });
});
