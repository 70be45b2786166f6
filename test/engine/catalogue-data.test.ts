import { describe, expect, it } from 'vitest';
import { catalogueFromSources } from '../../src/engine/managed/catalogue-source.js';
import {
  catalogueConditions,
  catalogueValueBuilder,
  catalogueValues,
  conditionValueKeys,
  valueTableFor,
} from '../../src/engine/managed/conditions.js';
import { conditionTable } from '../../src/engine/managed/conditions-table.js';
import { catalogueOptions, managedRulesContext } from '../../src/engine/managed/evaluate.js';
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
import type { RuleMatcher } from '../../src/engine/matcher.js';
import { valueKeyParts } from '../../src/engine/program/condition-data.js';
import { indexedMatcher } from '../../src/engine/program/index.js';
import type { RequestContext } from '../../src/eval/context.js';
import { valueKey } from '../../src/eval/value-key.js';
import { regexPrefilter } from '../../src/regex/index.js';
import { readSampleRequest } from '../../src/request/index.js';
import { attackCorpus } from './corpus/attacks.js';
import { ordinaryCorpus } from './corpus/ordinary/index.js';

// When a test of this file fails, the catalogue's sources or the regex layer's planning changed since its
// data was written: run `npm run catalogue`.
//
// A file of its own: the regex layer's plans are per process, and here no pattern is planned before the
// catalogue is compiled.
describe("the managed catalogue's data (src/engine/managed/catalogue.json, regex-plans.json, conditions.json)", () => {
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

  it('hold, for every rule, the condition the index works out from its checked tree', () => {
    expect(catalogueConditions).toEqual(conditionTable(managedRulesets));
  });

  it('name values whose text builds them back (the index compiles them from it)', () => {
    const build = catalogueValueBuilder(catalogueOptions('http_request_firewall_managed'), {});
    const keys = conditionValueKeys(catalogueConditions);
    expect(keys.length).toBeGreaterThan(100);
    for (const key of keys) {
      const { source, each } = valueKeyParts(key);
      expect(valueKey(build(source, each)), key).toBe(source);
    }
  });

  it('hold the checked tree of every value the conditions name, which builds the same reader as its text', () => {
    const options = catalogueOptions('http_request_firewall_managed');
    expect(catalogueValues).toEqual(valueTableFor(catalogueConditions, options));
    const fromText = catalogueValueBuilder(options, {});
    const fromData = catalogueValueBuilder(options);
    // Spans aside (a value read from data stands for no text), and definitions compared apart, by identity.
    const withoutSpans = (value: unknown): unknown =>
      JSON.parse(
        JSON.stringify(value, (key, item) =>
          key === 'span' || key === 'definition' ? undefined : typeof item === 'bigint' ? `${item}n` : item,
        ),
      );
    const keys = conditionValueKeys(catalogueConditions);
    expect(Object.keys(catalogueValues).sort()).toEqual([...keys].sort());
    for (const key of keys) {
      const { source, each } = valueKeyParts(key);
      const [text, data] = [fromText(source, each), fromData(source, each)];
      expect(withoutSpans(data), key).toEqual(withoutSpans(text));
      // The definitions are the scheme's own objects, as the checker gives them.
      expect(definitionsOf(data), key).toEqual(definitionsOf(text));
    }
  });

  it("give the index the candidates it finds when it reads the rules' trees, request for request", () => {
    const filters = managedRulesets.flatMap((ruleset) => compiledRules(ruleset).map(({ filter }) => filter));
    expect(filters.every((filter) => 'knownCondition' in filter)).toBe(true);
    // The same filters as the index sees a rule without a known condition: it reads the tree.
    const fromTrees = filters.map(({ expression, ast, match }) => ({ expression, ast, match }));
    const candidatesOf = (matcher: RuleMatcher) => (context: RequestContext) =>
      (matcher.candidates as NonNullable<RuleMatcher['candidates']>)(context).marks;
    const fromTable = candidatesOf(indexedMatcher(filters));
    const fromAst = candidatesOf(indexedMatcher(fromTrees as never));
    const entries = [...attackCorpus(), ...ordinaryCorpus().slice(0, 600)];
    let candidates = 0;
    for (const entry of entries) {
      const read = readSampleRequest(entry.request);
      if (!read.ok) throw new Error('a corpus request does not read');
      const context = managedRulesContext(read.request);
      const expected = fromAst(context);
      expect(fromTable(context)).toEqual(expected);
      candidates += expected.reduce((sum, mark) => sum + mark, 0);
    }
    // Not every rule for every request: the index does narrow.
    expect(candidates).toBeLessThan((entries.length * filters.length) / 2);
  });
});

/** The definition objects of a typed tree, in the order they stand (compared by identity). */
function definitionsOf(value: unknown): unknown[] {
  const out: unknown[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) visit(item);
    else if (typeof node === 'object' && node !== null)
      for (const [key, item] of Object.entries(node)) key === 'definition' ? out.push(item) : visit(item);
  };
  visit(value);
  return out;
}
