// docs/cli.md and the command agree: every help text is in the page verbatim, every option the help lists is
// accepted, and every example in a ```console block prints what the page shows. The README's console
// examples (its quick start among them) are checked the same way.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateOptions } from '../../src/cli/commands/validate.js';
import { loadCommands } from '../../src/cli/main.js';
import { PHASES, PLANS } from '../../src/scheme/profile.js';
import { cfrules, shell } from './run-binary.js';

const commands = await loadCommands();
const page = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');

interface Block {
  info: string;
  text: string;
  line: number;
}

/** The fenced blocks of the page, with their info string and the line of the opening fence. */
function fencedBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]);
    blocks.push({ info: open[1], text: body.map((line) => `${line}\n`).join(''), line: start + 1 });
  }
  return blocks;
}

const blocks = fencedBlocks(page);

// The option checks below are about reading options: they get a one-rule zone, so that the engine's
// commands (a dozen processes at once) do not each compile the example zone's managed rulesets.
const small = mkdtempSync(join(tmpdir(), 'cfrules-docs-'));
const smallZone = join(small, 'zone.json');
writeFileSync(
  smallZone,
  JSON.stringify({
    firewall_rules: [
      { id: 'r1', action: 'block', filter: { expression: 'http.request.uri.path eq "/admin"' } },
    ],
  }),
);
const smallRequests = join(small, 'requests.jsonl');
writeFileSync(smallRequests, `${JSON.stringify({ url: 'https://example.com/admin' })}\n`);
const smallTests = join(small, 'zone.test.json');
writeFileSync(
  smallTests,
  JSON.stringify({
    zone: 'zone.json',
    tests: [{ name: 'admin', request: { url: 'https://example.com/admin' }, expect: { action: 'block' } }],
  }),
);
const inBlock = (text: string) => blocks.some((block) => block.text.includes(text));

describe.concurrent('docs/cli.md', { timeout: 30_000 }, () => {
  it('shows `cfrules --help` verbatim', async () => {
    const help = await cfrules(['--help']);
    expect(help.code).toBe(0);
    expect(inBlock(help.stdout), `docs/cli.md lacks:\n${help.stdout}`).toBe(true);
  });

  for (const command of commands) {
    it(`shows \`cfrules ${command.name} --help\` verbatim, and has a section and a table row for it`, async () => {
      const help = await cfrules([command.name, '--help']);
      expect(help).toEqual({ code: 0, stdout: command.help, stderr: '' });
      expect(inBlock(command.help), `docs/cli.md lacks the help of ${command.name}:\n${command.help}`).toBe(
        true,
      );
      expect(page).toContain(`\n## \`cfrules ${command.name}\`\n`);
      expect(page).toMatch(
        new RegExp(`\\n\\| \\[?\`cfrules ${command.name}\`(\\]\\(#cfrules-${command.name}\\))? \\|`),
      );
    });

    it(`accepts every option that \`cfrules ${command.name} --help\` lists`, async () => {
      const options = [...command.help.matchAll(/^ {2}(?:-\w, | {4})(--[\w-]+)(?: ([A-Z=]+))?/gm)];
      expect(options.length).toBeGreaterThan(1);
      const runs = options
        .filter(([, option]) => option !== '--help')
        .map(async ([, option, value]) => {
          const args = value ? [option, sampleValue(command.name, option)] : [option];
          // serve would run until stopped: a missing config file makes it stop at once (status 1).
          // eval takes one expression: --expression is that one.
          const expression = option === '--expression' ? [] : ['-e', 'ssl'];
          // export reads a zone: from an API that cannot be reached (port 9 is refused at once), or, with
          // --db, from a file that does not exist; both are status 1, not usage errors.
          // --account names the account instead of the zone.
          const zone = [
            'terraform',
            ...(option === '--account' ? [] : ['--zone', '023e105f4ecef8ad9ca31a8372d0c353']),
          ];
          const exported =
            option === '--db' ? zone : [...zone, '--token', 't', '--api', 'http://127.0.0.1:9/client/v4'];
          // The engine's commands get a zone and requests that work (the last --zone, --request wins).
          const engine: Record<string, string[]> = {
            simulate: ['--zone', smallZone, '--request', 'examples/requests/browser.json'],
            test: [smallTests],
            // --fail-on-change needs --compare.
            replay: ['--zone', smallZone, '--requests', smallRequests, '--compare', smallZone],
            bench: ['--zone', smallZone, '--requests', smallRequests],
          };
          // lsp takes no input on its command line (it stops when its standard input closes); migrate needs
          // only its database (--db and --database are :memory:).
          const rest =
            command.name === 'lsp' || command.name === 'migrate'
              ? []
              : command.name === 'serve'
                ? ['--config', 'no-such-config.yaml']
                : command.name === 'export'
                  ? exported
                  : (engine[command.name] ?? expression);
          const result = await cfrules([command.name, ...args, ...rest]);
          return { args: args.join(' '), ...result };
        });
      for (const result of await Promise.all(runs)) {
        expect(result.stderr, `${command.name} ${result.args}`).not.toMatch(/Unknown option/);
        expect(result.code, `${command.name} ${result.args}: ${result.stderr}`).not.toBe(2);
      }
    });
  }

  it('lists every option of `cfrules validate` in its help', () => {
    for (const [name, option] of Object.entries(validateOptions)) {
      expect(validateCommandHelp()).toContain(`--${name}`);
      if ('short' in option) expect(validateCommandHelp()).toContain(`-${option.short}, --${name}`);
    }
  });

  it('names every plan and phase that --plan and --phase accept', () => {
    for (const name of [...PLANS, ...PHASES]) expect(page).toContain(`\`${name}\``);
  });

  const examples = blocks.filter((block) => block.info === 'console');
  it('has console examples', () => {
    expect(examples.length).toBeGreaterThan(10);
  });
  for (const block of examples) {
    it(`example at docs/cli.md:${block.line} prints what the page shows`, async () => {
      expect(await runExample(block.text)).toBe(block.text);
    });
  }
});

function validateCommandHelp(): string {
  const command = commands.find((c) => c.name === 'validate');
  if (!command) throw new Error('no validate command');
  return command.help;
}

/** A value that each option taking one accepts. */
function sampleValue(command: string, option: string): string {
  if (command === 'eval' && option === '--list') return 'office_ips=examples/lists/office-ips.txt';
  if (command === 'simulate' && option === '--format') return 'tree';
  if (['simulate', 'replay', 'bench'].includes(command) && option === '--zone') return smallZone;
  if (command === 'replay' && option === '--compare') return smallZone;
  if (option === '--requests') return smallRequests;
  const samples: Record<string, string> = {
    '--expression': 'ssl',
    '--file': 'examples/rules/expressions.txt',
    '--plan': 'business',
    '--phase': 'http_request_firewall_custom',
    '--list': 'office=ip',
    '--max-length': '4096',
    '--disable-lint': 'deprecated-field',
    '--format': 'json',
    '--max-warnings': '10',
    '--request': 'examples/requests/browser.json',
    '--field': 'http.host=example.com',
    '--host': '127.0.0.1',
    '--port': '0',
    '--db': ':memory:',
    '--database': ':memory:',
    '--pool-size': '4',
    '--pool-timeout': '1000',
    '--statement-timeout': '1000',
    '--config': 'no-such-config.yaml',
    '--synchronous': 'normal',
    '--zone': '023e105f4ecef8ad9ca31a8372d0c353',
    '--account': '0123456789abcdef0123456789abcdef',
    '--api': 'http://127.0.0.1:9/client/v4',
    '--token': 't',
    '--output': 'no-such-dir/rulesets.tf',
    '--requests': 'examples/zone/requests.jsonl',
    '--workers': '1',
    '--top': '3',
    '--sample': '2',
    '--duration': '0.5',
    '--provider': '4',
    '--clientProcessId': String(process.pid),
  };
  const value = samples[option];
  if (value === undefined) throw new Error(`docs.test.ts: add a sample value for ${option}`);
  return value;
}

/**
 * Replays a console example: each `$ COMMAND` line runs in one shell session (so `echo $?` sees the status
 * of the command before), and the result is the transcript, commands and their output interleaved.
 */
async function runExample(text: string): Promise<string> {
  const commandsOfBlock = text
    .split('\n')
    .filter((line) => line.startsWith('$ '))
    .map((line) => line.slice(2));
  const marker = '@@cfrules-example@@';
  const script = commandsOfBlock
    .map((command) => `__status=$?; printf '%s\\n' '${marker}'; (exit $__status)\n${command}`)
    .join('\n');
  const outputs = (await shell(script)).split(`${marker}\n`).slice(1);
  return commandsOfBlock.map((command, i) => `$ ${command}\n${outputs[i] ?? ''}`).join('');
}

describe.concurrent('README.md', { timeout: 30_000 }, () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const examples = fencedBlocks(readme).filter((block) => block.info === 'console');
  it('has console examples, the quick start among them', () => {
    expect(examples.some((block) => block.text.includes('examples/rules/zone-rules.json'))).toBe(true);
  });
  for (const block of examples) {
    it(`example at README.md:${block.line} prints what the page shows`, async () => {
      expect(await runExample(block.text)).toBe(block.text);
    });
  }

  // Every command line of the README's ```sh blocks runs as written: the files it names are in the
  // repository, and it is not a usage error. `# → X` comments give the output. `serve` runs until stopped
  // (the API tests cover it), so its lines are only checked for their files.
  const lines = fencedBlocks(readme)
    .filter((block) => block.info === 'sh')
    .flatMap((block) => block.text.split('\n'))
    .filter((line) => /^(npm ci && )?npx cfrules /.test(line))
    .map((line) => line.replace(/^npm ci && /, ''));
  it('has command-line examples', () => {
    expect(lines.length).toBeGreaterThan(8);
  });
  for (const line of lines) {
    it(`runs \`${line.split('   #')[0]}\` as written`, async () => {
      const [command = '', comment] = line.split(/\s+#\s*/, 2);
      const args = shellWords(command).slice(2); // without `npx cfrules`
      for (const path of args.filter((arg) => /^examples\//.test(arg)))
        expect(existsSync(new URL(`../../${path}`, import.meta.url)), path).toBe(true);
      if (args[0] === 'serve') return;
      const result = await cfrules(args);
      expect(result.code, `${command}\n${result.stderr}`).toBeLessThan(2);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      const shown = /^→ (.*)$/.exec(comment ?? '')?.[1];
      if (shown) expect(result.stdout).toBe(`${shown}\n`);
    });
  }
});

/** The words of a command line as a POSIX shell splits them (single quotes only, as the README uses). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? '');
}
