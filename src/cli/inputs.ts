import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { Expression } from '../lang/ast.js';
import { formatDiagnostic } from '../lang/diagnostics.js';
import { type ParseResult, parse } from '../lang/parse.js';
import { type CliIo, UsageError } from './command.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * Parses the command line of a command that works on expressions: its own options plus the shared
 * `-e/--expression`, with files as positionals. Returns the option values and the collected inputs.
 */
export function parseExpressionCommand<T extends Options>(args: string[], options: T, io: CliIo) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { ...options, expression: { type: 'string', short: 'e', multiple: true } },
  });
  const expressions = (values as { expression?: string[] }).expression ?? [];
  return { values, inputs: collectInputs(positionals, expressions, io) };
}

/**
 * Parses each input; reports syntax errors, hands valid trees to `use`. Returns the exit status: 1 if
 * any input had a syntax error or `use` said so, else 0.
 */
export function forEachExpression(
  inputs: ExpressionInput[],
  io: CliIo,
  use: (input: ExpressionInput, ast: Expression) => number,
): number {
  let status = 0;
  for (const input of inputs) {
    const result = parse(input.source);
    if (result.ast) {
      status = Math.max(status, use(input, result.ast));
    } else {
      reportDiagnostics(input, result, io);
      status = 1;
    }
  }
  return status;
}

/** One expression to work on, with a name for messages. */
export interface ExpressionInput {
  name: string;
  /** The file it came from, when it came from a file (for --write). */
  path?: string;
  source: string;
}

/**
 * Expressions come from `-e/--expression` options, from files (each file holds one expression, which may
 * span several lines), or from standard input for a file named `-`.
 */
function collectInputs(files: string[], expressions: string[], io: CliIo): ExpressionInput[] {
  const inputs: ExpressionInput[] = expressions.map((source, i) => ({
    name: expressions.length > 1 ? `<expression ${i + 1}>` : '<expression>',
    source,
  }));
  for (const file of files) {
    if (file === '-') {
      inputs.push({ name: '<stdin>', source: stripFinalNewline(io.readStdin()) });
      continue;
    }
    let source: string;
    try {
      source = io.readFile(file);
    } catch (error) {
      throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    inputs.push({ name: file, path: file, source: stripFinalNewline(source) });
  }
  if (inputs.length === 0)
    throw new UsageError('no expression given: pass files, - for standard input, or -e EXPR');
  return inputs;
}

/** Editors end files with a newline; it is not part of the expression. */
function stripFinalNewline(text: string): string {
  return text.replace(/\r?\n$/, '');
}

/** Prints a failed parse the way Cloudflare does, preceded by where the expression came from. */
function reportDiagnostics(input: ExpressionInput, result: ParseResult, io: CliIo): void {
  for (const diagnostic of result.diagnostics) {
    io.stderr(`${input.name}:${diagnostic.span.line}:${diagnostic.span.column}: ${diagnostic.code}\n`);
    io.stderr(formatDiagnostic(input.source, diagnostic));
    if (diagnostic.hint) io.stderr(`hint: ${diagnostic.hint}\n`);
  }
}
