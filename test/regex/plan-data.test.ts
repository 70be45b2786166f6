import { describe, expect, it } from 'vitest';
import { compileRegex, compileRegexWithoutPrefilter } from '../../src/regex/compile.js';
import { addRegexPlans, describeRegex, regexPlanData } from '../../src/regex/index.js';

// A file of its own: plans are per process, and each pattern here must first be planned from its data.

/** Patterns of each way a search can go, with inputs that match and inputs that do not. */
const CASES: { pattern: string; search: string; inputs: string[] }[] = [
  { pattern: '(?i)union\\s+select', search: 'v8', inputs: ['1 UNION  select', 'union', 'selectunion'] },
  // V8's linear engine refuses counts this large: V8 filters with the counts relaxed, then RE2 decides.
  {
    pattern: 'a{20,30}b',
    search: 'v8-then-re2',
    inputs: [`${'a'.repeat(25)}b`, `${'a'.repeat(19)}b`, `x${'a'.repeat(31)}b`, 'b'],
  },
  { pattern: '(?u)é\\w+', search: 're2', inputs: ['café', 'éa', 'e'] },
  { pattern: '\\.(?:php|aspx?)$', search: 'literals', inputs: ['/index.php', '/a.aspx', '/a.asp?x'] },
];

describe('plans taken from a table (addRegexPlans), as the managed catalogue ships them', () => {
  it('give the same answers as RE2 alone, on every way a search can go', () => {
    const table = CASES.map(({ pattern }) => regexPlanData(pattern));
    addRegexPlans(table);
    for (const { pattern, search, inputs } of CASES) {
      expect(describeRegex(pattern).search, pattern).toBe(search);
      for (const input of inputs)
        expect(compileRegex(pattern).test(input), `${pattern} on ${input}`).toBe(
          compileRegexWithoutPrefilter(pattern).test(input),
        );
    }
  });

  it("carry V8's translations for the patterns V8 may search with, and none for the others", () => {
    expect(regexPlanData('(?i)union\\s+select').v8?.exact).toBeTypeOf('string');
    expect(regexPlanData('a{20,30}b').v8?.relaxed).toBeTypeOf('string');
    expect(regexPlanData('(?u)é\\w+').v8).toBeUndefined();
    expect(regexPlanData('\\.(?:php|aspx?)$').v8).toBeUndefined();
  });
});
