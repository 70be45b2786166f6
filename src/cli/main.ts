import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { escapeControlCharacters } from '../lang/escape.js';
import { VERSION } from '../version.js';
import { asksForHelp, requestedFormat, usageMessage } from './args.js';
import { type CliIo, type Command, UsageError } from './command.js';
import { alsoAsText, FAILURE_FORMATS, type FailureFormat, renderFailure } from './failure-report.js';
import { decodeText } from './files.js';
import { commandMessage } from './messages.js';

/** A command as the command list knows it: its module is loaded only when it runs. */
export interface CommandEntry {
  name: string;
  /** One line for the command list. */
  summary: string;
  load: () => Promise<Command>;
}

// Each command is a chunk of its own in the bundle (scripts/bundle-options.mjs), loaded when it runs: start-up
// is what users of `validate` and `fmt` in pre-commit hooks and editors feel, and `--version`, `--help` or
// `fmt` need neither the checker, the evaluator nor the service (issue 16).
export const commands: CommandEntry[] = [
  {
    name: 'validate',
    summary: 'check expressions and rule files as Cloudflare does, plus lints',
    load: async () => (await import('./commands/validate.js')).validateCommand,
  },
  {
    name: 'parse',
    summary: 'check syntax and print the syntax tree as JSON',
    load: async () => (await import('./commands/parse.js')).parseCommand,
  },
  {
    name: 'fmt',
    summary: 'print expressions in canonical form (or rewrite / check files)',
    load: async () => (await import('./commands/fmt.js')).fmtCommand,
  },
  {
    name: 'eval',
    summary: 'evaluate an expression against a sample request',
    load: async () => (await import('./commands/eval.js')).evalCommand,
  },
  {
    name: 'simulate',
    summary: "show what a zone's rules do to a request, with the trace",
    load: async () => (await import('./commands/simulate.js')).simulateCommand,
  },
  {
    name: 'test',
    summary: 'run rule test files: expected actions and rules per request',
    load: async () => (await import('./commands/test.js')).testCommand,
  },
  {
    name: 'replay',
    summary: 'replay request logs through a zone: actions and rule hits',
    load: async () => (await import('./commands/replay.js')).replayCommand,
  },
  {
    name: 'bench',
    summary: "measure a zone's cost per request and find its most expensive rules",
    load: async () => (await import('./commands/bench.js')).benchCommand,
  },
  {
    name: 'serve',
    summary: "run Cloudflare's API locally (/client/v4): filters, firewall rules, WAF, rulesets",
    load: async () => (await import('./commands/serve.js')).serveCommand,
  },
  {
    name: 'migrate',
    summary: "bring the service's database (SQLite or PostgreSQL) to this version's schema",
    load: async () => (await import('./commands/migrate.js')).migrateCommand,
  },
  {
    name: 'lsp',
    summary: 'run the language server for editors (Language Server Protocol over stdio)',
    load: async () => (await import('./commands/lsp.js')).lspCommand,
  },
  {
    name: 'export',
    summary: "write a zone's rulesets as Terraform configuration, or the zone as a zone file",
    load: async () => (await import('./commands/export.js')).exportCommand,
  },
];

/** The commands loaded so far: runCli runs these synchronously. */
const loaded = new Map<string, Command>();

/** Loads every command's module (tests, which then run commands synchronously in-process). */
export async function loadCommands(): Promise<Command[]> {
  return Promise.all(commands.map(loadCommand));
}

async function loadCommand(entry: CommandEntry): Promise<Command> {
  const command = loaded.get(entry.name) ?? (await entry.load());
  loaded.set(entry.name, command);
  return command;
}

const usage = `Usage: cfrules <command> [options]

Tools for Cloudflare's Rules language (filter expressions).

Commands:
${commands.map((c) => `  ${c.name.padEnd(8)} ${c.summary}`).join('\n')}

Run 'cfrules <command> --help' for a command's options.
Options: -h, --help   show this help;  -v, --version   print the version
Environment: CFRULES_CACHE_DIR=DIR (or off)   where compiled code is cached; see docs/cli.md, The code cache
`;

/**
 * Runs the CLI with the given arguments (without `node cfrules`); returns the exit code, synchronously
 * when the command's module is loaded already (see loadCommands) and no long-running command runs.
 */
export function runCli(argv: string[], io: CliIo): number | Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) {
    io.stderr(usage); // a usage error: say how to use it, where errors go
    return 2;
  }
  if (name === '-h' || name === '--help' || (name === 'help' && args.length === 0)) {
    io.stdout(usage);
    return 0;
  }
  if (name === '-v' || name === '--version') {
    io.stdout(`${VERSION}\n`);
    return 0;
  }
  // `cfrules help validate` is `cfrules validate --help`.
  const wanted = name === 'help' ? (args[0] as string) : name;
  const entry = commands.find((c) => c.name === wanted);
  if (!entry) {
    io.stderr(`cfrules: unknown command '${escapeControlCharacters(wanted)}'\n\n${usage}`);
    return 2;
  }
  const command = loaded.get(entry.name);
  if (command) return runCommand(command, name, args, io);
  return loadCommand(entry).then((command) => runCommand(command, name, args, io));
}

function runCommand(command: Command, name: string, args: string[], io: CliIo): number | Promise<number> {
  if (name === 'help' || asksForHelp(args, command.options)) {
    io.stdout(command.help);
    return 0;
  }
  // A mistake in the command line is reported the same whether the command finds it at once or later
  // (an asynchronous command such as replay finds an unreadable file when it opens it).
  const failed = (error: unknown): number => {
    // parseArgs (cfrules serve) reports unknown options and missing values as TypeErrors with an ERR_PARSE_ARGS code.
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (!(error instanceof UsageError || code.startsWith('ERR_PARSE_ARGS'))) throw error;
    const message = error instanceof UsageError ? error.message : usageMessage((error as Error).message);
    // A program or CI system reading the report gets this failure in the report's format too.
    const format = failureFormat(args, command);
    if (format !== undefined) {
      const usage = error instanceof UsageError ? error : undefined;
      io.stdout(
        renderFailure(format, {
          command: command.name,
          message,
          location: usage?.location,
          code: usage?.code,
        }),
      );
    }
    if (format === undefined || alsoAsText(format)) {
      io.stderr(`${commandMessage(name, message)}Run 'cfrules ${name} --help' for usage.\n`);
    }
    return 2;
  };
  try {
    const result = command.run(args, io);
    return typeof result === 'number' ? result : result.catch(failed);
  } catch (error) {
    return failed(error);
  }
}

/**
 * The machine format a failing command line asked for, if any: its `--format` (the last one), when the
 * command accepts that value (JSON alone for a command that does not list its formats).
 */
function failureFormat(args: readonly string[], command: Command): FailureFormat | undefined {
  const format = requestedFormat(args, command.options);
  const accepted = command.formats ?? ['json'];
  return FAILURE_FORMATS.find((known) => known === format && accepted.includes(known));
}

export const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readFile: (path) => decodeText(readFileSync(path)),
  listDirectory: (path) =>
    statSync(path, { throwIfNoEntry: false })?.isDirectory() ? readdirSync(path) : undefined,
  writeFile: (path, text) => writeFileSync(path, text),
  readStdin: () => decodeText(readFileSync(0)),
  isTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
  env: process.env,
};
