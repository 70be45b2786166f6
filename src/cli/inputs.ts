import type { Expression } from '../lang/ast.js';
import { parse } from '../lang/parse.js';
import { type HclParser, loadHclParser } from '../terraform/parser.js';
import type { Token } from './args.js';
import { type CliIo, UsageError } from './command.js';
import { filesUnder, noFilesUnder, readInputFile, stdinReader, stripFinalNewline } from './files.js';
import { commandMessage } from './messages.js';
import { formatFinding } from './report.js';
import { type ExpressionEntry, expressionEntry, isJsonText, readRuleFile } from './rule-files.js';
import { isTerraformPath, namesTerraform, readTerraformFile } from './terraform-files.js';

/**
 * What the commands that work on expressions (validate, fmt, parse) read, in one place so that they all
 * read the same things the same way:
 *
 * - `expression`: an expression given on the command line; `-` reads one from standard input;
 * - `expression-file`: a file holding one expression, which may span lines (the FILE arguments of fmt and
 *   parse), or JSON rules (no expression starts with `[` or `{`);
 * - `rule-file`: `--file`, a text file of expressions one per line (`#` comments), JSON rules as the
 *   Cloudflare API returns them, or a Terraform file (`.tf`).
 *
 * An argument that names a directory, a `.tf` file or a `.cfrules` file is read as `--file` reads it.
 */
export type InputSource = {
  type: 'expression' | 'expression-file' | 'rule-file';
  value: string;
  /** A positional argument (not `-e` or `--file`). */
  argument?: boolean;
};

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

/**
 * What `--file DIR` reads in a directory: the kinds of rules file, text (`.txt`, `.cfrules`), JSON and
 * Terraform.
 */
export const RULE_FILE_EXTENSIONS = ['.txt', '.cfrules', '.json', '.tf'] as const;

/** Files read one expression per line whatever their content (the other kinds are read by content). */
const isExpressionsPath = (path: string): boolean => path.toLowerCase().endsWith('.cfrules');

/**
 * Whether an argument is to be read as `--file` reads it: a directory, or a file whose name says it holds
 * rules (`.tf`, `.cfrules`) and that exists, so that `cfrules validate infra/` and a pre-commit hook, which
 * passes file names as arguments, check files. An expression never names an existing directory or file.
 */
function namesRuleFile(io: CliIo, source: InputSource): boolean {
  if (source.type === 'rule-file' || source.value === '-' || !source.argument) return false;
  // An expression is no file name: the file system may refuse to look it up (ENAMETOOLONG for a long one).
  try {
    if (io.listDirectory?.(source.value) !== undefined) return true;
    if (!isTerraformPath(source.value) && !isExpressionsPath(source.value)) return false;
    if (source.type === 'expression-file') return true;
    io.readFile(source.value);
    return true;
  } catch {
    return false;
  }
}

/**
 * The sources with each argument that names a rules file (see namesRuleFile) made a `--file`; with
 * `files`, every argument is one (validate --files, for hooks that pass JSON files as arguments).
 */
export function resolveSources(sources: InputSource[], io: CliIo, files = false): InputSource[] {
  return sources.map((source) =>
    (files && source.argument && source.value !== '-') || namesRuleFile(io, source)
      ? { type: 'rule-file', value: source.value }
      : source,
  );
}

/**
 * The HCL parser, loading, when a source is or holds a Terraform file (it loads asynchronously, once);
 * undefined otherwise, so that a command that reads no `.tf` file stays synchronous and pays nothing.
 */
export function hclParserFor(sources: InputSource[], io: CliIo): Promise<HclParser> | undefined {
  const paths = sources.filter((source) => source.type === 'rule-file').map((source) => source.value);
  return namesTerraform(io, paths, RULE_FILE_EXTENSIONS) ? loadHclParser() : undefined;
}

/** Runs `use` with the parser the sources need: at once when they need none. */
export function withHclParser(
  sources: InputSource[],
  io: CliIo,
  use: (parser: HclParser | undefined) => number | Promise<number>,
): number | Promise<number> {
  const loading = hclParserFor(sources, io);
  return loading === undefined ? use(undefined) : loading.then(use);
}

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
  hcl?: HclParser,
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
    const ruleFile = source.type === 'rule-file' && path !== undefined;
    if (ruleFile && isTerraformPath(path)) {
      // The commands that read Terraform load the parser when their sources name a .tf file (hclParserFor).
      if (!hcl) throw new UsageError(`${path}: this command does not read Terraform files`, { file: path });
      return { name, path, text, entries: readTerraformFile(name, path, text, hcl), single: false };
    }
    if (ruleFile && isExpressionsPath(path)) {
      const entries = readRuleFile(name, path, text, true);
      for (const entry of entries) entry.kind = kind;
      return { name, path, text, entries, single: false };
    }
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
      if (entry.unchecked !== undefined) continue; // Terraform computes it: nothing to parse
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
      sources.push({
        type: token.value === '-' ? 'expression' : argument,
        value: token.value,
        argument: true,
      });
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
