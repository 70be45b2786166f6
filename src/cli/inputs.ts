import { formatDiagnostic } from '../lang/diagnostics.js';
import type { ParseResult } from '../lang/parse.js';
import { type CliIo, UsageError } from './command.js';

/** One expression to work on, with a name for messages. */
export interface ExpressionInput {
  name: string;
  /** The file it came from, when it came from a file (for --write). */
  path?: string;
  source: string;
}

/**
 * Expressions come from `-e/--expression` options, from files (each file holds one expression, which may
 * span several lines), or from standard input when the only file is `-`.
 */
export function collectInputs(files: string[], expressions: string[], io: CliIo): ExpressionInput[] {
  const inputs: ExpressionInput[] = expressions.map((source, i) => ({
    name: expressions.length > 1 ? `<expression ${i + 1}>` : '<expression>',
    source,
  }));
  for (const file of files) {
    if (file === '-') {
      inputs.push({ name: '<stdin>', source: io.readStdin() });
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
export function reportDiagnostics(input: ExpressionInput, result: ParseResult, io: CliIo): void {
  for (const diagnostic of result.diagnostics) {
    io.stderr(`${input.name}:${diagnostic.span.line}:${diagnostic.span.column}: ${diagnostic.code}\n`);
    io.stderr(formatDiagnostic(input.source, diagnostic));
    if (diagnostic.hint) io.stderr(`hint: ${diagnostic.hint}\n`);
  }
}
