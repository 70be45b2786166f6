import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commands, loadCommands } from '../../src/cli/main.js';
import { VERSION } from '../../src/version.js';
import { run } from './in-process.js';

describe('cfrules CLI', () => {
  it('lists each command under the name its module gives it (modules load only when they run)', async () => {
    const loaded = await loadCommands();
    expect(loaded.map((command) => command.name)).toEqual(commands.map((entry) => entry.name));
  });

  it('prints help and the version that package.json declares', () => {
    const help = run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/fmt +print expressions in canonical form/);
    expect(run([])).toMatchObject({ code: 2, stdout: '' });
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(run(['--version']).stdout).toBe(`${pkg.version}\n`);
    expect(VERSION).toBe(pkg.version);
    expect(run(['fmt', '--help']).stdout).toMatch(/--symbols/);
  });

  it('ends every help text with exactly one newline, so the shell prompt starts on a line of its own', () => {
    const helps = [['--help'], ['help'], ...commands.map((command) => [command.name, '--help'])];
    for (const argv of helps) expect(run(argv).stdout, argv.join(' ')).toMatch(/[^\n]\n$/);
    expect(run([]).stderr).toMatch(/[^\n]\n$/);
  });

  it('formats expressions from -e, files and standard input', () => {
    expect(run(['fmt', '-e', 'a&&(b||c)']).stdout).toBe('a and (b or c)\n');
    expect(run(['fmt', '--symbols', '-e', 'not a and b eq 1']).stdout).toBe('!a && b == 1\n');
    const fromFile = run(['fmt', 'rule.txt'], { 'rule.txt': 'x  in {1   2}\n' });
    expect(fromFile.stdout).toBe('x in {1 2}\n');
    expect(run(['fmt', '-'], {}, 'ssl\n  or  t').stdout).toBe('ssl or t\n');
    expect(run(['fmt', '--check', '-'], {}, 'a and b\n').code).toBe(0); // the final newline is not the expression's
  });

  it('rewrites files with --write and reports unformatted files with --check', () => {
    const files = { 'a.txt': 'a&&b\n', 'b.txt': 'a and b\n' };
    expect(run(['fmt', '--check', 'a.txt', 'b.txt'], files)).toMatchObject({
      code: 1,
      stderr: 'a.txt: not formatted\n',
    });
    expect(run(['fmt', '--write', 'a.txt'], files).code).toBe(0);
    expect(files['a.txt']).toBe('a and b\n');
    expect(run(['fmt', '--check', 'a.txt', 'b.txt'], files).code).toBe(0);
  });

  it('reports syntax errors in Cloudflare format with the input name, position, code and hint', () => {
    const result = run(['fmt', 'bad.txt'], { 'bad.txt': 'tcp.dstport in {80, 443}\n' });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'bad.txt:1:19: error[comma-in-set]\n' +
        'Filter parsing error (1:19):\n' +
        'tcp.dstport in {80, 443}\n' +
        '                  ^^^^^^ unrecognised input\n' +
        'hint: set items are separated by spaces, not commas: {80 443}\n',
    );
  });

  it('prints the syntax tree as JSON, with byte strings shown as text', () => {
    const result = run(['parse', '-e', 'http.host eq "é"']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      kind: 'comparison',
      lhs: { kind: 'field', name: 'http.host' },
      op: 'eq',
      rhs: { kind: 'string', value: 'é', raw: false },
    });
    expect(Object.keys(JSON.parse(result.stdout))).toEqual(['kind', 'lhs', 'op', 'rhs']);
    const withSpans = JSON.parse(run(['parse', '--spans', '-e', 'ssl']).stdout);
    expect(withSpans.span).toEqual({ start: 0, end: 3, line: 1, column: 1 });
  });

  it('answers usage errors with exit code 2 and a pointer to --help', () => {
    expect(run(['frobnicate'])).toMatchObject({ code: 2 });
    const unknown = run(['fmt', '--bogus', '-e', 'x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Run 'cfrules fmt --help'/);
    expect(run(['fmt'])).toMatchObject({ code: 2 });
    expect(run(['fmt', 'missing.txt']).stderr).toMatch(/cannot read missing.txt: no such file/);
  });
});
