import type { Expression } from './ast.js';
import { type Diagnostic, formatDiagnostic } from './diagnostics.js';
import { type FormatOptions, formatExpression } from './format.js';
import { parse } from './parse.js';

/** Thrown by `format` when given source text that does not parse; carries the diagnostics. */
export class ExpressionSyntaxError extends Error {
  constructor(
    readonly source: string,
    readonly diagnostics: Diagnostic[],
  ) {
    super(diagnostics.map((d) => formatDiagnostic(source, d)).join(''));
    this.name = 'ExpressionSyntaxError';
  }
}

/**
 * Prints an expression in canonical form. Source text is parsed first; if it has a syntax error an
 * `ExpressionSyntaxError` is thrown (nothing sensible can be printed for it).
 */
export function format(sourceOrAst: string | Expression, options?: FormatOptions): string {
  if (typeof sourceOrAst !== 'string') return formatExpression(sourceOrAst, options);
  const { ast, diagnostics } = parse(sourceOrAst);
  if (!ast) throw new ExpressionSyntaxError(sourceOrAst, diagnostics);
  return formatExpression(ast, options);
}
