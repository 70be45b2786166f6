import { describe, expect, it } from 'vitest';
import { run } from './in-process.js';
import { cfrules } from './run-binary.js';

// `cfrules test`: rule test files against a zone, in-process on small zones written here, and the example
// test file with the built binary (so that the README's walkthrough stays true).

const zone = {
  plan: 'enterprise',
  firewall_rules: [
    {
      id: 'a1000000000000000000000000000001',
      ref: 'office-allow',
      action: 'allow',
      priority: 1,
      filter: { expression: 'ip.src in {192.0.2.0/24}' },
    },
    {
      id: 'a1000000000000000000000000000002',
      ref: 'admin-block',
      action: 'block',
      priority: 2,
      filter: { expression: 'starts_with(http.request.uri.path, "/admin")' },
    },
    {
      id: 'a1000000000000000000000000000003',
      ref: 'post-log',
      action: 'log',
      filter: { expression: 'http.request.method eq "POST"' },
    },
  ],
};

const files = (testFile: string, extra: Record<string, string> = {}) => ({
  'tests/zone.json': JSON.stringify(zone),
  'tests/rules.test.yaml': testFile,
  ...extra,
});

const passing = `zone: zone.json
tests:
  - name: office reaches admin
    request: { method: GET, url: "https://example.com/admin", clientIp: "192.0.2.5" }
    expect: { action: allow, by: office-allow, not_fired: [admin-block] }
  - name: others do not
    request: { method: POST, url: "https://example.com/admin/x", clientIp: "203.0.113.1" }
    expect: { action: block, by: a1000000000000000000000000000002 }
`;

const failing = `zone: zone.json
tests:
  - name: office reaches admin
    request: { method: GET, url: "https://example.com/admin", clientIp: "192.0.2.5" }
    expect: { action: allow }
  - name: wrong expectation
    request: { method: POST, url: "https://example.com/admin", clientIp: "203.0.113.1" }
    expect:
      action: allow
      by: office-allow
      fired: [post-log]
      not_fired: [admin-block]
`;

describe('cfrules test', () => {
  it('passes when every expectation holds, and says how many', () => {
    const result = run(['test', 'tests/rules.test.yaml'], files(passing));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('PASS office reaches admin');
    expect(result.stdout).toMatch(/2 passed, 0 failed\n$/);
  });

  it('warns on standard error about rules it cannot simulate; the cases still run', () => {
    const withTransform = {
      ...zone,
      rulesets: [
        {
          id: 'transform',
          kind: 'zone',
          phase: 'http_request_dynamic_redirect',
          rules: [
            {
              id: 'bulk-redirect',
              action: 'redirect',
              expression: 'true',
              action_parameters: { from_list: { name: 'moved', key: 'http.request.full_uri' } },
            },
          ],
        },
      ],
    };
    const result = run(
      ['test', 'tests/rules.test.yaml'],
      files(passing, { 'tests/zone.json': JSON.stringify(withTransform, null, 2) }),
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /^cfrules test: warning: tests\/zone\.json:\d+:\d+: \/rulesets\/0\/rules\/0\/action_parameters\/from_list: the entries of the Bulk Redirect list moved are not part of the zone file/,
    );
    expect(result.stdout).toMatch(/2 passed, 0 failed\n$/);
  });

  it('fails a case with every difference, and exits 1', () => {
    const result = run(['test', 'tests/rules.test.yaml'], files(failing));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('FAIL wrong expectation');
    expect(result.stdout).toContain('action: expected allow, got block (by admin-block)');
    expect(result.stdout).toContain('by: expected office-allow, got admin-block');
    // post-log has no priority: it runs after admin-block, which ended the evaluation.
    expect(result.stdout).toContain('fired: expected post-log to match; it did not');
    expect(result.stdout).toContain('not_fired: admin-block matched');
    expect(result.stdout).toContain('(tests/rules.test.yaml:6)');
    expect(result.stdout).toMatch(/1 passed, 1 failed\n$/);
  });

  it('--show-failures-only leaves passing cases out', () => {
    const result = run(['test', '--show-failures-only', 'tests/rules.test.yaml'], files(failing));
    expect(result.stdout).not.toContain('office reaches admin');
    expect(result.stdout).toContain('wrong expectation');
  });

  it('writes JSON with the counts and every case', () => {
    const result = run(['test', '--format', 'json', 'tests/rules.test.yaml'], files(failing));
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ passed: 1, failed: 1 });
    expect(report.cases[1]).toMatchObject({
      name: 'wrong expectation',
      passed: false,
      got: { action: 'block', by: 'admin-block', fired: ['admin-block'] },
    });
  });

  it('writes JUnit XML, one testcase per case', () => {
    const result = run(['test', '--format', 'junit', 'tests/rules.test.yaml'], files(failing));
    expect(result.stdout).toContain(
      '<testsuite name="tests/rules.test.yaml" tests="2" failures="1" skipped="0">',
    );
    expect(result.stdout).toContain('<testcase name="office reaches admin"');
    expect(result.stdout).toMatch(/<failure message="action: expected allow, got block \(by admin-block\);/);
  });

  it('annotates failing cases for GitHub at their line', () => {
    const result = run(['test', '--format', 'github', 'tests/rules.test.yaml'], files(failing));
    expect(result.stdout).toMatch(
      /^::error file=tests\/rules\.test\.yaml,line=6,title=cfrules test%3A wrong expectation::action: expected allow/m,
    );
    expect(result.stdout).toContain('::notice title=cfrules test::1 passed, 1 failed');
  });

  it('reads JSON test files, inline zones and request files beside the test file', () => {
    const testFile = JSON.stringify({
      zone,
      tests: [{ name: 'from a file', request: 'requests/admin.json', expect: { action: 'block' } }],
    });
    const result = run(['test', 'suite/t.json'], {
      'suite/t.json': testFile,
      'suite/requests/admin.json': JSON.stringify({ url: 'https://example.com/admin' }),
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('runs every test file under a directory, and fails on a directory without one unless --allow-empty', () => {
    const testFile = JSON.stringify({
      zone,
      tests: [{ name: 'admin', request: { url: 'https://example.com/admin' }, expect: { action: 'block' } }],
    });
    const suite = { 'suite/a/t.json': testFile, 'suite/b.yml': testFile, 'notes/README.md': 'no tests here' };
    const found = run(['test', 'suite'], suite);
    expect(found.code).toBe(0);
    expect(found.stdout).toMatch(/2 passed, 0 failed\n$/);
    const empty = run(['test', 'suite', 'notes'], suite);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toBe(
      'cfrules test: notes: error[empty-input]: no test file in this input (--allow-empty accepts that)\n',
    );
    expect(empty.stdout).toMatch(/2 passed, 0 failed\n$/);
    const allowed = run(['test', '--allow-empty', 'notes'], suite);
    expect(allowed.code).toBe(0);
    expect(allowed.stderr).toBe(
      'cfrules test: notes: warning[empty-input]: no test file in this input (--allow-empty accepts that)\n',
    );
    expect(allowed.stdout).toMatch(/0 passed, 0 failed\n$/);
  });

  it('leaves alone the zone and request files kept beside the tests in a directory', () => {
    const testFile = JSON.stringify({
      zone: 'zone.json',
      tests: [{ name: 'admin', request: 'admin.json', expect: { action: 'block' } }],
    });
    const suite = {
      'suite/zone.json': JSON.stringify(zone),
      'suite/admin.json': JSON.stringify({ url: 'https://example.com/admin' }),
      'suite/admin.test.json': testFile,
      'only-zone/zone.json': JSON.stringify(zone),
    };
    const found = run(['test', 'suite'], suite);
    expect(found.stderr).toBe('');
    expect(found.code).toBe(0);
    expect(found.stdout).toMatch(/1 passed, 0 failed\n$/);
    // Named on the command line, a file is a test file whatever it holds.
    expect(run(['test', 'suite/zone.json'], suite).code).toBe(2);
    expect(run(['test', 'only-zone'], suite).stderr).toContain('error[empty-input]: no test file');
  });

  describe('bad input: exit 2, with file, line, column, case and JSON path', () => {
    it('an unknown key in an expectation, with the key it may stand for', () => {
      const result = run(['test', 'tests/rules.test.yaml'], files(passing.replace('not_fired', 'not_fire')));
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        'cfrules test: tests/rules.test.yaml:5:48: case "office reaches admin": /tests/0/expect/not_fire: unknown key \'not_fire\'; did you mean not_fired? (known: action, by, fired, not_fired, redirect, url, headers, settings, response)\n',
      );
    });

    it('a rule name the zone does not have, at its key in the case', () => {
      const result = run(
        ['test', 'tests/rules.test.yaml'],
        files(passing.replace('by: office-allow', 'by: office-alow')),
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        'cfrules test: tests/rules.test.yaml:5:30: case "office reaches admin": /tests/0/expect/by: no rule of the zone has the id or ref \'office-alow\'\n',
      );
    });

    it('an invalid request, at the key of the bad value', () => {
      const result = run(
        ['test', 'tests/rules.test.yaml'],
        files(passing.replace('method: GET', 'method: 12')),
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        'cfrules test: tests/rules.test.yaml:4:16: case "office reaches admin": /tests/0/request/method: expected a string, got 12\n',
      );
    });

    it('an invalid zone, reported in the zone file at the offending key', () => {
      const broken = { ...zone, firewall_rules: [{ ...zone.firewall_rules[0], acton: 'block' }] };
      const result = run(['test', 'tests/rules.test.yaml'], {
        ...files(passing),
        'tests/zone.json': JSON.stringify(broken, null, 2),
      });
      expect(result.code).toBe(2);
      // Line 12 of the zone file is `      "acton": "block"`: the key is at column 7.
      expect(result.stderr).toMatch(/^cfrules test: tests\/zone\.json:12:7: \/firewall_rules\/0\/acton: /m);
    });

    it('a missing zone file, a file that is not YAML', () => {
      expect(run(['test', 'tests/rules.test.yaml'], { 'tests/rules.test.yaml': passing }).stderr).toContain(
        'tests/rules.test.yaml:1:1: /zone: cannot read tests/zone.json: no such file',
      );
      const notYaml = run(['test', 'tests/rules.test.yaml'], files('zone: [unclosed'));
      expect(notYaml.code).toBe(2);
      expect(notYaml.stderr).toMatch(/tests\/rules\.test\.yaml is not valid YAML \(line \d+\)/);
    });

    it('says what is wrong with a value that is there, apart from one that is missing', () => {
      const stderr = (testFile: string) => run(['test', 'tests/rules.test.yaml'], files(testFile)).stderr;
      expect(stderr(passing.replace('action: allow', 'action: blok'))).toContain(
        '/tests/0/expect/action: unknown action "blok"; did you mean block? (one of block, challenge, js_challenge, managed_challenge, allow, redirect, none)',
      );
      expect(stderr(passing.replace('action: allow', 'action: deny'))).toContain(
        '/tests/0/expect/action: unknown action "deny": one of block, challenge,',
      );
      expect(stderr(passing.replace('action: allow', 'action: 12'))).toContain(
        '/tests/0/expect/action: action must be one of block, challenge, js_challenge, managed_challenge, allow, redirect, none, not 12',
      );
      expect(stderr(passing.replace('action: allow, ', ''))).toContain(
        'tests/rules.test.yaml:5:5: case "office reaches admin": /tests/0/expect/action: action is required: one of block,',
      );
      expect(stderr('zone: zone.json\ntests: []\n')).toBe(
        'cfrules test: tests/rules.test.yaml:2:1: /tests: tests must list at least one test\n',
      );
      expect(stderr('zone: zone.json\n')).toContain(
        '/tests: tests is required: a list of cases, each {name, request, expect}',
      );
      expect(stderr('zone: zone.json\ntests: {name: x}\n')).toContain(
        '/tests: tests must be a list of cases, each {name, request, expect}, not an object',
      );
      expect(stderr(passing.replace('zone: zone.json', 'zone: 3'))).toContain(
        '/zone: zone must be the path of a zone file (relative to this file) or an inline zone, not 3',
      );
      expect(stderr(passing.replace('name: others do not', 'name: ""'))).toContain(
        'case "#1": /tests/1/name: name is empty; it must be a non-empty string',
      );
      expect(stderr(passing.replace('by: office-allow', 'by: [office-allow]'))).toContain(
        '/tests/0/expect/by: by must be the id or ref of a rule, not an array',
      );
      expect(stderr(passing.replace('not_fired: [admin-block]', 'not_fired: [admin-block, 7]'))).toContain(
        '/tests/0/expect/not_fired/1: not_fired lists 7; each entry must be the id or ref of a rule',
      );
    });

    it("reports every mistake of a file in one run: its own, its zone's and its requests', top to bottom", () => {
      const broken = { ...zone, firewall_rules: [{ ...zone.firewall_rules[0], action: 'blokk' }] };
      const testFile = `zone: zone.json
tests:
  - name: first
    request: { method: 12, url: "https://example.com/" }
    expect: { action: blok, not_fire: [admin-block] }
  - request: requests/bad.json
    expect:
      action: allow
      fired: [x, 3]
`;
      const result = run(['test', 'tests/rules.test.yaml'], {
        'tests/rules.test.yaml': testFile,
        'tests/zone.json': JSON.stringify(broken, null, 2),
        'tests/requests/bad.json': '{\n  "url": "https://example.com/",\n  "headres": {}\n}\n',
      });
      expect(result.code).toBe(2);
      expect(result.stderr.split('\n').filter(Boolean)).toEqual([
        'cfrules test: tests/rules.test.yaml:4:16: case "first": /tests/0/request/method: expected a string, got 12',
        'cfrules test: tests/rules.test.yaml:5:15: case "first": /tests/0/expect/action: unknown action "blok"; did you mean block? (one of block, challenge, js_challenge, managed_challenge, allow, redirect, none)',
        'cfrules test: tests/rules.test.yaml:5:29: case "first": /tests/0/expect/not_fire: unknown key \'not_fire\'; did you mean not_fired? (known: action, by, fired, not_fired, redirect, url, headers, settings, response)',
        'cfrules test: tests/rules.test.yaml:6:5: case "#1": /tests/1/name: name is required: a non-empty string',
        'cfrules test: tests/rules.test.yaml:9:18: case "#1": /tests/1/expect/fired/1: fired lists 3; each entry must be the id or ref of a rule',
        expect.stringMatching(/^cfrules test: tests\/zone\.json:7:7: \/firewall_rules\/0\/action: .*"blokk"/),
        expect.stringMatching(
          /^cfrules test: tests\/requests\/bad\.json:3:3: case "#1": \/headres: unknown key "headres"/,
        ),
      ]);
    });

    it('points at keys of JSON test files too', () => {
      const testFile =
        '{\n  "zone": "zone.json",\n  "tests": [\n    {"name": "a", "request": {"url": "https://e.com/"},\n     "expect": {"action": "alow"}}\n  ]\n}\n';
      const result = run(['test', 'tests/t.json'], {
        'tests/zone.json': JSON.stringify(zone),
        'tests/t.json': testFile,
      });
      expect(result.stderr).toBe(
        'cfrules test: tests/t.json:5:17: case "a": /tests/0/expect/action: unknown action "alow"; did you mean allow? (one of block, challenge, js_challenge, managed_challenge, allow, redirect, none)\n',
      );
    });

    it('no file, or an unknown format', () => {
      expect(run(['test']).code).toBe(2);
      expect(run(['test', '--format', 'xml', 'tests/rules.test.yaml'], files(passing)).stderr).toContain(
        "unknown format 'xml': expected one of text, json, junit, github, sarif",
      );
    });
  });

  it('the example test file passes with the built binary', async () => {
    const result = await cfrules(['test', 'examples/zone/zone.test.yaml']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/\d+ passed, 0 failed\n$/);
    expect(result.code).toBe(0);
  });
});
