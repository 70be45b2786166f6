/**
 * The abstract syntax tree of a Rules-language expression.
 *
 * The parser knows no field types. Right-hand literals whose meaning depends on the left side's type
 * (numbers, IP addresses, CIDRs, ranges, byte strings) are `BareLiteral`s: their text, and the value a
 * type checker read them as while the text was lexed (ParseHooks.literal). Strings are decoded here
 * because their syntax does not depend on the type.
 *
 * Byte values (string contents, regex patterns, map keys) are "binary strings": one JS character per byte
 * (code units 0–255), UTF-8 for non-ASCII source text, so that lengths and comparisons are byte-exact.
 */

import type { ComparisonOperator, LogicalOperator } from './operators.js';

/** Where a node or diagnostic sits in the source text. */
export interface Span {
  /** Start offset in the source string (UTF-16 code units, usable with `slice`). */
  start: number;
  /** End offset (exclusive) in the source string. */
  end: number;
  /** 1-based line number. */
  line: number;
  /** 1-based column counted in UTF-8 bytes from the start of the line, as Cloudflare reports it. */
  column: number;
}

// ---- expressions (evaluate to Bool, or Array<Bool> under any/all) ----

export type Expression =
  | LogicalExpression
  | NotExpression
  | QuantifierExpression
  | ComparisonExpression
  | PredicateExpression;

// The operators' names come from their table (operators.ts), which says everything else about them too.
export type { ComparisonOperator, LogicalOperator };

/** `a and b and c`: runs of the same operator are flattened into one n-ary node (at least 2 operands). */
export interface LogicalExpression {
  kind: 'logical';
  op: LogicalOperator;
  operands: Expression[];
  span: Span;
}

export interface NotExpression {
  kind: 'not';
  operand: Expression;
  span: Span;
}

/** `any(…)` / `all(…)` over an Array<Bool>. */
export interface QuantifierExpression {
  kind: 'quantifier';
  quantifier: 'any' | 'all';
  /** Usually a comparison over `[*]` or a predicate over an Array<Bool> value. */
  operand: Expression;
  span: Span;
}

export interface ComparisonExpression {
  kind: 'comparison';
  lhs: ValueExpression;
  op: ComparisonOperator;
  rhs: RightHandSide;
  span: Span;
}

/** A value used as a condition by itself: a Bool field (`ssl`), a Bool function call, or `true`. */
export interface PredicateExpression {
  kind: 'predicate';
  value: ValueExpression;
  span: Span;
}

// ---- values (left-hand sides, function arguments) ----

export type ValueExpression = FieldReference | FunctionCall | IndexAccess;

/** A dotted name such as `http.request.uri.path`; whether it exists is the checker's business. */
export interface FieldReference {
  kind: 'field';
  name: string;
  span: Span;
}

export interface FunctionCall {
  kind: 'call';
  name: string;
  args: Argument[];
  span: Span;
}

/** `target[0]`, `target["key"]` or `target[*]`. */
export interface IndexAccess {
  kind: 'index';
  target: ValueExpression;
  index: IndexSelector;
  span: Span;
}

export type IndexSelector =
  | { kind: 'array-index'; index: number }
  | { kind: 'map-key'; key: string }
  | { kind: 'map-each' };

/**
 * A function argument: a literal, a value, a comparison, or (when it starts with `(`, `not`, `!`,
 * `any(` or `all(`) a whole logical expression.
 */
export type Argument = Expression | ValueExpression | StringLiteral | BareLiteral;

// ---- right-hand sides ----

export type RightHandSide = StringLiteral | RegexLiteral | BareLiteral | SetLiteral | ListReference;

/** `"…"` (escapes decoded) or `r#"…"#` (verbatim). `value` is a binary string. */
export interface StringLiteral {
  kind: 'string';
  value: string;
  raw: boolean;
  span: Span;
}

/**
 * The pattern after `matches` / `~`. A quoted regex keeps every escape for the regex engine except `\"`,
 * so `pattern` is what the regex engine sees (binary string).
 */
export interface RegexLiteral {
  kind: 'regex';
  pattern: string;
  raw: boolean;
  span: Span;
}

/**
 * An unquoted literal whose meaning depends on the left side's type: an integer (`80`, `-1`, `0x1f`,
 * `017`), an integer or IP range (`80..90`), an IP address, a CIDR, or a byte string (`01:02:03`).
 */
export interface BareLiteral {
  kind: 'bare';
  text: string;
  /**
   * The value a ParseHooks.literal hook read the literal as, by type (the checker's, opaque here); absent
   * when the text was parsed without one.
   */
  value?: unknown;
  span: Span;
}

/** `{ item item … }`: items are separated by whitespace. */
export interface SetLiteral {
  kind: 'set';
  items: (StringLiteral | BareLiteral)[];
  span: Span;
}

/** `$name`, e.g. `$cf.open_proxies`; `name` excludes the `$`. */
export interface ListReference {
  kind: 'list';
  name: string;
  span: Span;
}

export type Literal = StringLiteral | RegexLiteral | BareLiteral | SetLiteral | ListReference;

/** Any node of the tree. */
export type Node = Expression | ValueExpression | Literal;
