import type {
  ComparisonOperator,
  IndexSelector,
  LogicalOperator,
  QuantifierExpression,
  Span,
} from '../lang/ast.js';
import type { FunctionDefinition, LiteralValue } from '../scheme/functions.js';
import type { IpAddress, IpRange } from '../scheme/ip.js';
import type { FieldDefinition, ListDefinition } from '../scheme/scheme.js';
import type { Type } from '../scheme/types.js';

/**
 * The checked tree: every value carries its type and what its name resolved to, and every literal is
 * read by the type it is compared with. This is what the evaluator compiles.
 *
 * A `mapped` value comes from `[*]`: it yields one value per element, so a comparison on it yields an
 * Array<Bool>. Its `type` is the type of each element.
 */
export type TypedExpression = TypedLogical | TypedNot | TypedQuantifier | TypedComparison | TypedPredicate;

/** `Bool`, or `Array<Bool>` for expressions over `[*]` (only inside any/all and function arguments). */
export type ExpressionType = 'Bool' | { array: 'Bool' };

export interface TypedLogical {
  kind: 'logical';
  op: LogicalOperator;
  operands: TypedExpression[];
  type: ExpressionType;
  span: Span;
}

export interface TypedNot {
  kind: 'not';
  operand: TypedExpression;
  type: ExpressionType;
  span: Span;
}

export interface TypedQuantifier {
  kind: 'quantifier';
  quantifier: QuantifierExpression['quantifier'];
  operand: TypedExpression;
  type: 'Bool';
  span: Span;
}

export interface TypedComparison {
  kind: 'comparison';
  lhs: TypedValue;
  op: ComparisonOperator;
  /** Where the operator is spelt. */
  opSpan: Span;
  rhs: TypedRhs;
  type: ExpressionType;
  span: Span;
}

/** A Bool value used as a condition; in a rewrite expression, the root value itself. */
export interface TypedPredicate {
  kind: 'predicate';
  value: TypedValue;
  type: Type;
  span: Span;
}

export type TypedValue = TypedField | TypedCall | TypedIndex;

export interface TypedField {
  kind: 'field';
  name: string;
  definition: FieldDefinition;
  type: Type;
  mapped: false;
  span: Span;
}

export interface TypedCall {
  kind: 'call';
  name: string;
  definition: FunctionDefinition;
  args: TypedArgument[];
  /** The first argument is mapped: the function runs per element and returns an Array. */
  perElement: boolean;
  type: Type;
  mapped: false;
  span: Span;
}

export interface TypedIndex {
  kind: 'index';
  target: TypedValue;
  index: IndexSelector;
  type: Type;
  mapped: boolean;
  span: Span;
}

/** A literal function argument, read as IP, Int or Bytes like the reference engine does. */
export interface TypedLiteralArgument {
  kind: 'literal';
  value: LiteralValue;
  /** The IP address, for Ip literals. */
  address?: IpAddress;
  type: 'Bytes' | 'Int' | 'Ip';
  span: Span;
}

export type TypedArgument = TypedValue | TypedExpression | TypedLiteralArgument;

export type TypedRhs =
  | { kind: 'bytes'; value: string; span: Span }
  | { kind: 'int'; value: bigint; span: Span }
  | { kind: 'ip'; value: IpAddress; span: Span }
  | { kind: 'regex'; pattern: string; raw: boolean; span: Span }
  | { kind: 'wildcard'; pattern: string; strict: boolean; span: Span }
  | { kind: 'bytes-set'; items: { value: string; span: Span }[]; span: Span }
  | { kind: 'int-set'; items: { from: bigint; to: bigint; span: Span }[]; span: Span }
  | { kind: 'ip-set'; items: (IpRange & { span: Span })[]; span: Span }
  | { kind: 'list'; name: string; list: ListDefinition; span: Span };
