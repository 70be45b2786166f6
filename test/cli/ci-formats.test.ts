// The CI formats of `cfrules validate` and `cfrules test` (json, github, junit, sarif): every failure comes out in
// the format asked for, SARIF logs have SARIF 2.1.0's shape, and -f DIR / test DIR read directories. In-process,
// on files written here.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/command.js';
import { filesUnder } from '../../src/cli/files.js';
import { run, runAwaited } from './in-process.js';

type Json = Record<string, unknown>;

/**
 * Checks a SARIF log against what SARIF 2.1.0 requires of the parts cfrules writes (§3.13 sarifLog, §3.14 run,
 * §3.18 tool, §3.19 toolComponent, §3.27 result, §3.28 location, §3.30 region, §3.58 notification) and what
 * GitHub code scanning reads; returns the one run.
 */
function sarifRun(text: string): Json {
  const log = JSON.parse(text);
  expect(log.version).toBe('2.1.0');
  expect(log.$schema).toBe(
    'https://docs.oasis-open.org/sarif/sarif/v2.1.0/os/schemas/sarif-schema-2.1.0.json',
  );
  expect(log.runs).toHaveLength(1);
  const runObject = log.runs[0];
  const driver = runObject.tool.driver;
  expect(driver.name).toBe('cfrules');
  expect(driver.version).toMatch(/^\d+\.\d+\.\d+/);
  const ruleIds = driver.rules.map((rule: Json) => rule.id);
  expect(new Set(ruleIds).size, 'one rule per id').toBe(ruleIds.length);
  for (const rule of driver.rules) {
    expect(typeof rule.id).toBe('string');
    expect((rule.shortDescription as Json).text).toMatch(/^\S/);
  }
  expect(['utf16CodeUnits', 'unicodeCodePoints']).toContain(runObject.columnKind);
  const checkLocation = (location: Json) => {
    const physical = location.physicalLocation as Json;
    const artifact = physical.artifactLocation as Json;
    expect(artifact.uri).toMatch(/^[^/]/); // relative to the working directory
    expect(artifact.uriBaseId).toBe('%SRCROOT%');
    const region = physical.region as Json | undefined;
    if (!region) return;
    expect(region.startLine).toBeGreaterThanOrEqual(1);
    for (const key of ['startColumn', 'endLine', 'endColumn'])
      if (region[key] !== undefined) expect(region[key]).toBeGreaterThanOrEqual(1);
  };
  for (const result of runObject.results) {
    expect(typeof result.message.text).toBe('string');
    expect(['error', 'warning', 'note']).toContain(result.level);
    expect(ruleIds[result.ruleIndex], 'ruleIndex names the rule of ruleId').toBe(result.ruleId);
    for (const location of result.locations ?? []) checkLocation(location);
  }
  expect(runObject.invocations).toHaveLength(1);
  const invocation = runObject.invocations[0];
  expect(typeof invocation.executionSuccessful).toBe('boolean');
  for (const notification of invocation.toolExecutionNotifications ?? []) {
    expect(typeof notification.message.text).toBe('string');
    for (const location of notification.locations ?? []) checkLocation(location);
  }
  return runObject;
}

const locationOf = (result: Json) => (result.locations as Json[])[0]?.physicalLocation as Json;

describe('cfrules validate --format sarif', () => {
  it('one result per finding, in its file, with UTF-16 columns and a rule per code', async () => {
    const line = 'http.host eq "é😀" and xx';
    const files = {
      'rules/a.txt': `# comment\n${line}\nip.geoip.country eq "GB"\n`,
      'rules/b.json': JSON.stringify([{ id: 'f1', expression: 'ssl and' }]),
    };
    const result = await runAwaited(
      ['validate', '--format', 'sarif', '-f', 'rules/a.txt', '-f', 'rules/b.json'],
      files,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    const sarif = sarifRun(result.stdout);
    expect(sarif.columnKind).toBe('utf16CodeUnits');
    const results = sarif.results as Json[];
    expect(results.map((r) => [r.ruleId, r.level])).toEqual([
      ['unknown-identifier', 'error'],
      ['deprecated-field', 'warning'],
      ['expected-identifier', 'error'],
    ]);
    // `xx` is at UTF-8 byte 29 of the line, but at UTF-16 code unit 24: SARIF gets the latter.
    expect(locationOf(results[0] as Json)).toEqual({
      artifactLocation: { uri: 'rules/a.txt', uriBaseId: '%SRCROOT%' },
      region: {
        startLine: 2,
        startColumn: line.indexOf('xx') + 1,
        endLine: 2,
        endColumn: line.indexOf('xx') + 3,
      },
    });
    expect(((results[0] as Json).message as Json).text).toBe('unknown identifier');
    expect(((results[2] as Json).message as Json).text).toBe('filter f1: expected identifier character');
    const rules = ((sarif.tool as Json).driver as Json).rules as Json[];
    expect(rules.map((rule) => rule.id)).toEqual([
      'unknown-identifier',
      'deprecated-field',
      'expected-identifier',
    ]);
    expect(rules[0]?.shortDescription).toEqual({ text: 'Type error: unknown identifier' });
    expect(rules[1]?.shortDescription).toEqual({ text: 'Lint: a deprecated field, with its replacement' });
  });

  it('names the input in the message of expressions given as arguments, which have no file', () => {
    const sarif = sarifRun(run(['validate', '--format', 'sarif', 'http.hots eq "a"']).stdout);
    const result = (sarif.results as Json[])[0] as Json;
    expect(result.locations).toBeUndefined();
    expect((result.message as Json).text).toBe(
      '<expression>:1:1: unknown identifier\nhint: did you mean http.host?',
    );
  });

  it('reports rule objects, empty inputs and too many warnings; nothing but the log when all is valid', async () => {
    const rules = JSON.stringify([{ id: 'r1', action: 'deny', filter: { expression: 'ssl' } }], null, 2);
    const files = {
      'rules.json': rules,
      'empty.txt': '# nothing\n',
      'old.txt': 'ip.geoip.country eq "GB"\n',
    };
    const args = [
      'validate',
      '--format',
      'sarif',
      '--max-warnings',
      '0',
      '-f',
      'rules.json',
      '-f',
      'empty.txt',
    ];
    const result = await runAwaited([...args, '-f', 'old.txt'], files);
    expect(result.code).toBe(1);
    const sarif = sarifRun(result.stdout);
    const results = sarif.results as Json[];
    expect(results.map((r) => r.ruleId)).toEqual(['invalid-action', 'deprecated-field', 'empty-input']);
    expect((locationOf(results[0] as Json).region as Json).startLine).toBe(
      rules.split('\n').findIndex((l) => l.includes('"deny"')) + 1,
    );
    expect(locationOf(results[2] as Json)).toEqual({
      artifactLocation: { uri: 'empty.txt', uriBaseId: '%SRCROOT%' },
    });
    expect((sarif.invocations as Json[])[0]).toEqual({
      executionSuccessful: true,
      toolExecutionNotifications: [
        { level: 'error', message: { text: 'too many warnings: 1, more than --max-warnings 0' } },
      ],
    });
    const valid = run(['validate', '--format', 'sarif', 'ssl']);
    expect(valid.code).toBe(0);
    expect(sarifRun(valid.stdout).results).toEqual([]);
  });
});

describe('cfrules validate: usage errors in the format asked for', () => {
  it('github: an ::error annotation on the file that cannot be read, and nothing else', () => {
    const result = run(['validate', '--format', 'github', '-f', 'rules/missing.txt']);
    expect(result).toMatchObject({
      code: 2,
      stdout:
        '::error file=rules/missing.txt,title=cfrules validate::cannot read rules/missing.txt: no such file\n',
      stderr: '',
    });
  });

  it('github: malformed JSON at its line and column; an option mistake without a file', () => {
    const json = run(['validate', '--format=GitHub', '-f', 'rules.json'], {
      'rules.json': '[\n  {"id": 1,}\n]',
    });
    expect(json.code).toBe(2);
    expect(json.stdout).toMatch(
      /^::error file=rules\.json,line=2,col=\d+,title=cfrules validate::rules\.json is not valid JSON: /,
    );
    expect(run(['validate', '--format', 'github', '--plan', 'gold', 'ssl']).stdout).toBe(
      "::error title=cfrules validate::unknown plan 'gold': expected one of free, pro, business, enterprise\n",
    );
  });

  it('json: the error object names the file', () => {
    const result = run(['validate', '--format', 'json', '-f', 'missing.txt']);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toEqual({
      ok: false,
      error: { kind: 'usage', message: 'cannot read missing.txt: no such file', file: 'missing.txt' },
    });
  });

  it('sarif: a failed run with the error as a notification on the file, and the text on standard error', () => {
    const files = { 'rules.json': '{"result": [], "success": false}' };
    const result = run(['validate', '--format', 'sarif', '-f', 'rules.json'], files);
    expect(result.code).toBe(2);
    const sarif = sarifRun(result.stdout);
    expect(sarif.results).toEqual([]);
    const [invocation] = sarif.invocations as Json[];
    expect(invocation?.executionSuccessful).toBe(false);
    expect(invocation?.toolExecutionNotifications).toEqual([
      {
        level: 'error',
        message: { text: expect.stringMatching(/^rules\.json: /) },
        locations: [
          { physicalLocation: { artifactLocation: { uri: 'rules.json', uriBaseId: '%SRCROOT%' } } },
        ],
      },
    ]);
    expect(result.stderr).toMatch(
      /^cfrules validate: rules\.json: .*\nRun 'cfrules validate --help' for usage\.\n$/,
    );
  });

  it('stays text when the format itself is unknown or missing its value', () => {
    for (const args of [
      ['--format', 'junit', '-f', 'missing.txt'],
      ['-f', 'missing.txt', '--format'],
    ]) {
      const result = run(['validate', ...args]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^cfrules validate: /);
    }
  });
});

const zone = JSON.stringify({
  firewall_rules: [
    {
      id: 'r1',
      ref: 'admin-block',
      action: 'block',
      filter: { expression: 'http.request.uri.path eq "/admin"' },
    },
  ],
});
const testFile = (action: string) => `zone: zone.json
tests:
  - name: admin is closed
    request: { url: "https://example.com/admin" }
    expect: { action: ${action} }
`;

describe('cfrules test: failures in the CI formats', () => {
  it('sarif: a failing case is an error result at its line in the test file', () => {
    const result = run(['test', '--format', 'sarif', 't/admin.test.yaml'], {
      't/zone.json': zone,
      't/admin.test.yaml': testFile('allow'),
    });
    expect(result.code).toBe(1);
    const sarif = sarifRun(result.stdout);
    expect(sarif.results).toEqual([
      {
        ruleId: 'test-failed',
        ruleIndex: 0,
        level: 'error',
        message: { text: 'admin is closed: action: expected allow, got block (by admin-block)' },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: 't/admin.test.yaml', uriBaseId: '%SRCROOT%' },
              region: { startLine: 3 },
            },
          },
        ],
      },
    ]);
    const passing = run(['test', '--format', 'sarif', 't/admin.test.yaml'], {
      't/zone.json': zone,
      't/admin.test.yaml': testFile('block'),
    });
    expect(passing.code).toBe(0);
    expect(sarifRun(passing.stdout).results).toEqual([]);
  });

  it('junit: a test file that cannot be read is a testcase in error, and the log still says why', () => {
    const result = run(['test', '--format', 'junit', 't/missing.test.yaml']);
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="cfrules test" tests="1" failures="0" errors="1"/,
    );
    expect(result.stdout).toContain(
      '<error type="usage" message="cannot read t/missing.test.yaml: no such file">',
    );
    expect(result.stderr).toContain('cfrules test: cannot read t/missing.test.yaml: no such file');
  });

  const brokenZone = {
    't/zone.json': '{"firewall_rules": [{"id": "r1", "acton": "block"}]}',
    't/admin.test.yaml': testFile('block'),
  };

  it('junit: an invalid zone is an error testcase in the zone file, although no case ran', () => {
    const result = run(['test', '--format', 'junit', 't/admin.test.yaml'], { ...brokenZone });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('<testsuites name="cfrules test" tests="');
    expect(result.stdout).toMatch(
      /<testsuite name="t\/zone\.json" tests="\d+" failures="0" errors="\d+" skipped="0">/,
    );
    expect(result.stdout).toMatch(
      /<testcase name="\/firewall_rules\/0[^"]*" classname="t\/zone\.json" file="t\/zone\.json" line="1">\n\s+<error type="invalid-input"/,
    );
    expect(result.stdout).toMatch(/<\/testsuites>\n$/);
  });

  it('github, json and sarif carry the problems too; text leaves them to standard error', () => {
    const github = run(['test', '--format', 'github', 't/admin.test.yaml'], { ...brokenZone });
    expect(github.code).toBe(2);
    expect(github.stdout).toMatch(
      /^::error file=t\/zone\.json,line=1,title=cfrules test::\/firewall_rules\/0/,
    );
    expect(github.stdout).toContain('::notice title=cfrules test::0 passed, 0 failed');
    expect(github.stderr).toBe('');
    const json = run(['test', '--format', 'json', 't/admin.test.yaml'], { ...brokenZone });
    expect(JSON.parse(json.stdout)).toMatchObject({
      passed: 0,
      failed: 0,
      problems: expect.arrayContaining([
        expect.objectContaining({ file: 't/zone.json', line: 1, pointer: '/firewall_rules/0/acton' }),
      ]),
      cases: [],
    });
    const sarif = sarifRun(run(['test', '--format', 'sarif', 't/admin.test.yaml'], { ...brokenZone }).stdout);
    expect((sarif.results as Json[]).map((r) => r.ruleId)).toContain('invalid-input');
    const text = run(['test', 't/admin.test.yaml'], { ...brokenZone });
    expect(text.stdout).toBe('');
    expect(text.stderr).toMatch(/^cfrules test: t\/zone\.json:1:21: \/firewall_rules\/0/);
  });
});

describe('directories', () => {
  const tree = {
    'rules/b.txt': 'http.hots eq "b"\n',
    'rules/a/z.json': JSON.stringify([{ id: 'z', expression: 'http.hots eq "z"' }]),
    'rules/a/y.TXT': 'http.hots eq "y"\n',
    'rules/a/notes.md': 'not rules\n',
    'rules/node_modules/x.txt': 'http.hots eq "x"\n',
    'rules/.cache/x.txt': 'http.hots eq "x"\n',
  };

  it('validate -f DIR checks its .txt and .json files at any depth, in sorted order', async () => {
    const result = await runAwaited(['validate', '-f', 'rules/', '--format', 'json'], { ...tree });
    expect(result.code).toBe(1);
    const sources = JSON.parse(result.stdout).results.map((r: Json) => r.source);
    expect(sources).toEqual(['rules/a/y.TXT', 'rules/a/z.json', 'rules/b.txt']);
  });

  it('validate -f DIR without such a file is an empty input: an error, or a warning with --allow-empty', () => {
    const files = { 'rules/notes.md': 'x\n' };
    const strict = run(['validate', '-f', 'rules'], { ...files });
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/^rules: error\[empty-input\]/);
    expect(run(['validate', '--allow-empty', '-f', 'rules'], { ...files }).code).toBe(0);
  });

  it('fmt -f DIR --write rewrites each file; a directory without rules files is a usage error', () => {
    const files: Record<string, string> = {
      'rules/a.txt': 'ssl  and  ( not ssl )\n',
      'rules/b/c.txt': 'ssl\n',
    };
    expect(run(['fmt', '-w', '-f', 'rules'], files).code).toBe(0);
    expect(files['rules/a.txt']).toBe('ssl and not ssl\n');
    expect(files['rules/b/c.txt']).toBe('ssl\n');
    const empty = run(['fmt', '-f', 'docs'], { 'docs/readme.md': 'x' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe(
      "cfrules fmt: docs holds no .txt, .cfrules, .json or .tf file\nRun 'cfrules fmt --help' for usage.\n",
    );
  });

  it('test DIR runs its test files in sorted order, skipping node_modules and dot-directories', () => {
    // The zone is outside the directory: every .json file in it would be read as a test file.
    const files = {
      'zones/zone.json': zone,
      't/b.test.yaml': testFile('block').replace('zone.json', '../zones/zone.json'),
      't/a/c.test.yaml': testFile('block').replace('zone.json', '../../zones/zone.json'),
      't/node_modules/d.test.yaml': testFile('allow'),
      't/.git/e.test.yaml': testFile('allow'),
    };
    const result = run(['test', 't', '--format', 'json'], files);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).cases.map((c: Json) => c.file)).toEqual([
      't/a/c.test.yaml',
      't/b.test.yaml',
    ]);
  });

  it('a directory that contains itself (a symbolic link to a parent) is a usage error, not a crash', () => {
    // Every directory holds `up`, a directory: what a link to `..` looks like to a walker that follows links.
    const io = { listDirectory: () => ['up'] } as unknown as Parameters<typeof filesUnder>[0];
    expect(() => filesUnder(io, 'rules', ['.txt'])).toThrowError(UsageError);
    expect(() => filesUnder(io, 'rules', ['.txt'])).toThrowError(
      /^cannot read rules(\/up){65}: more than 64 directories deep \(a symbolic link to a parent directory\?\)$/,
    );
  });

  it('test DIR without a test file fails unless --allow-empty, in the format asked for', () => {
    const files = { 't/readme.md': 'x' };
    const text = run(['test', 't'], { ...files });
    expect(text.code).toBe(1);
    expect(text.stderr).toBe(
      'cfrules test: t: error[empty-input]: no test file in this input (--allow-empty accepts that)\n',
    );
    const github = run(['test', '--format', 'github', 't'], { ...files });
    expect(github.code).toBe(1);
    expect(github.stdout).toContain(
      '::error file=t,title=cfrules test::no test file in this input (--allow-empty accepts that)\n',
    );
    expect(github.stderr).toBe('');
    const json = run(['test', '--format', 'json', 't'], { ...files });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ passed: 0, failed: 0, emptyDirectories: ['t'] });
    const allowed = run(['test', '--format', 'github', '--allow-empty', 't'], { ...files });
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('::warning file=t,title=cfrules test::');
  });
});
