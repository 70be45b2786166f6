// The library's public API. Later layers (check, eval, engine) add to it.
export type * from './lang/ast.js';
export { type Diagnostic, formatDiagnostic, type Severity } from './lang/diagnostics.js';
export type { FormatOptions } from './lang/format.js';
export { type ParseOptions, type ParseResult, parse } from './lang/parse.js';
export { ExpressionSyntaxError, format } from './lang/source.js';
