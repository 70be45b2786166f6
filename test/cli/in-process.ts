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
  const code = runCli(argv, io) as number;
  return { code, stdout, stderr, files };
}
