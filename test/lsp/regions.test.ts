import { describe, expect, it } from 'vitest';
import { CheckCache, DocumentAnalysis } from '../../src/lsp/analysis.js';
import { openCall } from '../../src/lsp/features/signature-help.js';
import { expressionFileFinder } from '../../src/lsp/regions/expression-file.js';
import { finderFor } from '../../src/lsp/regions/finders.js';
import { jsonRulesFinder } from '../../src/lsp/regions/json-rules.js';
import { regionAt } from '../../src/lsp/regions/region.js';

describe('region finders', () => {
  it('are chosen by language and file name', () => {
    expect(finderFor({ uri: 'file:///a/rules.cfrules', languageId: 'plaintext' })).toBe(expressionFileFinder);
    expect(finderFor({ uri: 'untitled:1', languageId: 'cfrules' })).toBe(expressionFileFinder);
    expect(finderFor({ uri: 'file:///a/rules.json', languageId: 'json' })).toBe(jsonRulesFinder);
    // Terraform files are read once the HCL parser has loaded (allFinders, test/lsp/server.test.ts).
    expect(finderFor({ uri: 'file:///a/main.tf', languageId: 'terraform' })).toBeUndefined();
  });

  it('read a .cfrules file one expression per line, or whole, as the CLI does', () => {
    const lines = expressionFileFinder.find('# rules\r\nssl\r\n\r\nhttp.host eq "a"\r\n', '');
    expect(lines.regions.map((r) => [r.text, r.start])).toEqual([
      ['ssl', 9],
      ['http.host eq "a"', 16],
    ]);
    const whole = expressionFileFinder.find('http.host eq "a"\n  and ssl\n', '');
    expect(whole.regions.map((r) => [r.text, r.start, r.end])).toEqual([
      ['http.host eq "a"\n  and ssl', 0, 26],
    ]);
    // A line being typed that starts as JSON does is still a line of expressions (it was read as JSON,
    // and threw: found by the property test of test/lsp/robustness.test.ts).
    const typed = expressionFileFinder.find('{\r\n# c\n', '');
    expect(typed.regions.map((r) => [r.text, r.start])).toEqual([['{', 0]]);
  });

  it('read the expressions of JSON rules, rewrites included, with the phase the file states', () => {
    const text = JSON.stringify({
      phase: 'http_request_transform',
      rules: [
        {
          expression: 'ssl',
          action: 'rewrite',
          action_parameters: { uri: { path: { expression: 'lower(http.request.uri.path)' } } },
        },
      ],
    });
    const { regions, problems } = jsonRulesFinder.find(text, 'file:///r.json');
    expect(problems).toEqual([]);
    expect(regions.map((r) => [r.text, r.kind, r.phase])).toEqual([
      ['ssl', 'filter', 'http_request_transform'],
      ['lower(http.request.uri.path)', 'rewrite', 'http_request_transform'],
    ]);
    expect(text.slice(regions[0]?.start, regions[0]?.end)).toBe('ssl');
    expect(regionAt(regions, regions[1]?.end as number)).toBe(regions[1]);
    expect(regionAt(regions, 0)).toBeUndefined();
  });

  it('report what is wrong with a rules file, not with other JSON', () => {
    expect(jsonRulesFinder.find('[{"id": "a"}]', 'x.json').problems).toEqual([]);
    const broken = jsonRulesFinder.find('{"rules": [{"action": "block"}]}', 'x.json');
    expect(broken.problems.map((p) => p.message)).toEqual([
      'rule #1 of the ruleset has no "expression" string',
    ]);
    expect(jsonRulesFinder.find('{"rules": [{"expression": "ssl"', 'x.json').problems[0]?.start).toBe(31);
    // Malformed JSON that is not a rules file being written (settings with comments) says nothing.
    expect(jsonRulesFinder.find('{\n  // editor settings\n  "a": 1\n}', 'x.json').problems).toEqual([]);
  });
});

describe('analysis', () => {
  it('checks for the phase the file states, and keeps checks between versions', () => {
    const cache = new CheckCache();
    const text = JSON.stringify({ phase: 'http_request_firewall_custom', rules: [{ expression: 'ssl' }] });
    const first = new DocumentAnalysis(text, 'r.json', jsonRulesFinder, { plan: 'free' }, cache);
    const [checked] = first.checks();
    expect(checked?.profile).toEqual({ plan: 'free', phase: 'http_request_firewall_custom' });
    const second = new DocumentAnalysis(`${text} `, 'r.json', jsonRulesFinder, { plan: 'free' }, cache);
    expect(second.checks()[0]?.result).toBe(checked?.result);
  });
});

describe('openCall', () => {
  it('finds the innermost call and the argument being written', () => {
    expect(openCall('lower(')).toEqual({ name: 'lower', argument: 0 });
    expect(openCall('concat(http.host, lower(http.host), "a')).toEqual({ name: 'concat', argument: 2 });
    expect(openCall('regex_replace(http.host, "(", ')).toEqual({ name: 'regex_replace', argument: 2 });
    expect(openCall('lower(http.host) eq "a" and (ssl')).toBeUndefined();
  });
});
