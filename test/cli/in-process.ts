// Runs the CLI in-process against an in-memory file system: fast, for what does not need the real binary.
import type { CliIo } from '../../src/cli/command.js';
import { loadCommands, runCli } from '../../src/cli/main.js';

// The binary loads one command's module per run; here they are all loaded first, so that runCli answers
// synchronously.
await loadCommands();

export interface InProcessRun {
  code: number;
  stdout: string;
  stderr: string;
  files: Record<string, string>;
}

export function run(
  argv: string[],
  files: Record<string, string> = {},
  stdin = '',
  terminal: Pick<CliIo, 'isTTY' | 'stderrIsTTY' | 'env'> = {},
): InProcessRun {
  const result = start(argv, files, stdin, terminal);
  return { code: result.code as number, ...result.output(), files };
}

/**
 * `run` for commands that may load a module before they answer (validate with JSON rule objects loads the
 * service's checks): waits for the exit code.
 */
export async function runAwaited(argv: string[], files: Record<string, string> = {}): Promise<InProcessRun> {
  const result = start(argv, files, '', {});
  const code = await result.code;
  return { code, ...result.output(), files };
}

function start(argv: string[], files: Record<string, string>, stdin: string, terminal: Pick<CliIo, 'isTTY'>) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    readFile: (path) => {
      const text = files[path];
      if (text === undefined) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
      return text;
    },
    writeFile: (path, text) => {
      files[path] = text;
    },
    // A directory is the prefix of some file's path.
    listDirectory: (path) => {
      const prefix = `${path.replace(/\/$/, '')}/`;
      const entries = Object.keys(files)
        .filter((name) => name.startsWith(prefix))
        .map((name) => name.slice(prefix.length).split('/')[0] as string);
      return entries.length === 0 ? undefined : [...new Set(entries)];
    },
    readStdin: () => stdin,
    ...terminal,
  };
  const code = runCli(argv, io);
  return { code, output: () => ({ stdout, stderr }) };
}
