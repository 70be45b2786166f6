// The command line: help, options whose value starts with a dash, `--`, option values in any case, and
// usage errors in the CLI's own words (never Node's option parser's).

import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { usageMessage } from '../../src/cli/args.js';
import { loadCommands } from '../../src/cli/main.js';
import { run } from './in-process.js';

const commands = await loadCommands();
const helpOf = (name: string) => commands.find((c) => c.name === name)?.help;

describe('cfrules command line', () => {
  it("prints a command's help for `cfrules help COMMAND`, and refuses an unknown one", () => {
    expect(run(['help', 'validate'])).toMatchObject({ code: 0, stdout: helpOf('validate'), stderr: '' });
    expect(run(['help', 'eval']).stdout).toBe(helpOf('eval'));
    const unknown = run(['help', 'frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^cfrules: unknown command 'frobnicate'\n/);
  });

  it('takes the argument after -e as the expression, even when it starts with a dash', () => {
    // The docs offer -e for expressions starting with -: it must reach the validator, not the option parser.
    const result = run(['validate', '-e', '-ssl']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^<expression>:1:1: error\[/);
    expect(run(['fmt', '-e', '-h']).stderr).toMatch(/^<expression>:1:1: error\[/); // -h here is an expression
    expect(run(['fmt', '--expression=a&&b']).stdout).toBe('a and b\n');
    expect(run(['fmt', '-ea&&b']).stdout).toBe('a and b\n');
  });

  it('treats every argument after -- as an expression, -h and --help included', () => {
    const result = run(['validate', '--', '-h', '--help']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^<expression 1>:1:1: error\[.*\n[\s\S]*<expression 2>:1:1: error\[/);
    expect(run(['validate', '-q', '-h', 'ssl'])).toMatchObject({ code: 0, stdout: helpOf('validate') });
    // Asking for help wins over any other mistake on the line.
    expect(run(['fmt', '--bogus', '--help'])).toMatchObject({ code: 0, stdout: helpOf('fmt') });
  });

  it('accepts --format, --plan and --phase values in any case', () => {
    const json = run(['validate', '--format', 'JSON', 'ssl']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).ok).toBe(true);
    expect(run(['validate', '--plan', 'ENTERPRISE', '--phase', 'Firewall_Rules', 'ssl']).code).toBe(0);
    expect(JSON.parse(run(['eval', '--format', 'Json', 'ssl']).stdout).result).toBe(false);
  });

  it('reports usage errors in its own words, with exit status 2', () => {
    const cases: [string[], string][] = [
      [['fmt', '--bogus', '-e', 'x'], "cfrules fmt: unknown option '--bogus'"],
      [['eval', '--explian', 'ssl'], "cfrules eval: unknown option '--explian'; did you mean --explain?"],
      [['parse', '-e'], 'cfrules parse: option -e (--expression) needs a value'],
      [['eval', '--request'], 'cfrules eval: option --request needs a value'],
      [['eval', '--explain=yes', 'ssl'], 'cfrules eval: option --explain takes no value'],
      [['eval', 'ssl', 'ssl'], 'cfrules eval: give exactly one expression'],
    ];
    for (const [argv, message] of cases) {
      const result = run(argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr, argv.join(' ')).toBe(`${message}\nRun 'cfrules ${argv[0]} --help' for usage.\n`);
    }
  });

  it('reports usage errors as JSON when JSON output was asked for', () => {
    for (const argv of [
      ['eval', '--format', 'json', '--request', 'missing.json', 'ssl'],
      ['validate', '--format=json', '--bogus', 'ssl'],
    ]) {
      const result = run(argv);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toEqual({
        ok: false,
        error: {
          kind: 'usage',
          message: expect.stringMatching(
            /^cannot read missing.json: no such file$|^unknown option '--bogus'$/,
          ),
          // The file a usage error is about, when there is one.
          ...(argv[0] === 'eval' ? { file: 'missing.json' } : {}),
        },
      });
    }
  });

  it("words the mistakes that Node's option parser finds (cfrules serve) the same way", () => {
    const nodeMessage = (args: string[]) => {
      try {
        parseArgs({ args, options: { port: { type: 'string', short: 'p' }, quiet: { type: 'boolean' } } });
      } catch (error) {
        return usageMessage((error as Error).message);
      }
      throw new Error(`parseArgs accepted ${args.join(' ')}`);
    };
    expect(nodeMessage(['--bogus'])).toBe("unknown option '--bogus'");
    expect(nodeMessage(['--port'])).toBe('option --port needs a value');
    expect(nodeMessage(['--quiet=1'])).toBe('option --quiet takes no value');
    expect(nodeMessage(['extra'])).toBe("unexpected argument 'extra': this command takes options only");
  });
});
