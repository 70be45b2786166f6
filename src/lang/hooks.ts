import type { Argument, ComparisonExpression, ComparisonOperator, Span, ValueExpression } from './ast.js';
import type { Diagnostic } from './diagnostics.js';
import type { LexProblem } from './lexer.js';

/**
 * Callbacks through which a type checker follows the parse, as the reference engine type-checks while it
 * parses: errors then come in the order of the text (an unknown field is reported before a later syntax
 * error), and literals are read by the left side's type. The parser itself knows no types.
 *
 * A hook returns nothing to go on, or a diagnostic to stop the parse with.
 */
export type HookVerdict = Diagnostic | undefined;

/**
 * Where an unquoted literal (or any right-hand-side literal) stands when the lexer reaches it:
 * - `rhs`: the one literal after `op` (eq, ne, lt…, contains, bitwise_and), compared with `lhs`;
 * - `set-item`: an item of the `{…}` after `lhs in`;
 * - `argument`: a function argument that is not a name.
 */
export type LiteralPlace =
  | { kind: 'rhs'; lhs: ValueExpression; op: ComparisonOperator }
  | { kind: 'set-item'; lhs: ValueExpression }
  | { kind: 'argument' };

/**
 * A literal read by a hook: where it ends and its value (which the parser keeps on the literal's node
 * without looking at it), or why it cannot be read.
 */
export type LiteralReading = { value: unknown; end: number } | { problem: LexProblem };

export interface ParseHooks {
  /** A value (a field, a call, an index chain) is complete. */
  value?(value: ValueExpression): HookVerdict;
  /** A call to `name` (spelt at `nameSpan`) opens, before its arguments are read. */
  call?(name: string, nameSpan: Span): HookVerdict;
  /** Argument number `args.length - 1` of a call to `name` (spelt at `nameSpan`) is complete. */
  argument?(name: string, nameSpan: Span, args: readonly Argument[]): HookVerdict;
  /** A comparison operator follows `lhs`, before its right-hand side is read. */
  operator?(lhs: ValueExpression, op: ComparisonOperator, opSpan: Span): HookVerdict;
  /**
   * Reads the literal that starts at offset `start` of the text, as the reference engine reads it by the
   * type it is compared with: the lexer asks at the moment it reaches the literal, so the literal is read
   * once, with its true extent. Undefined leaves the literal to the lexer's neutral reading.
   */
  literal?(place: LiteralPlace, start: number): LiteralReading | undefined;
  /** A comparison is complete; its operator is spelt at `opSpan`. */
  comparison?(comparison: ComparisonExpression, opSpan: Span): HookVerdict;
  /** A value stands alone as a condition (it must be a Bool). */
  predicate?(value: ValueExpression): HookVerdict;
  /** Whether a value is a Bool, for the wording of errors after it; undefined when unknown. */
  isBoolValue?(value: ValueExpression): boolean | undefined;
}

/** Thrown from grammar actions when a hook stops the parse. */
export class HookStop extends Error {
  constructor(readonly verdict: Diagnostic) {
    super('parse stopped by a hook');
  }
}
