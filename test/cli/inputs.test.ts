// fmt and parse read what validate reads: text files of expressions (# comments) and the Cloudflare API's
// JSON, through --file or (JSON) as a FILE argument. fmt rewrites each expression in place.
import { describe, expect, it } from 'vitest';
import { run } from './in-process.js';

const ruleset = `{
  "phase": "http_request_firewall_custom",
  "rules": [
    { "id": "a", "expression": "ssl&&http.host==\\"example.com\\"", "action": "block" },
    { "id": "b", "expression": "not ssl", "action": "log" }
  ]
}
`;

const textRules =
  '# the login page\nhttp.request.uri.path eq "/login"   and not ssl\n\n# any TLS\nssl||true\n';

describe('fmt and parse read rules files', () => {
  it('fmt prints a JSON rules file with each expression in canonical form, the rest untouched', () => {
    const expected = ruleset.replace(
      'ssl&&http.host==\\"example.com\\"',
      'ssl and http.host eq \\"example.com\\"',
    );
    for (const argv of [
      ['fmt', 'rules.json'],
      ['fmt', '-f', 'rules.json'],
    ])
      expect(run(argv, { 'rules.json': ruleset })).toMatchObject({ code: 0, stdout: expected, stderr: '' });
  });

  it('fmt -w rewrites the expressions of a rules file in place; --check names each unformatted one', () => {
    const files = { 'rules.json': ruleset, 'rules.txt': textRules };
    const check = run(['fmt', '--check', '-f', 'rules.json', '-f', 'rules.txt'], files);
    expect(check.code).toBe(1);
    expect(check.stderr).toBe(
      'rules.json:4:33: not formatted (rule a)\n' +
        'rules.txt:2:1: not formatted\n' +
        'rules.txt:5:1: not formatted\n',
    );
    expect(run(['fmt', '-w', '-f', 'rules.json', '-f', 'rules.txt'], files)).toMatchObject({
      code: 0,
      stdout: '',
    });
    expect(JSON.parse(files['rules.json']).rules.map((r: { expression: string }) => r.expression)).toEqual([
      'ssl and http.host eq "example.com"',
      'not ssl',
    ]);
    expect(files['rules.txt']).toBe(
      '# the login page\nhttp.request.uri.path eq "/login" and not ssl\n\n# any TLS\nssl or true\n',
    );
    expect(run(['fmt', '--check', '-f', 'rules.json', '-f', 'rules.txt'], files)).toMatchObject({
      code: 0,
      stderr: '',
    });
  });

  it('fmt leaves a rules file with a syntax error as it is, and reports the error where validate does', () => {
    const files = { 'rules.txt': 'ssl&&true\ntcp.dstport in {80, 443}\n' };
    const result = run(['fmt', '-w', '-f', 'rules.txt'], files);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^rules.txt:2:19: error\[comma-in-set\]\n/);
    expect(files['rules.txt']).toBe('ssl&&true\ntcp.dstport in {80, 443}\n');
    expect(run(['validate', '-f', 'rules.txt'], files).stdout).toMatch(
      /^rules.txt:2:19: error\[comma-in-set\]\n/,
    );
  });

  it('parse prints one tree per expression of a rules file', () => {
    const result = run(['parse', '-f', 'rules.txt'], { 'rules.txt': textRules });
    expect(result.code).toBe(0);
    const trees = result.stdout.split(/\n(?=\{)/).map((text) => JSON.parse(text));
    expect(trees.map((tree) => tree.kind)).toEqual(['logical', 'logical']);
  });

  it('says how to read a text file of several expressions when it was read as one', () => {
    const result = run(['fmt', 'rules.txt'], { 'rules.txt': textRules });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /\ncfrules fmt: note: rules.txt was read as one expression; for a file of expressions, one per line, use --file rules.txt\n$/,
    );
  });
});
