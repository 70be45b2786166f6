import type { Expression } from '../lang/ast.js';
import { parse } from '../lang/parse.js';
import type { Token } from './args.js';
import { type CliIo, UsageError } from './command.js';
import { filesUnder, noFilesUnder, readInputFile, stdinReader, stripFinalNewline } from './files.js';
import { commandMessage } from './messages.js';
import { formatFinding } from './report.js';
import { type ExpressionEntry, expressionEntry, isJsonText, readRuleFile } from './rule-files.js';

/**
 * What the commands that work on expressions (validate, fmt, parse) read, in one place so that they all
 * read the same things the same way:
 *
 * - `expression`: an expression given on the command line; `-` reads one from standard input;
 * - `expression-file`: a file holding one expression, which may span lines (the FILE arguments of fmt and
 *   parse), or JSON rules (no expression starts with `[` or `{`);
 * - `rule-file`: `--file`, a text file of expressions one per line (`#` comments), or JSON rules as the
 *   Cloudflare API returns them.
 */
export type InputSource = { type: 'expression' | 'expression-file' | 'rule-file'; value: string };

/** One input as read: its text and the expressions in it. */
export interface InputDocument {
  name: string;
  /** The file it came from (not set for command-line expressions and standard input). */
  path?: string;
  text: string;
  entries: ExpressionEntry[];
  /** The whole text is one expression (fmt prints it, and writes it back, with one final line break). */
  single: boolean;
}

/** What `--file DIR` reads in a directory: the two kinds of rules file, text and JSON. */
export const RULE_FILE_EXTENSIONS = ['.txt', '.json'] as const;

/**
 * Reads every input, in command-line order, before any is used: a file that cannot be read (or JSON that
 * cfrules does not understand) stops the command before it reports anything. A `--file` that is a directory
 * stands for its rules files (`filesUnder`); one without any is a usage error, or with `emptyDirectories`
 * an input without expressions (validate's `--allow-empty` decides).
 */
export function readInputs(
  sources: InputSource[],
  io: CliIo,
  kind: 'filter' | 'rewrite',
  readStdin = stdinReader(io),
  emptyDirectories = false,
): InputDocument[] {
  const literal = (source: InputSource) => source.type === 'expression' && source.value !== '-';
  const numbered = sources.filter(literal).length > 1;
  let n = 0;
  const expanded = sources.flatMap((source): (InputSource | InputDocument)[] => {
    if (source.type !== 'rule-file') return [source];
    const files = filesUnder(io, source.value, RULE_FILE_EXTENSIONS);
    if (files === undefined) return [source];
    if (files.length > 0) return files.map((file) => ({ type: 'rule-file', value: file }));
    if (!emptyDirectories) throw noFilesUnder(source.value, RULE_FILE_EXTENSIONS);
    return [{ name: source.value, path: source.value, text: '', entries: [], single: false }];
  });
  return expanded.map((source): InputDocument => {
    if (!('type' in source)) return source;
    if (literal(source)) {
      n++;
      const name = numbered ? `<expression ${n}>` : '<expression>';
      return single(name, undefined, source.value, kind);
    }
    const stdin = source.value === '-';
    const name = stdin ? '<stdin>' : source.value;
    const path = stdin ? undefined : source.value;
    const text = readInputFile(io, source.value, readStdin);
    if (source.type === 'rule-file' || (source.type === 'expression-file' && isJsonText(text))) {
      const entries = readRuleFile(name, path, text);
      // --rewrite applies to text files; JSON rules say themselves which of their expressions are rewrites.
      for (const entry of entries) if (entry.rule === undefined) entry.kind = kind;
      return { name, path, text, entries, single: false };
    }
    return single(name, path, text, kind);
  });
}

function single(
  name: string,
  path: string | undefined,
  text: string,
  kind: 'filter' | 'rewrite',
): InputDocument {
  const expression = stripFinalNewline(text);
  const entry = { ...expressionEntry(name, expression, kind), path };
  entry.written = { start: 0, end: expression.length, json: false };
  return { name, path, text, entries: [entry], single: true };
}

/** The expressions of every document, in order. */
export const entriesOf = (documents: InputDocument[]): ExpressionEntry[] =>
  documents.flatMap((d) => d.entries);

/**
 * Parses each expression; reports syntax errors on standard error, hands valid trees to `use`. Returns the
 * exit status: 1 if any expression had a syntax error or `use` said so, else 0.
 */
export function forEachExpression(
  documents: InputDocument[],
  io: CliIo,
  command: string,
  use: (entry: ExpressionEntry, ast: Expression) => number,
): number {
  let status = 0;
  for (const document of documents) {
    for (const entry of document.entries) {
      const result = parse(entry.expression);
      if (result.ast) {
        status = Math.max(status, use(entry, result.ast));
        continue;
      }
      for (const diagnostic of result.diagnostics) io.stderr(formatFinding(entry, diagnostic));
      if (document.single && document.path !== undefined && looksLikeRuleFile(document.text))
        io.stderr(
          commandMessage(
            command,
            `note: ${document.name} was read as one expression; for a file of expressions, one per line, ` +
              `use --file ${document.name}`,
          ),
        );
      status = 1;
    }
  }
  return status;
}

/** `#` comments, or several lines that are each an expression: what `--file` reads. */
export function looksLikeRuleFile(text: string): boolean {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  if (lines.some((line) => line.trimStart().startsWith('#'))) return true;
  return lines.length > 1 && lines.every((line) => parse(line).ast !== undefined);
}

/**
 * The inputs of a command line, in order: `-e` values and `--file` paths, and the arguments, which are
 * expressions for validate and files for fmt and parse (`-` is standard input either way).
 */
export function inputSources(tokens: Token[], argument: 'expression' | 'expression-file'): InputSource[] {
  const sources: InputSource[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional')
      sources.push({ type: token.value === '-' ? 'expression' : argument, value: token.value });
    else if (token.name === 'expression') sources.push({ type: 'expression', value: token.value ?? '' });
    else if (token.name === 'file') sources.push({ type: 'rule-file', value: token.value ?? '' });
  }
  if (sources.length === 0) {
    const what = argument === 'expression' ? 'expressions' : 'files';
    throw new UsageError(`no expression given: pass ${what}, -e EXPR, --file PATH, or - for standard input`);
  }
  return sources;
}

/** The options every command that reads expressions has. */
export const inputOptions = {
  expression: { type: 'string', short: 'e', multiple: true },
  file: { type: 'string', short: 'f', multiple: true },
} as const;
