import { isUtf8 } from 'node:buffer';
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
    const { code, message } = error as NodeJS.ErrnoException;
    throw new UsageError(`cannot read ${path}: ${(code && reasons[code]) ?? code ?? message}`);
  }
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

/** The error for an input that is not text, once for the whole input, at its first byte that is not. */
export function binaryFileError(name: string, at: NotText): UsageError {
  const byte = `0x${at.byte.toString(16).padStart(2, '0')}`;
  const what = at.byte === 0 ? `a NUL byte (${byte})` : `byte ${byte}, which is not UTF-8`;
  return new UsageError(
    `${name}:${at.line}:${at.column}: error[binary-file]: a binary file, not text: ${what}; cfrules reads UTF-8 text`,
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
