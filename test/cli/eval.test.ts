// `cfrules eval`, run as the built binary (see run-binary.ts): results, requests, fields, lists, explain.
import { describe, expect, it } from 'vitest';
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
