// `cfrules eval`, run as the built binary (see run-binary.ts): results, requests, fields, lists, explain.
import { describe, expect, it } from 'vitest';
import { run as inProcess } from './in-process.js';
import { cfrules } from './run-binary.js';

const run = (args: string[], options: Parameters<typeof cfrules>[1] = {}) =>
  cfrules(['eval', ...args], options);
const browser = 'examples/requests/browser.json';

describe.concurrent('cfrules eval', { timeout: 30_000 }, () => {
  it('prints true or false and exits 0 either way', async () => {
    expect(await run(['-r', browser, 'ip.src.country eq "US"'])).toEqual({
      code: 0,
      stdout: 'true\n',
      stderr: '',
    });
    expect(await run(['-r', browser, 'ip.src.country eq "FR"'])).toEqual({
      code: 0,
      stdout: 'false\n',
      stderr: '',
    });
  });

  it('takes the expression from -e or standard input, and the request from standard input', async () => {
    expect((await run(['-r', browser, '-e', 'ssl'])).stdout).toBe('true\n');
    expect((await run(['-r', browser, '-'], { stdin: 'not ssl\n' })).stdout).toBe('false\n');
    const request = JSON.stringify({ url: 'http://example.com/a.php' });
    expect(
      (await run(['-r', '-', 'http.request.uri.path.extension eq "php" and not ssl'], { stdin: request }))
        .stdout,
    ).toBe('true\n');
  });

  it('runs where code generation is disallowed (closures instead of generated code)', async () => {
    const env = { NODE_OPTIONS: '--disallow-code-generation-from-strings' };
    const expression = 'ip.src.country eq "US" and http.user_agent matches "(?i)mozilla/\\d" and ssl';
    expect(await run(['-r', browser, expression], { env })).toEqual({
      code: 0,
      stdout: 'true\n',
      stderr: '',
    });
    expect((await run(['-r', browser, 'ip.src.country in {"FR" "DE"}'], { env })).stdout).toBe('false\n');
  });

  it('evaluates against an empty request by default: every field is missing', async () => {
    expect((await run(['http.host ne "a"'])).stdout).toBe('false\n');
    expect((await run(['true'])).stdout).toBe('true\n');
  });

  it('sets fields from --field, over the request', async () => {
    expect(
      (await run(['-r', browser, '--field', 'ip.src.country=FR', 'ip.src.country eq "FR"'])).stdout,
    ).toBe('true\n');
    expect(
      (
        await run([
          '--field',
          'http.request.headers.names=["X-A"]',
          'any(http.request.headers.names[*] eq "X-A")',
        ])
      ).stdout,
    ).toBe('true\n');
  });

  it('reads list items from --list files', async () => {
    const list = 'office_ips=examples/lists/office-ips.txt';
    expect((await run(['--list', list, '--field', 'ip.src=192.0.2.9', 'ip.src in $office_ips'])).stdout).toBe(
      'true\n',
    );
    expect(
      (await run(['--list', list, '--field', 'ip.src=198.51.100.1', 'ip.src in $office_ips'])).stdout,
    ).toBe('false\n');
    // A list may be called anything, Object.prototype's members included.
    const proto = '__proto__=examples/lists/office-ips.txt';
    expect((await run(['--list', proto, '--field', 'ip.src=192.0.2.9', 'ip.src in $__proto__'])).stdout).toBe(
      'true\n',
    );
  });

  it('prints the value of a rewrite expression', async () => {
    const result = await run([
      '--rewrite',
      '-r',
      browser,
      'concat("https://www.", http.host, http.request.uri.path)',
    ]);
    expect(result.stdout).toBe('https://www.example.com/index.html\n');
  });

  it('explains, as text and as JSON', async () => {
    const text = await run(['--explain', '-r', browser, 'ssl and http.host eq "x" and not ssl']);
    expect(text.stdout).toBe(
      [
        'false',
        'false  ssl and http.host eq "x" and not ssl',
        '  true   ssl',
        '           ssl = true',
        '  false  http.host eq "x"',
        '           http.host = "example.com"',
        '  skipped not ssl',
        '    skipped ssl',
        '',
      ].join('\n'),
    );
    // An array result widens its column; the field values still line up under the expression they belong to.
    const array = await run([
      '--explain',
      '--field',
      'http.request.headers.names=["Accept","X-Debug"]',
      'any(lower(http.request.headers.names[*])[*] eq "x-debug")',
    ]);
    expect(array.stdout).toBe(
      [
        'true',
        'true   any(lower(http.request.headers.names[*])[*] eq "x-debug")',
        '  [false, true] lower(http.request.headers.names[*])[*] eq "x-debug"',
        '                  http.request.headers.names = ["Accept", "X-Debug"]',
        '',
      ].join('\n'),
    );
    const json = JSON.parse((await run(['--format', 'json', '--explain', '-r', browser, 'ssl'])).stdout);
    expect(json).toMatchObject({
      expression: 'ssl',
      result: true,
      explanation: { result: true, fields: [{ name: 'ssl' }] },
    });
  });

  it('reports an invalid expression in Cloudflare format and exits 1', async () => {
    const result = await run(['--plan', 'free', 'http.host matches "a"']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('the matches operator is not available on the Free plan');
  });

  it('rejects bad requests, lists and options with exit status 2 and no stack trace', async () => {
    for (const args of [
      ['--request', 'examples/requests/none.json', 'ssl'],
      ['--field', 'cf.waf.score=high', 'ssl'],
      ['--field', 'nope', 'ssl'],
      ['--list', 'l=examples/lists/none.txt', 'ssl'],
      ['--format', 'xml', 'ssl'],
      ['ssl', 'ssl'],
      [],
    ]) {
      const result = await run(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(/^cfrules eval: /);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    const badItem = await run([
      '--list',
      'hosts=examples/lists/office-ips.txt',
      '--field',
      'http.host=a',
      'http.host in $hosts',
    ]);
    expect(badItem.code).toBe(2);
    expect(badItem.stderr).toMatch(/\$hosts: "192.0.2.0\/24" is not a hostname/);
  });
});

describe('cfrules eval: what it says besides the result', () => {
  it('refuses a list that --list did not give, with a suggestion: lists are exactly the --list ones', () => {
    const result = inProcess(['eval', '--list', 'office=office.txt', 'ip.src in $offce'], {
      'office.txt': '192.0.2.0/24\n',
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      '<expression>:1:11: error[unknown-list]\n' +
        'Filter parsing error (1:11):\n' +
        'ip.src in $offce\n' +
        '          ^^^^^^ unknown list $offce\n' +
        'hint: did you mean $office?\n',
    );
    expect(inProcess(['eval', 'ip.src in $office']).stderr).toMatch(/unknown list \$office/);
    // Cloudflare's managed lists are known (and empty unless given).
    expect(inProcess(['eval', 'ip.src in $cf.open_proxies'])).toMatchObject({ code: 0, stdout: 'false\n' });
  });

  it('explains a rewrite expression by its value, not as a condition', () => {
    const args = ['eval', '--rewrite', '--explain', '--field', 'http.request.uri.path=/v1/users'];
    const expression = 'regex_replace(http.request.uri.path, "^/v1/", "/v2/")';
    expect(inProcess([...args, expression]).stdout).toBe(
      `/v2/users\n"/v2/users" ${expression}\n              http.request.uri.path = "/v1/users"\n`,
    );
    const json = JSON.parse(inProcess([...args, '--format', 'json', expression]).stdout);
    expect(json.result).toBe('/v2/users');
    expect(json.explanation).toMatchObject({ result: true, value: '"/v2/users"' });
  });

  it('gives a missing rewrite value as null in JSON, unlike the text "missing"', () => {
    const value = (field: string[]) =>
      JSON.parse(inProcess(['eval', '--format', 'json', '--rewrite', ...field, 'http.host']).stdout).result;
    expect(value([])).toBeNull();
    expect(value(['--field', 'http.host=missing'])).toBe('missing');
  });

  it('reports an invalid expression as JSON in JSON mode, on standard output', () => {
    const result = inProcess(['eval', '--format', 'json', 'http.hots eq "a"']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({
      ok: false,
      expression: 'http.hots eq "a"',
      diagnostics: [
        expect.objectContaining({
          severity: 'error',
          code: 'unknown-identifier',
          line: 1,
          column: 1,
          hint: 'did you mean http.host?',
        }),
      ],
    });
  });

  it('shows lint warnings on standard error (in JSON, among the diagnostics), and checks --max-length', () => {
    const expression = 'http.request.headers["User-Agent"][0] eq "x"';
    const text = inProcess(['eval', expression]);
    expect(text).toMatchObject({ code: 0, stdout: 'false\n' });
    expect(text.stderr).toMatch(
      /^<expression>:1:21: warning\[uppercase-header-key\]\n[\s\S]*\nhint: write "user-agent"\n$/,
    );
    expect(inProcess(['eval', '--no-lint', expression]).stderr).toBe('');
    expect(inProcess(['eval', '--disable-lint', 'uppercase-header-key', expression]).stderr).toBe('');
    const json = JSON.parse(inProcess(['eval', '--format', 'json', expression]).stdout);
    expect(json).toMatchObject({
      ok: true,
      result: false,
      diagnostics: [{ severity: 'warning', code: 'uppercase-header-key' }],
    });
    const long = inProcess(['eval', '--max-length', '5', 'ssl and ssl']);
    expect(long.code).toBe(1);
    expect(long.stderr).toMatch(/^<expression>:1:6: error\[expression-too-long\]\n/);
  });

  it('names the request file in its errors, in the words every command uses', () => {
    const files = { 'req.json': '{"url": "http://a/",}' };
    expect(inProcess(['eval', '-r', 'req.json', 'ssl'], files).stderr).toMatch(
      /^cfrules eval: req.json is not valid JSON: /,
    );
    expect(inProcess(['eval', '-r', 'nope.json', 'ssl'], files).stderr).toMatch(
      /^cfrules eval: cannot read nope.json: no such file\n/,
    );
  });
});
