import { readFileSync, writeFileSync } from 'node:fs';
import { escapeControlCharacters } from '../lang/escape.js';
import { VERSION } from '../version.js';
import { asksForHelp, usageMessage, wantsJson } from './args.js';
import { type CliIo, type Command, UsageError } from './command.js';
import { evalCommand } from './commands/eval.js';
import { exportCommand } from './commands/export.js';
import { fmtCommand } from './commands/fmt.js';
import { parseCommand } from './commands/parse.js';
import { serveCommand } from './commands/serve.js';
import { validateCommand } from './commands/validate.js';

export const commands: Command[] = [
  validateCommand,
  parseCommand,
  fmtCommand,
  evalCommand,
  serveCommand,
  exportCommand,
];

const usage = `Usage: cfrules <command> [options]

Tools for Cloudflare's Rules language (filter expressions).

Commands:
${commands.map((c) => `  ${c.name.padEnd(8)} ${c.summary}`).join('\n')}

Run 'cfrules <command> --help' for a command's options.
Options: -h, --help   show this help;  -v, --version   print the version
`;

/** Runs the CLI with the given arguments (without `node cfrules`); returns the exit code. */
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
  const command = commands.find((c) => c.name === wanted);
  if (!command) {
    io.stderr(`cfrules: unknown command '${escapeControlCharacters(wanted)}'\n\n${usage}`);
    return 2;
  }
  if (name === 'help' || asksForHelp(args, command.options)) {
    io.stdout(command.help);
    return 0;
  }
  try {
    return command.run(args, io);
  } catch (error) {
    // parseArgs (cfrules serve) reports unknown options and missing values as TypeErrors with an ERR_PARSE_ARGS code.
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (error instanceof UsageError || code.startsWith('ERR_PARSE_ARGS')) {
      const message = error instanceof UsageError ? error.message : usageMessage((error as Error).message);
      if (wantsJson(args, command.options)) {
        // A program reading the JSON report gets a JSON document for this failure too.
        io.stdout(`${JSON.stringify({ ok: false, error: { kind: 'usage', message } }, null, 2)}\n`);
      } else {
        io.stderr(
          `cfrules ${name}: ${escapeControlCharacters(message)}\nRun 'cfrules ${name} --help' for usage.\n`,
        );
      }
      return 2;
    }
    throw error;
  }
}

export const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readFile: (path) => readFileSync(path, 'utf8'),
  writeFile: (path, text) => writeFileSync(path, text),
  readStdin: () => readFileSync(0, 'utf8'),
  isTTY: process.stdout.isTTY === true,
  env: process.env,
};
