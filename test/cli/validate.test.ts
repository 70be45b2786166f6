// `cfrules validate`, run as the built binary (see run-binary.ts): exit codes, inputs, formats, options.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/command.js';
import { runCli } from '../../src/cli/main.js';
import { run as runInProcess } from './in-process.js';
import { cfrules } from './run-binary.js';

const validate = (args: string[], options: Parameters<typeof cfrules>[1] = {}) =>
  cfrules(['validate', ...args], options);

/** The JSON report of a run with --format json. */
async function report(args: string[], options: Parameters<typeof cfrules>[1] = {}) {
  const result = await validate(['--format', 'json', ...args], options);
  expect(result.stderr).toBe('');
  return { code: result.code, json: JSON.parse(result.stdout) };
}

const fixture = (name: string) => `test/cli/fixtures/${name}`;
const example = (name: string) => `examples/rules/${name}`;
const summaryOf = (stdout: string) => stdout.trimEnd().split('\n').at(-1);

describe.concurrent('cfrules validate: exit status and the text report', { timeout: 30_000 }, () => {
  it('prints only the summary for valid expressions and exits 0', async () => {
    const result = await validate(['http.request.uri.path eq "/login" and not cf.client.bot']);
    expect(result).toEqual({
      code: 0,
      stdout: '1 expression checked: 1 valid, 0 invalid, 0 warnings\n',
      stderr: '',
    });
  });

  it('shows an error with its location, the Cloudflare text and the hint, and exits 1', async () => {
    const result = await validate(['http.hots eq "a"']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      '<expression>:1:1: error[unknown-identifier]\n' +
        'Filter parsing error (1:1):\n' +
        'http.hots eq "a"\n' +
        '^^^^^^^^^ unknown identifier\n' +
        'hint: did you mean http.host?\n' +
        '\n' +
        '1 expression checked: 0 valid, 1 invalid, 0 warnings\n',
    );
  });

  it('shows a syntax error, positioned where Cloudflare puts it', async () => {
    const result = await validate(['http.request.uri.path eq "/login" and']);
    expect(result).toEqual({
      code: 1,
      stderr: '',
      stdout:
        '<expression>:1:38: error[expected-identifier]\n' +
        'Filter parsing error (1:38):\n' +
        'http.request.uri.path eq "/login" and\n' +
        '                                     ^ expected identifier character\n' +
        '\n' +
        '1 expression checked: 0 valid, 1 invalid, 0 warnings\n',
    });
  });

  it('numbers several expressions, -e and arguments alike, in command-line order', async () => {
    const result = await validate(['ssl', '-e', 'ssl and', 'ssl or']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^<expression 2>:1:8: error\[expected-identifier\]\n/);
    expect(result.stdout).toMatch(/\n<expression 3>:1:7: error\[expected-identifier\]\n/);
    expect(summaryOf(result.stdout)).toBe('3 expressions checked: 1 valid, 2 invalid, 0 warnings');
  });

  it('accepts an expression starting with - after --', async () => {
    // `-1 eq x` is not a valid expression, but it must reach the validator rather than the option parser.
    const result = await validate(['--', '-x']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^<expression>:1:1: error\[/);
  });

  it('suggests --file when an invalid argument names a file', async () => {
    const result = await validate(['examples/rules/mistakes.txt']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^<expression>:1:\d+: error\[/);
    expect(result.stderr).toBe(
      "cfrules validate: note: 'examples/rules/mistakes.txt' was checked as an expression; to check the file, " +
        'use --file examples/rules/mistakes.txt\n',
    );
    expect((await validate(['examples/rules/none.txt'])).stderr).toBe('');
  });

  it('reads one expression from standard input with -, without its final line break', async () => {
    const valid = await validate(['-'], { stdin: 'http.host eq "example.com"\n' });
    expect(valid).toMatchObject({
      code: 0,
      stdout: '1 expression checked: 1 valid, 0 invalid, 0 warnings\n',
    });
    const invalid = await validate(['-'], { stdin: 'ssl or\r\n' });
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toMatch(
      /^<stdin>:1:7: error\[expected-identifier\]\nFilter parsing error \(1:7\):\nssl or\n/,
    );
  });

  it('reports positions inside multi-line expressions from standard input', async () => {
    const result = await validate(['-'], { stdin: 'ssl\nand http.host eq "a" or\n' });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^<stdin>:2:24: error\[expected-identifier\]\nFilter parsing error \(2:24\):\nand http.host eq "a" or\n/,
    );
  });
});

describe.concurrent('cfrules validate --file', { timeout: 30_000 }, () => {
  it('reads text files line by line, skipping blank lines and comments, with the file’s line numbers', async () => {
    const result = await validate(['--file', example('mistakes.txt')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      'examples/rules/mistakes.txt:3:19: error[comma-in-set]\n' +
        'Filter parsing error (1:19):\n' +
        'tcp.dstport in {80, 443}\n' +
        '                  ^^^^^^ expected digit\n' +
        'hint: set items are separated by spaces, not commas: {80 443}\n' +
        'examples/rules/mistakes.txt:4:38: error[expected-identifier]\n' +
        'Filter parsing error (1:38):\n' +
        'http.request.uri.path eq "/login" and\n' +
        '                                     ^ expected identifier character\n' +
        '\n' +
        '3 expressions checked: 1 valid, 2 invalid, 0 warnings\n',
    );
    expect((await validate(['-f', example('expressions.txt')])).code).toBe(0);
  });

  it('copes with a byte order mark, CRLF line ends and indented comments', async () => {
    const result = await validate(['-f', fixture('crlf-bom.txt')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^test\/cli\/fixtures\/crlf-bom.txt:5:13: error\[unrecognised-input\]\n/);
    expect(summaryOf(result.stdout)).toBe('2 expressions checked: 1 valid, 1 invalid, 0 warnings');
  });

  it('reads an array of filters, naming each by id and description, at its position in the JSON', async () => {
    const result = await validate(['-f', example('filters.json')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      'examples/rules/filters.json:10:98: error[expected-identifier] (filter c218c536b2bd406f958f278cf0fb8c0f "Comment spam")\n' +
        'Filter parsing error (1:75):\n' +
        'http.request.method eq "POST" and http.request.uri.path eq "/comments" and\n' +
        '                                                                          ^ expected identifier character\n' +
        '\n' +
        '2 expressions checked: 1 valid, 1 invalid, 0 warnings\n',
    );
  });

  it('maps columns through JSON escapes (\\" and \\u00e9)', async () => {
    const result = await validate(['-f', fixture('escapes.json')]);
    // "expression": "http.host eq \"\u00e9t\u00e9\" and" — the text starts at column 20; 34 raw bytes precede the end.
    expect(result.stdout).toMatch(/^test\/cli\/fixtures\/escapes.json:5:54: error\[expected-identifier\]/);
    expect(result.stdout).toContain('Filter parsing error (1:25):\nhttp.host eq "été" and\n');
  });

  it('points at the expression, not at an equal string before it (a description that reads as the expression)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfrules-validate-'));
    try {
      const expression = 'http.host eq \\"a\\" and';
      const file = join(dir, 'rules.json');
      writeFileSync(
        file,
        `{"phase": "http_request_firewall_custom", "rules": [\n  {"description": "${expression}", "action": "block",\n   "expression": "${expression}"}\n]}\n`,
      );
      const result = await validate(['-f', file]);
      // Line 3, where "expression" is: its text starts at column 19, and the error is at its end.
      expect(result.stdout).toContain(`${file}:3:41: error[expected-identifier]`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads firewall rules in the API envelope, with phase firewall_rules by default', async () => {
    const { code, json } = await report(['-f', example('firewall-rules.json')]);
    expect(code).toBe(0);
    expect(
      json.results.map((r: Record<string, unknown>) => [r.item, r.rule, r.field, r.phase, r.line]),
    ).toEqual([
      ['rule', '372e67954025e0ba6aaa6d586b9e0b59', 'filter.expression', 'firewall_rules', 11],
      ['rule', '9e6f5a2d8b3c4e1f8a7b6c5d4e3f2a1b', 'filter.expression', 'firewall_rules', 25],
    ]);
    expect(json.results[0].description).toBe('Block the admin area from outside the office');
    expect(json.results[1].expression).toBe('cf.client.bot');
  });

  it('reads one filter in the API envelope, as GET …/filters/ID returns it', async () => {
    const result = await validate(['-f', fixture('single-filter.json')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^test\/cli\/fixtures\/single-filter.json:4:43: error\[expected-identifier\] \(filter 6f2d1c0b9a8e7d6c5b4a39281706f5e4\)\n/,
    );
  });

  it('reads a ruleset with the ruleset’s phase, naming rules by id, else ref', async () => {
    const { code, json } = await report(['-f', example('custom-ruleset.json')]);
    expect(code).toBe(0);
    expect(json.results.map((r: Record<string, unknown>) => [r.rule, r.phase, r.kind])).toEqual([
      ['f1c2a3b4c5d6e7f8a9b0c1d2e3f4a5b6', 'http_request_firewall_custom', 'filter'],
      ['challenge-login', 'http_request_firewall_custom', 'filter'],
    ]);
  });

  it('checks the rewrite expressions of a ruleset in an envelope as rewrites', async () => {
    const { code, json } = await report(['-f', example('transform-ruleset.json')]);
    expect(code).toBe(0);
    expect(json.results.map((r: Record<string, unknown>) => [r.field, r.kind, r.phase])).toEqual([
      ['expression', 'filter', 'http_request_transform'],
      ['action_parameters.uri.path.expression', 'rewrite', 'http_request_transform'],
    ]);
  });

  it('checks header and redirect rewrite expressions, naming rules without id or ref by position', async () => {
    const result = await validate(['-f', fixture('request-transform.json')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'test/cli/fixtures/request-transform.json:13:73: error[unrecognised-input] (rule add-country-header ' +
        '"Tell the origin where the client is", action_parameters.headers.x-broken.expression)\n',
    );
    expect(result.stdout).toContain(
      'test/cli/fixtures/request-transform.json:19:56: error[expected-identifier] (rule #2)\n',
    );
    expect(summaryOf(result.stdout)).toBe('5 expressions checked: 3 valid, 2 invalid, 0 warnings');
    // The rules are otherwise as the API takes them (a URL rewrite is an http_request_transform rule's).
    expect(result.stdout).not.toContain('Rule error');

    const { json } = await report(['-f', fixture('request-transform.json'), '-f', fixture('redirects.json')]);
    expect(json.results.map((r: Record<string, unknown>) => `${r.rule} ${r.field} ${r.kind}`)).toEqual([
      'add-country-header expression filter',
      'add-country-header action_parameters.headers.x-client-country.expression rewrite',
      'add-country-header action_parameters.headers.x-broken.expression rewrite',
      '#2 expression filter',
      '#2 action_parameters.uri.query.expression rewrite',
      '5d1ea1b7a4c34b1a9c2a3e1f0d9c8b7a expression filter',
      '5d1ea1b7a4c34b1a9c2a3e1f0d9c8b7a action_parameters.from_value.target_url.expression rewrite',
    ]);
    // A bare array of ruleset rules has no phase to default to.
    expect(json.results[5].phase).toBeNull();
  });

  it('lets --phase override the phase of every file', async () => {
    const { json } = await report([
      '--phase',
      'http_ratelimit',
      '-f',
      example('custom-ruleset.json'),
      '-f',
      example('filters.json'),
    ]);
    expect(new Set(json.results.map((r: Record<string, unknown>) => r.phase))).toEqual(
      new Set(['http_ratelimit']),
    );
  });

  it('notes a ruleset phase it does not know, and checks the rules without phase restrictions', async () => {
    const result = await validate(['-f', fixture('unknown-phase.json')]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      "cfrules validate: test/cli/fixtures/unknown-phase.json: unknown phase 'http_request_sanitize'; its rules " +
        'are checked without phase restrictions (use --phase to choose one)\n',
    );
  });

  it('reads a rule file from standard input with --file -', async () => {
    const stdin = JSON.stringify([{ id: 'abc', expression: 'ssl and' }]);
    const result = await validate(['--file', '-'], { stdin });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^<stdin>:1:35: error\[expected-identifier\] \(filter abc\)\n/);
  });

  it('mixes expressions and files in command-line order', async () => {
    const { json } = await report(['ssl', '-f', example('expressions.txt'), '-e', 'cf.client.bot']);
    expect(json.results.map((r: Record<string, unknown>) => `${r.source}:${r.line}`)).toEqual([
      '<expression 1>:1',
      'examples/rules/expressions.txt:5',
      'examples/rules/expressions.txt:8',
      'examples/rules/expressions.txt:11',
      '<expression 2>:1',
    ]);
  });
});

describe.concurrent('cfrules validate: rule objects, checked as the API checks them', {
  timeout: 30_000,
}, () => {
  const rules = fixture('firewall-rule-objects.json');

  it('reports log on Free, an unknown action and bypass without products, with the API’s words', async () => {
    const result = await validate(['--plan', 'free', '-f', rules]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      `${rules}:6:17: error[action-not-entitled] (rule 0f9b5a4c2d3e4f5a6b7c8d9e0f1a2b3c "Log logins")\n` +
        'Rule error (10204) at action: the log action needs the Enterprise plan; this zone is on the Free plan\n' +
        `${rules}:14:17: error[invalid-action] (rule 1a9b5a4c2d3e4f5a6b7c8d9e0f1a2b3c)\n` +
        'Rule error (10200) at action: action "blokk" must be one of block, challenge, js_challenge, managed_challenge, ' +
        'allow, log, bypass\n' +
        // products is missing: the position is the rule's
        `${rules}:17:5: error[products-required] (rule 2b9b5a4c2d3e4f5a6b7c8d9e0f1a2b3c)\n` +
        'Rule error (10200) at products: products is required with the bypass action: any of zoneLockdown, ' +
        'uaBlock, bic, hot, securityLevel, rateLimit, waf\n' +
        '\n' +
        '4 expressions checked: 1 valid, 3 invalid, 0 warnings\n',
    );
  });

  it('takes the plan from --plan: without it, log is allowed (no plan restrictions)', async () => {
    const { code, json } = await report(['-f', rules]);
    expect(code).toBe(1);
    expect(
      json.results.map((r: { diagnostics: { code: string }[] }) => r.diagnostics.map((d) => d.code)),
    ).toEqual([[], ['invalid-action'], ['products-required'], []]);
    const enterprise = await report(['--plan', 'enterprise', '-f', rules]);
    expect(enterprise.json.summary).toMatchObject({ valid: 2, invalid: 2, errors: 2 });
  });

  it('json: a finding has the file position, the JSON pointer and the API code; errors count it', async () => {
    const { code, json } = await report(['--plan', 'free', '-f', rules]);
    expect(code).toBe(1);
    expect(json.ok).toBe(false);
    expect(json.summary).toMatchObject({ expressions: 4, valid: 1, invalid: 3, errors: 3 });
    expect(json.results[0].ok).toBe(false);
    expect(json.results[0].diagnostics).toEqual([
      {
        severity: 'error',
        code: 'action-not-entitled',
        message: 'the log action needs the Enterprise plan; this zone is on the Free plan',
        line: 6,
        column: 17,
        endLine: 6,
        endColumn: 17,
        pointer: '/result/0/action',
        apiCode: 10204,
        formatted:
          'Rule error (10204) at action: the log action needs the Enterprise plan; this zone is on the Free plan\n',
      },
    ]);
  });

  it('github: one annotation per rule finding, at its place in the file', async () => {
    const result = await validate(['--format', 'github', '--quiet', '--plan', 'free', '-f', rules]);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')[1]).toBe(
      `::error file=${rules},line=14,col=17,endLine=14,endColumn=17,title=cfrules invalid-action::` +
        'rule 1a9b5a4c2d3e4f5a6b7c8d9e0f1a2b3c: Rule error (10200) at action: action "blokk" must be one of block, ' +
        'challenge, js_challenge, managed_challenge, allow, log, bypass',
    );
  });

  it('reports a ruleset rule whose action its phase does not allow, and bad action parameters', async () => {
    const file = fixture('ruleset-rule-objects.json');
    const result = await validate(['-f', file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      `${file}:8:17: error[action-not-in-phase] (rule run-managed)\n` +
        "Rule error (20217) at action: 'execute' is not a valid value for action because the " +
        'http_request_firewall_custom phase allows only block, challenge, js_challenge, managed_challenge, log, skip\n' +
        `${file}:15:28: error[invalid-action-parameters] (rule skip-nothing)\n` +
        "Rule error (20217) at action_parameters: '{}' is not a valid value for action_parameters because it " +
        'skips nothing: give one of ruleset, phases, products\n' +
        '\n' +
        '2 expressions checked: 0 valid, 2 invalid, 0 warnings\n',
    );
    // In the managed phase, execute is the way to deploy a managed ruleset: the first rule is fine there.
    const managed = await report(['--phase', 'http_request_firewall_managed', '-f', file]);
    expect(managed.json.results[0].diagnostics).toEqual([]);
  });

  it("checks an account's root entry point for its own actions: execute, not the phase's", async () => {
    const file = fixture('account-root-entrypoint.json');
    const result = await validate(['-f', file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      `${file}:14:17: error[action-not-in-phase] (rule block-here)\n` +
        "Rule error (20217) at action: 'block' is not a valid value for action because the root entry point " +
        'of the http_request_firewall_custom phase allows only execute: put other rules in a custom ruleset, ' +
        'and execute it from here\n' +
        '\n' +
        '2 expressions checked: 1 valid, 1 invalid, 0 warnings\n',
    );
  });

  it('still passes valid files: filters, firewall rules and rulesets as the API returns them', async () => {
    const result = await validate([
      '--plan',
      'free',
      '-f',
      example('firewall-rules.json'),
      '-f',
      example('custom-ruleset.json'),
      '-f',
      example('transform-ruleset.json'),
      '-f',
      fixture('redirects.json'),
    ]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^\d+ expressions checked: \d+ valid, 0 invalid, 0 warnings\n$/);
    expect(result.code).toBe(0);
  });

  it('calls a misspelt member unknown-member in a firewall rule, a filter and a ruleset rule alike', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfrules-'));
    try {
      const firewallRules = join(dir, 'rules.json');
      writeFileSync(
        firewallRules,
        JSON.stringify([
          { action: 'block', descripton: 'x', filter: { expression: 'ssl' } },
          { action: 'block', filter: { expression: 'ssl', pased: true } },
          { expression: 'ssl', refs: 'r' },
        ]),
      );
      const ruleset = join(dir, 'ruleset.json');
      writeFileSync(
        ruleset,
        JSON.stringify({
          phase: 'http_request_firewall_custom',
          rules: [{ action: 'block', expression: 'ssl', descripton: 'x' }],
        }),
      );
      const { json } = await report(['-f', firewallRules, '-f', ruleset]);
      const found = json.results.map((r: { diagnostics: { code: string; pointer: string }[] }) =>
        r.diagnostics.map((d) => `${d.code} ${d.pointer}`),
      );
      expect(found).toEqual([
        ['unknown-member /0/descripton'],
        ['unknown-member /1/filter/pased'],
        ['unknown-member /2/refs'],
        ['unknown-member /rules/0/descripton'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('checks the filters of a filters file as the Filters API does, not their expression twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfrules-'));
    try {
      const file = join(dir, 'filters.json');
      const filters = [
        { id: 'a', expression: 'ssl and', description: 'x'.repeat(501) },
        { id: 'b', expression: 'ssl', ref: 'r'.repeat(51) },
      ];
      writeFileSync(file, JSON.stringify(filters, null, 2));
      const { json } = await report(['-f', file]);
      const codes = json.results.map((r: { diagnostics: { code: string }[] }) =>
        r.diagnostics.map((d) => d.code),
      );
      expect(codes).toEqual([['expected-identifier', 'invalid-description'], ['invalid-ref']]);
      expect(json.results[1].diagnostics[0]).toMatchObject({
        message: 'ref must be a string of at most 50 characters',
        apiCode: 10100,
        pointer: '/1/ref',
        line: 10, // [, {, id, expression, description, }, {, id, expression, then ref
        column: 12,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.concurrent('cfrules validate --format', { timeout: 30_000 }, () => {
  it('json: one document with the summary and every expression, valid ones included', async () => {
    const { code, json } = await report(['ssl', 'http.hots eq "a"']);
    expect(code).toBe(1);
    expect(json.ok).toBe(false);
    expect(json.summary).toEqual({
      expressions: 2,
      valid: 1,
      invalid: 1,
      unchecked: 0,
      errors: 1,
      warnings: 0,
      maxWarnings: null,
      emptyInputs: [],
      allowEmpty: false,
    });
    expect(json.results[0]).toEqual({
      source: '<expression 1>',
      item: null,
      rule: null,
      description: null,
      field: null,
      kind: 'filter',
      phase: null,
      line: 1,
      column: 1,
      expression: 'ssl',
      ok: true,
      diagnostics: [],
    });
    expect(json.results[1].diagnostics).toEqual([
      {
        severity: 'error',
        code: 'unknown-identifier',
        message: 'unknown identifier',
        line: 1,
        column: 1,
        endLine: 1,
        endColumn: 10,
        hint: 'did you mean http.host?',
        formatted: 'Filter parsing error (1:1):\nhttp.hots eq "a"\n^^^^^^^^^ unknown identifier\n',
      },
    ]);
    expect((await report(['ssl'])).json).toMatchObject({ ok: true, summary: { valid: 1, invalid: 0 } });
  });

  it('json: diagnostics of JSON files carry the file’s positions', async () => {
    const { json } = await report(['-f', example('filters.json')]);
    expect(json.results[1].diagnostics[0]).toMatchObject({
      line: 10,
      column: 98,
      endLine: 10,
      endColumn: 98,
    });
    expect(json.results[1].diagnostics[0].formatted).toMatch(/^Filter parsing error \(1:75\):\n/);
  });

  it('github: one workflow command per finding, with file positions, then the summary', async () => {
    const result = await validate(['--format', 'github', '-f', example('mistakes.txt'), 'http.hots eq "a"']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      '::error file=examples/rules/mistakes.txt,line=3,col=19,endLine=3,endColumn=25,title=cfrules comma-in-set::' +
        'expected digit%0Ahint: set items are separated by spaces, not commas: {80 443}\n' +
        '::error file=examples/rules/mistakes.txt,line=4,col=38,endLine=4,endColumn=38,title=cfrules expected-identifier::' +
        'expected identifier character\n' +
        // no file for a command-line expression: the message names it instead; the hint follows on its own line
        '::error line=1,col=1,endLine=1,endColumn=10,title=cfrules unknown-identifier::<expression>:1:1: unknown identifier' +
        '%0Ahint: did you mean http.host?\n' +
        '4 expressions checked: 1 valid, 3 invalid, 0 warnings\n',
    );
  });

  it('github: escapes %, line breaks, and , and : in properties', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfrules-'));
    try {
      writeFileSync(join(dir, 'a,b:c.txt'), 'ssl or\n');
      const odd = await validate(['--format', 'github', '-f', 'a,b:c.txt'], { cwd: dir });
      expect(odd.stdout.split('\n')[0]).toBe(
        '::error file=a%2Cb%3Ac.txt,line=1,col=7,endLine=1,endColumn=7,title=cfrules expected-identifier::' +
          'expected identifier character',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const escaped = await validate(['--format', 'github', '-f', fixture('escapes.json')]);
    expect(escaped.stdout.split('\n')[0]).toBe(
      '::error file=test/cli/fixtures/escapes.json,line=5,col=54,endLine=5,endColumn=54,title=cfrules expected-identifier::' +
        'filter 0a1b2c3d4e5f60718293a4b5c6d7e8f9 "100%25 sure, really: yes": expected identifier character',
    );
  });
});

describe.concurrent('cfrules validate: colours', { timeout: 30_000 }, () => {
  const bold = '\x1b[1m';
  const red = '\x1b[31m';

  it('uses none when the output is not a terminal, or with NO_COLOR', async () => {
    expect((await validate(['ssl and'])).stdout).not.toContain('\x1b[');
    expect((await validate(['ssl and'], { env: { NO_COLOR: '1' } })).stdout).not.toContain('\x1b[');
  });

  it('uses them with FORCE_COLOR, even when NO_COLOR is set; FORCE_COLOR=0 turns them off', async () => {
    const forced = await validate(['ssl and'], { env: { FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain(
      `${bold}<expression>:1:8:\x1b[0m ${red}error[expected-identifier]\x1b[0m\n`,
    );
    expect(forced.stdout).toContain(
      `${red}Filter parsing error (1:8):\x1b[0m\nssl and\n${red}       ^ expected identifier character\x1b[0m\n`,
    );
    expect((await validate(['ssl and'], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } })).stdout).toContain(red);
    expect((await validate(['ssl and'], { env: { FORCE_COLOR: '0' } })).stdout).not.toContain('\x1b[');
    expect((await validate(['http.hots eq "a"'], { env: { FORCE_COLOR: '1' } })).stdout).toContain(
      '\x1b[2mhint: ',
    );
  });

  /** Runs in-process with a terminal-like standard output (a child process never has one). */
  function onTerminal(env: Record<string, string>) {
    let stdout = '';
    const io: CliIo = {
      stdout: (text) => {
        stdout += text;
      },
      stderr: () => {},
      readFile: () => '',
      writeFile: () => {},
      readStdin: () => '',
      isTTY: true,
      env,
    };
    return { code: runCli(['validate', 'ssl and'], io), stdout };
  }

  it('uses them on a terminal unless NO_COLOR (non-empty) or TERM=dumb', async () => {
    expect(onTerminal({}).stdout).toContain(red);
    expect(onTerminal({ NO_COLOR: '' }).stdout).toContain(red);
    expect(onTerminal({ NO_COLOR: '1' }).stdout).not.toContain('\x1b[');
    expect(onTerminal({ TERM: 'dumb' }).stdout).not.toContain('\x1b[');
    expect(onTerminal({ FORCE_COLOR: 'false' }).stdout).not.toContain('\x1b[');
    expect(onTerminal({}).code).toBe(1);
  });
});

describe.concurrent('cfrules validate: --quiet', { timeout: 30_000 }, () => {
  it('prints errors only, without the summary', async () => {
    expect(await validate(['--quiet', 'ssl'])).toMatchObject({ code: 0, stdout: '' });
    const result = await validate(['-q', 'ssl', 'ssl and']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      '<expression 2>:1:8: error[expected-identifier]\nFilter parsing error (1:8):\nssl and\n       ^ expected identifier character\n',
    );
  });
});

describe.concurrent('cfrules validate: usage errors (exit 2, nothing checked, no stack trace)', {
  timeout: 30_000,
}, () => {
  const usageError = async (args: string[], message: string | RegExp, stdin?: string) => {
    const result = await validate(args, { stdin });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const [first, second] = result.stderr.split('\n');
    if (typeof message === 'string') expect(first).toBe(`cfrules validate: ${message}`);
    else expect(first).toMatch(message);
    expect(second).toBe("Run 'cfrules validate --help' for usage.");
  };

  it('rejects a missing input and unknown options', async () => {
    await usageError(
      [],
      'no expression given: pass expressions, -e EXPR, --file PATH, or - for standard input',
    );
    // The CLI's own words, not Node's option parser's ("as in '-- \"--bogus\"'").
    await usageError(['--bogus', 'ssl'], "unknown option '--bogus'");
    await usageError(['--formt', 'json', 'ssl'], "unknown option '--formt'; did you mean --format?");
    await usageError(['-x', 'ssl'], "unknown option '-x'");
    await usageError(['ssl', '--plan'], 'option --plan needs a value');
    await usageError(['--quiet=yes', 'ssl'], 'option --quiet takes no value');
  });

  it('rejects bad option values, listing the valid ones', async () => {
    await usageError(
      ['--plan', 'gold', 'ssl'],
      "unknown plan 'gold': expected one of free, pro, business, enterprise",
    );
    await usageError(
      ['--phase', 'http_request_nope', 'ssl'],
      /^cfrules validate: unknown phase 'http_request_nope': expected one of firewall_rules, .*http_request_firewall_custom/,
    );
    await usageError(
      ['--format', 'xml', 'ssl'],
      "unknown format 'xml': expected one of text, json, github, sarif",
    );
    await usageError(['--max-warnings', 'many', 'ssl'], "--max-warnings expects a whole number, got 'many'");
    await usageError(['--max-warnings=-1', 'ssl'], "--max-warnings expects a whole number, got '-1'");
    await usageError(['--max-length', '0', 'ssl'], "--max-length expects a positive whole number, got '0'");
    await usageError(
      ['--list', 'office', 'ssl'],
      "--list expects NAME=KIND with KIND one of ip, hostname, asn, got 'office'",
    );
    await usageError(
      ['--list', 'office=ips', 'ssl'],
      "--list expects NAME=KIND with KIND one of ip, hostname, asn, got 'office=ips'",
    );
  });

  it('accepts plan and phase names in any case, and the phase aliases', async () => {
    expect(
      (await validate(['--plan', 'Business', '--phase', 'HTTP_REQUEST_FIREWALL_CUSTOM', 'ssl'])).code,
    ).toBe(0);
    expect((await report(['--phase', 'filters', 'ssl'])).json.results[0].phase).toBe('firewall_rules');
  });

  it('rejects unreadable files before checking anything', async () => {
    await usageError(
      ['ssl and', '-f', 'test/cli/fixtures/missing.txt'],
      'cannot read test/cli/fixtures/missing.txt: no such file',
    );
    // A directory is read for -f (see ci-formats.test.ts) and for the arguments of validate and fmt
    // (terraform.test.ts), not for those of parse.
    const directory = await cfrules(['parse', 'test/cli/fixtures']);
    expect(directory.code).toBe(2);
    expect(directory.stderr).toContain('cannot read test/cli/fixtures: is a directory');
  });

  it('rejects malformed JSON and JSON of another shape, saying what was expected', async () => {
    await usageError(
      ['-f', '-'],
      /^cfrules validate: <stdin> is not valid JSON: .*\(line 2, column \d+\)$|^cfrules validate: <stdin> is not valid JSON: .*line 2/,
      '[\n{"id": 1,}]',
    );
    await usageError(
      ['-f', '-'],
      /^cfrules validate: <stdin>: unrecognised JSON: expected an array of filters .* a ruleset .*"result"/,
      '{"zone": "example.com"}',
    );
    await usageError(
      ['-f', '-'],
      /^cfrules validate: <stdin>: item #2 is not an object;/,
      '[{"expression": "ssl"}, 3]',
    );
    await usageError(
      ['-f', '-'],
      /^cfrules validate: <stdin>: item #1 has neither "expression" nor "filter"/,
      '[{"id": "x"}]',
    );
    await usageError(
      ['-f', fixture('rule-without-expression.json')],
      /the filter of firewall rule 1f2e3d4c5b6a79880716253443526170 has no "expression" string$/,
    );
    await usageError(
      ['-f', '-'],
      '<stdin>: rule #1 of the ruleset has no "expression" string',
      '{"phase": "http_request_firewall_custom", "rules": [{"action": "block"}]}',
    );
    await usageError(
      ['-f', fixture('failed-response.json')],
      /the API response reports a failure: .*Authentication error/,
    );
  });

  it('reads standard input only once', async () => {
    await usageError(['-', '-f', '-'], 'standard input can be read only once (- was given twice)', 'ssl');
  });
});

// The checks below depend on the checker (types, catalogue, plans, phases, lints) in src/check/validate.ts.
describe.concurrent('cfrules validate: checker results', { timeout: 30_000 }, () => {
  it('reports an unknown field', async () => {
    const result = await validate(['http.hots eq "a"']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^<expression>:1:1: error\[[a-z-]+\]\nFilter parsing error \(1:1\):\nhttp.hots eq "a"\n\^+ unknown identifier\n/,
    );
  });

  it('applies --plan: matches needs Business or Enterprise', async () => {
    const expression = 'http.host matches "^www\\."';
    const free = await validate(['--plan', 'free', expression]);
    expect(free.code).toBe(1);
    expect(free.stdout).toMatch(/^<expression>:1:\d+: error\[/);
    expect((await validate(['--plan', 'business', expression])).code).toBe(0);
    expect((await validate(['--plan', 'enterprise', expression])).code).toBe(0);
    expect((await validate([expression])).code).toBe(0); // no plan, no plan restriction
  });

  it('applies --phase: body fields do not exist in Transform Rules', async () => {
    const expression = 'http.request.body.raw contains "password"';
    expect((await validate(['--phase', 'http_request_firewall_custom', expression])).code).toBe(0);
    const transform = await validate(['--phase', 'http_request_transform', expression]);
    expect(transform.code).toBe(1);
    expect(transform.stdout).toMatch(/^<expression>:1:1: error\[/);
  });

  it('reports a deprecated field as a warning, which does not fail by default', async () => {
    const result = await validate(['ip.geoip.country eq "GB"']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^<expression>:1:1: warning\[deprecated-field\]\nFilter warning \(1:1\):\n/,
    );
    expect(summaryOf(result.stdout)).toBe('1 expression checked: 1 valid, 0 invalid, 1 warning');
    expect((await report(['ip.geoip.country eq "GB"'])).json.summary).toMatchObject({
      valid: 1,
      warnings: 1,
    });
    const github = await validate(['--format', 'github', '-f', fixture('checks.txt')]);
    expect(github.stdout).toContain(
      '::warning file=test/cli/fixtures/checks.txt,line=3,col=1,endLine=3,endColumn=17,title=cfrules deprecated-field::',
    );
  });

  it('fails with --max-warnings when the warnings exceed it', async () => {
    const expression = 'ip.geoip.country eq "GB"';
    const over = await validate(['--max-warnings', '0', expression]);
    expect(over.code).toBe(1);
    expect(
      over.stdout.endsWith(
        '1 expression checked: 1 valid, 0 invalid, 1 warning\ntoo many warnings: 1, more than --max-warnings 0\n',
      ),
    ).toBe(true);
    expect((await validate(['--max-warnings', '1', expression])).code).toBe(0);
    expect((await report(['--max-warnings', '0', expression])).json).toMatchObject({
      ok: false,
      summary: { maxWarnings: 0, warnings: 1 },
    });
    // --quiet hides the warning, not the reason for the failure
    expect(await validate(['--quiet', '--max-warnings', '0', expression])).toMatchObject({
      code: 1,
      stdout: 'too many warnings: 1, more than --max-warnings 0\n',
    });
  });

  it('turns lints off with --no-lint and --disable-lint', async () => {
    const expression = 'ip.geoip.country eq "GB"';
    expect(summaryOf((await validate([expression])).stdout)).toMatch(/1 warning$/);
    expect((await validate(['--no-lint', expression])).stdout).toBe(
      '1 expression checked: 1 valid, 0 invalid, 0 warnings\n',
    );
    expect((await validate(['--disable-lint', 'deprecated-field', expression])).stdout).toBe(
      '1 expression checked: 1 valid, 0 invalid, 0 warnings\n',
    );
    expect(summaryOf((await validate(['--disable-lint', 'case-mismatch', expression])).stdout)).toMatch(
      /1 warning$/,
    );
    const unsupported = 'http.host matches "[a-z&&[^aeiou]]"';
    expect(summaryOf((await validate([unsupported])).stdout)).toMatch(/1 warning$/);
    expect((await validate(['--disable-lint', 'regex-unsupported', unsupported])).stdout).toBe(
      '1 expression checked: 1 valid, 0 invalid, 0 warnings\n',
    );
    const typo = await validate(['--disable-lint', 'deprecated-fields', expression]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(
      /^cfrules validate: unknown lint 'deprecated-fields': expected one of deprecated-field, /,
    );
  });

  it('checks a text file with the checker, line by line', async () => {
    const result = await validate(['--plan', 'free', '-f', fixture('checks.txt')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^test\/cli\/fixtures\/checks.txt:2:1: error\[/m);
    expect(result.stdout).toMatch(/^test\/cli\/fixtures\/checks.txt:3:1: warning\[deprecated-field\]/m);
    expect(result.stdout).toMatch(/^test\/cli\/fixtures\/checks.txt:4:\d+: error\[/m);
    expect(summaryOf(result.stdout)).toBe('3 expressions checked: 1 valid, 2 invalid, 1 warning');
  });

  it('checks rewrite expressions with --rewrite', async () => {
    const rewrite = 'concat("/new", http.request.uri.path)';
    expect((await validate(['--rewrite', '--phase', 'http_request_transform', rewrite])).code).toBe(0);
    expect((await validate(['--phase', 'http_request_transform', rewrite])).code).toBe(1); // not a condition
  });

  it('knows custom lists declared with --list', async () => {
    expect((await validate(['--list', 'office=ip', 'ip.src in $office'])).code).toBe(0);
    expect((await validate(['--list', '$office=ip', 'ip.src in $office'])).code).toBe(0);
    expect((await validate(['--list', 'office=hostname', 'ip.src in $office'])).code).toBe(1);
  });

  it('prints messages that span several lines (regex errors) in full', async () => {
    const args = ['--plan', 'business', 'http.host matches "a(b"'];
    const { json } = await report(args);
    const message: string = json.results[0].diagnostics[0].message;
    expect(message.split('\n').length).toBeGreaterThan(1);
    const text = await validate(args);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`^^^ ${message}\n\n1 expression checked`);
  });

  it('applies --max-length', async () => {
    expect((await validate(['--max-length', '100', 'http.host eq "example.com"'])).code).toBe(0);
    expect((await validate(['--max-length', '10', 'http.host eq "example.com"'])).code).toBe(1);
  });
});

describe.concurrent('cfrules fmt --check (built binary)', { timeout: 30_000 }, () => {
  it('exits 1 for unformatted input and 0 for formatted input', async () => {
    expect(await cfrules(['fmt', '--check', '-'], { stdin: 'a&&b\n' })).toEqual({
      code: 1,
      stdout: '',
      stderr: '<stdin>: not formatted\n',
    });
    expect(await cfrules(['fmt', '--check', '-'], { stdin: 'a and b\n' })).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
    expect((await cfrules(['fmt', '--check', 'examples/expressions/bad-bots.txt'])).code).toBe(0);
    expect((await cfrules(['fmt', '--check', 'examples/expressions/api-keys.txt'])).code).toBe(1);
  });
});

describe('cfrules validate: inputs without expressions', () => {
  // A rules file emptied by mistake must not let a CI job pass on nothing.
  const empties: [string, Record<string, string>, string][] = [
    ['an empty file', { 'rules.txt': '' }, ''],
    ['white space', { 'rules.txt': ' \n\t\n' }, ''],
    ['comments only', { 'rules.txt': '# nothing yet\n' }, ''],
    ['an empty JSON array', { 'rules.txt': '[]' }, ''],
  ];
  for (const [what, files] of empties) {
    it(`fails on ${what}, saying so, unless --allow-empty`, () => {
      const result = runInProcess(['validate', '-f', 'rules.txt'], files);
      expect(result).toMatchObject({ code: 1, stderr: '' });
      expect(result.stdout).toBe(
        'rules.txt: error[empty-input]: no expression in this input (--allow-empty accepts that)\n\n' +
          '0 expressions checked: 0 valid, 0 invalid, 0 warnings\n',
      );
      const allowed = runInProcess(['validate', '--allow-empty', '-f', 'rules.txt'], files);
      expect(allowed.code).toBe(0);
      expect(allowed.stdout).toMatch(/^rules.txt: warning\[empty-input\]: /);
    });
  }

  it('fails on a closed standard input, and says which input of several was empty', () => {
    const stdin = runInProcess(['validate', '-f', '-'], {}, '');
    expect(stdin.code).toBe(1);
    expect(stdin.stdout).toMatch(/^<stdin>: error\[empty-input\]/);
    const files = { 'a.txt': 'ssl\n', 'b.txt': '# later\n' };
    const two = runInProcess(['validate', '-f', 'a.txt', '-f', 'b.txt'], files);
    expect(two.code).toBe(1);
    expect(two.stdout).toMatch(/^b.txt: error\[empty-input\]/);
  });

  it('reports empty inputs in JSON and GitHub annotations too', () => {
    const files = { 'rules.txt': '' };
    const json = JSON.parse(runInProcess(['validate', '--format', 'json', '-f', 'rules.txt'], files).stdout);
    expect(json).toMatchObject({
      ok: false,
      summary: { expressions: 0, emptyInputs: ['rules.txt'], allowEmpty: false },
    });
    expect(runInProcess(['validate', '--format', 'github', '-f', 'rules.txt'], files).stdout).toBe(
      '::error file=rules.txt,title=cfrules empty-input::no expression in this input (--allow-empty accepts that)\n' +
        '0 expressions checked: 0 valid, 0 invalid, 0 warnings\n',
    );
  });
});
