import { spanOf } from '../lang/position.js';
import { type CliIo, type ErrorLocation, UsageError } from './command.js';

type Position = Required<Omit<ErrorLocation, 'file'>>;

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
    throw new UsageError(`cannot read ${path}: ${fileErrorReason(error)}`, { file: path });
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

/**
 * Parses the JSON of the input `name` (read from the file `file`, if it is one); malformed JSON is a usage
 * error that says where.
 */
export function parseJsonInput(name: string, text: string, file?: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const { message, position } = jsonError(text, error as Error);
    throw new UsageError(
      `${name} is not valid JSON: ${message}`,
      file === undefined ? undefined : { file, ...position },
    );
  }
}

/**
 * V8 reports JSON errors by offset (newer versions add the line and column): say the line and column, in
 * UTF-8 bytes as everywhere in cfrules.
 */
function jsonError(text: string, error: Error): { message: string; position?: Position } {
  const match = /at position (\d+)/.exec(error.message);
  if (!match) return { message: error.message };
  const { line, column } = spanOf(text, Number(match[1]), Number(match[1]));
  const position = { line, column };
  if (/line \d+/.test(error.message)) return { message: error.message, position };
  return { message: `${error.message} (line ${line}, column ${column})`, position };
}

/**
 * The files under the directory `path` whose names end with one of `extensions` (`.json`), at any depth,
 * in a stable order (names sorted by code unit, each directory's files where its name sorts); undefined
 * when `path` is not a directory. `node_modules` and directories whose names start with `.` (`.git`) are
 * skipped: they hold other people's files.
 */
export function filesUnder(io: CliIo, path: string, extensions: readonly string[]): string[] | undefined {
  if (path === '-' || io.listDirectory?.(path) === undefined) return undefined;
  const files: string[] = [];
  const walk = (directory: string, depth: number) => {
    // A symbolic link back to a parent would recurse forever.
    if (depth > MAX_DEPTH)
      throw new UsageError(
        `cannot read ${directory}: more than ${MAX_DEPTH} directories deep (a symbolic link to a parent directory?)`,
        {
          file: directory,
        },
      );
    const entries = [...(io.listDirectory?.(directory) ?? [])].sort(byCodeUnit);
    for (const entry of entries) {
      const child = `${directory.replace(/\/+$/, '')}/${entry}`;
      if (io.listDirectory?.(child) !== undefined) {
        if (entry !== 'node_modules' && !entry.startsWith('.')) walk(child, depth + 1);
      } else if (extensions.some((extension) => entry.toLowerCase().endsWith(extension))) {
        files.push(child);
      }
    }
  };
  walk(path, 0);
  return files;
}

const MAX_DEPTH = 64;

/** The usage error of a directory that holds none of the files a command reads. */
export function noFilesUnder(path: string, extensions: readonly string[]): UsageError {
  const names =
    extensions.length > 1 ? `${extensions.slice(0, -1).join(', ')} or ${extensions.at(-1)}` : extensions[0];
  return new UsageError(`${path} holds no ${names} file`, { file: path });
}

/** Plain code-unit order: the same on every machine, whatever its locale. */
const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Editors end files with a newline; it is not part of the expression. */
export function stripFinalNewline(text: string): string {
  return text.replace(/\r?\n$/, '');
}
