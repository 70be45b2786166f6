import { describe, expect, it } from 'vitest';
import { compiledRules, managedRulesets } from '../../src/engine/managed/index.js';
import { catalogueRegexPlans } from '../../src/engine/managed/regex-plans.js';
import { catalogueRegexPlanTable } from '../../src/engine/managed/regex-plans-table.js';
import { regexPrefilter } from '../../src/regex/index.js';

// A file of its own: the regex layer's plans are per process, and here no pattern is planned before the
// catalogue is compiled.
describe("the catalogue's regex plans (src/engine/managed/regex-plans.json)", () => {
  it('are what compiling the catalogue uses: an index reads the literals of the table, not of a new plan', () => {
    for (const ruleset of managedRulesets) compiledRules(ruleset);
    for (const plan of catalogueRegexPlans)
      expect(regexPrefilter(plan.pattern), plan.pattern).toBe(plan.indexPrefilter ?? plan.prefilter);
  });

  it('hold, for every pattern of the catalogue, what the regex layer finds when it plans it afresh', () => {
    // When this fails, a pattern or the planning changed: run `npm run catalogue:regex-plans`.
    const expected = catalogueRegexPlanTable();
    expect(catalogueRegexPlans.map((plan) => plan.pattern)).toEqual(expected.map((plan) => plan.pattern));
    expect(catalogueRegexPlans).toEqual(expected);
  });
});
