import { isUtf8 } from 'node:buffer';
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

/**
 * The text of the file `path`; `-` reads standard input, once per command (see `stdinReader`). A file that
 * is not text is refused as a whole (`binary-file`), rather than read as lines of garbage reported one by one.
 */
export function readInputFile(io: CliIo, path: string, readStdin: () => string): string {
  try {
    return path === '-' ? readStdin() : io.readFile(path);
  } catch (error) {
    if (error instanceof NotTextError) throw binaryFileError(path === '-' ? '<stdin>' : path, error.at);
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${path}: ${fileErrorReason(error)}`, { file: path });
  }
}

/** Why a file system call failed, in words (`no such file`), for `cannot read PATH: …` messages. */
export function fileErrorReason(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  return (code && reasons[code]) ?? code ?? message ?? String(error);
}

/** Where some bytes stop being text: the line and the column (in bytes, 1-based), and the byte. */
export interface NotText {
  line: number;
  column: number;
  byte: number;
}

/** Thrown by `decodeText` for bytes that are not text. */
export class NotTextError extends Error {
  constructor(readonly at: NotText) {
    super(`not text: byte 0x${at.byte.toString(16).padStart(2, '0')} at ${at.line}:${at.column}`);
  }
}

/** The text of a file's bytes, which must be UTF-8 without NUL bytes (see `notTextAt`). */
export function decodeText(bytes: Buffer): string {
  const at = notTextAt(bytes);
  if (at) throw new NotTextError(at);
  return bytes.toString('utf8');
}

/**
 * Where `bytes` stop being text, or undefined when they are text: the first NUL byte (which no text file
 * holds, and binary files, UTF-16 text among them, nearly always do) or the first byte that is not part of
 * a UTF-8 character. With `whole` false the bytes are the start of a stream, which may end in the middle
 * of a character: only its complete lines are checked for UTF-8.
 */
export function notTextAt(bytes: Uint8Array, whole = true): NotText | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const nul = buffer.indexOf(0);
  const checked = whole ? buffer : buffer.subarray(0, buffer.lastIndexOf(10) + 1);
  const invalid = isUtf8(checked) ? -1 : firstInvalidUtf8(checked);
  const at = nul < 0 ? invalid : invalid < 0 ? nul : Math.min(nul, invalid);
  if (at < 0) return undefined;
  let line = 1;
  let lineStart = 0;
  for (let i = buffer.indexOf(10); i >= 0 && i < at; i = buffer.indexOf(10, i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: at - lineStart + 1, byte: buffer[at] as number };
}

/**
 * The offset of the first byte of `buffer` that is not UTF-8, -1 if none. Decoding replaces each invalid
 * sequence by U+FFFD and keeps everything before it exact, so the first U+FFFD that the bytes do not spell
 * (EF BF BD) is where they go wrong.
 */
function firstInvalidUtf8(buffer: Buffer): number {
  const text = buffer.toString('utf8');
  let offset = 0;
  let from = 0;
  for (let i = text.indexOf('\uFFFD'); i >= 0; i = text.indexOf('\uFFFD', i + 1)) {
    offset += Buffer.byteLength(text.slice(from, i));
    from = i;
    if (buffer[offset] !== 0xef || buffer[offset + 1] !== 0xbf || buffer[offset + 2] !== 0xbd) return offset;
  }
  return -1;
}

/** The file an input is, or undefined for the inputs that are none (`<stdin>`, `<expression>`). */
export const fileOfInput = (name: string): string | undefined => (name.startsWith('<') ? undefined : name);

/** The error for an input that is not text, once for the whole input, at its first byte that is not. */
export function binaryFileError(name: string, at: NotText): UsageError {
  const byte = `0x${at.byte.toString(16).padStart(2, '0')}`;
  const what = at.byte === 0 ? `a NUL byte (${byte})` : `byte ${byte}, which is not UTF-8`;
  return new UsageError(
    `${name}:${at.line}:${at.column}: error[binary-file]: a binary file, not text: ${what}; cfrules reads UTF-8 text`,
    fileOfInput(name) === undefined ? undefined : { file: name, line: at.line, column: at.column },
    'binary-file',
  );
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
