import { spanOf } from '../lang/position.js';
import { type CliIo, UsageError } from './command.js';

/**
 * Every command reads its files (expressions, rule files, requests, lists) through these helpers, so a
 * file that cannot be used is reported in the same words everywhere: `cannot read PATH: no such file`,
 * `PATH is not valid JSON: …`.
 */

const reasons: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
};

/** The text of the file `path`; `-` reads standard input, once per command (see `stdinReader`). */
export function readInputFile(io: CliIo, path: string, readStdin: () => string): string {
  if (path === '-') return readStdin();
  try {
    return io.readFile(path);
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${fileErrorReason(error)}`);
  }
}

/** Why a file system call failed, in words (`no such file`), for `cannot read PATH: …` messages. */
export function fileErrorReason(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  return (code && reasons[code]) ?? code ?? message ?? String(error);
}

/** Standard input, which a command can read only once: `-` given twice is a usage error. */
export function stdinReader(io: CliIo): () => string {
  let used = false;
  return () => {
    if (used) throw new UsageError('standard input can be read only once (- was given twice)');
    used = true;
    return io.readStdin();
  };
}

/** Parses the JSON of the input `name`; malformed JSON is a usage error that says where. */
export function parseJsonInput(name: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${name} is not valid JSON: ${jsonErrorMessage(text, error as Error)}`);
  }
}

/** V8 reports JSON errors by offset; say the line and column too. */
function jsonErrorMessage(text: string, error: Error): string {
  const match = /at position (\d+)/.exec(error.message);
  if (!match || /line \d+/.test(error.message)) return error.message;
  const { line, column } = spanOf(text, Number(match[1]), Number(match[1]));
  return `${error.message} (line ${line}, column ${column})`;
}

/** Editors end files with a newline; it is not part of the expression. */
export function stripFinalNewline(text: string): string {
  return text.replace(/\r?\n$/, '');
}
