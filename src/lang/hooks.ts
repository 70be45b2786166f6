import type { Argument, ComparisonExpression, ComparisonOperator, Span, ValueExpression } from './ast.js';
import type { Diagnostic } from './diagnostics.js';

/**
 * Callbacks through which a type checker follows the parse, as the reference engine type-checks while it
 * parses: errors then come in the order of the text (an unknown field is reported before a later syntax
 * error), and literals are read by the left side's type. The parser itself knows no types.
 *
 * A hook returns nothing to go on, a diagnostic to stop the parse with, or a literal's true end to have
 * the text lexed again (see `LiteralEnds`).
 */
export type HookVerdict = Diagnostic | LiteralEndCorrection | undefined;

/** The unquoted literal starting at `start` really ends at `end`: lex again from there. */
export interface LiteralEndCorrection {
  kind: 'literal-end';
  start: number;
  end: number;
}

export interface ParseHooks {
  /** A value (a field, a call, an index chain) is complete. */
  value?(value: ValueExpression): HookVerdict;
  /** A call to `name` (spelt at `nameSpan`) opens, before its arguments are read. */
  call?(name: string, nameSpan: Span): HookVerdict;
  /** Argument number `args.length - 1` of a call to `name` (spelt at `nameSpan`) is complete. */
  argument?(name: string, nameSpan: Span, args: readonly Argument[]): HookVerdict;
  /** A comparison operator follows `lhs`; its right-hand side starts at offset `rhsStart`. */
  operator?(lhs: ValueExpression, op: ComparisonOperator, opSpan: Span, rhsStart: number): HookVerdict;
  /** A comparison is complete (its literal extents may be checked here). */
  comparison?(comparison: ComparisonExpression): HookVerdict;
  /** A value stands alone as a condition (it must be a Bool). */
  predicate?(value: ValueExpression): HookVerdict;
  /** Whether a value is a Bool, for the wording of errors after it; undefined when unknown. */
  isBoolValue?(value: ValueExpression): boolean | undefined;
}

/** Thrown from grammar actions when a hook stops the parse. */
export class HookStop extends Error {
  constructor(readonly verdict: Diagnostic | LiteralEndCorrection) {
    super('parse stopped by a hook');
  }
}

export function isCorrection(verdict: HookVerdict): verdict is LiteralEndCorrection {
  return verdict !== undefined && 'kind' in verdict && verdict.kind === 'literal-end';
}
