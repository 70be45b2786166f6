// Syntax tree (the parts of regex-syntax's AST that the checks and the RE2 translation need)

import { type Span, span } from './errors.js';

export type LiteralForm = 'verbatim' | 'escaped' | 'hexByte' | 'hex';
export interface LiteralNode {
  type: 'literal';
  span: Span;
  /** The code point. */
  c: number;
  /** `hexByte` is a two-digit `\xHH`: the only literal that means a raw byte in byte mode. */
  form: LiteralForm;
}
export interface DotNode {
  type: 'dot';
  span: Span;
}
export type AssertionKind =
  | 'startLine'
  | 'endLine'
  | 'startText'
  | 'endText'
  | 'word'
  | 'notWord'
  | 'wordStart'
  | 'wordEnd'
  | 'wordStartHalf'
  | 'wordEndHalf'
  | 'wordStartAngle'
  | 'wordEndAngle';
export interface AssertionNode {
  type: 'assertion';
  span: Span;
  kind: AssertionKind;
}
export interface UnicodeNode {
  type: 'unicode';
  span: Span;
  negated: boolean;
  /** `\pL` has the name `L`; `\p{sc=Greek}` the name `sc` and the value `Greek`. */
  name: string;
  value?: string;
  notEqual: boolean;
  oneLetter: boolean;
}
export interface PerlNode {
  type: 'perl';
  span: Span;
  letter: 'd' | 's' | 'w';
  negated: boolean;
}
export type Primitive = LiteralNode | DotNode | AssertionNode | UnicodeNode | PerlNode;

export interface RangeNode {
  type: 'range';
  span: Span;
  start: LiteralNode;
  end: LiteralNode;
}
export interface AsciiNode {
  type: 'ascii';
  span: Span;
  name: string;
  negated: boolean;
}
export interface UnionNode {
  type: 'union';
  span: Span;
  items: ClassItem[];
}
export interface EmptyNode {
  type: 'empty';
  span: Span;
}
export interface BracketedNode {
  type: 'bracketed';
  span: Span;
  negated: boolean;
  set: ClassSet;
}
export interface SetOpNode {
  type: 'setop';
  span: Span;
  lhs: ClassSet;
  rhs: ClassSet;
}
export type ClassItem =
  | LiteralNode
  | UnicodeNode
  | PerlNode
  | RangeNode
  | AsciiNode
  | UnionNode
  | EmptyNode
  | BracketedNode;
export type ClassSet = ClassItem | SetOpNode;

/** A flag letter (`imsUuRx`) or `-`. */
export interface FlagItem {
  span: Span;
  flag: string;
}
export interface FlagsNode {
  type: 'flags';
  span: Span;
  items: FlagItem[];
}
export interface RepetitionNode {
  type: 'repetition';
  span: Span;
  opSpan: Span;
  op: '?' | '*' | '+' | 'exactly' | 'atLeast' | 'bounded';
  min: number;
  max: number | undefined;
  greedy: boolean;
  sub: Ast;
}
export interface GroupNode {
  type: 'group';
  span: Span;
  capturing: boolean;
  flags?: FlagItem[];
  sub: Ast;
}
export interface AlternationNode {
  type: 'alternation';
  span: Span;
  subs: Ast[];
}
export interface ConcatNode {
  type: 'concat';
  span: Span;
  subs: Ast[];
}
export type Ast =
  | Primitive
  | EmptyNode
  | FlagsNode
  | BracketedNode
  | RepetitionNode
  | GroupNode
  | AlternationNode
  | ConcatNode;

/** A concatenation being built; becomes empty, its only item, or a concat node. */
export interface Sequence {
  span: Span;
  subs: Ast[];
}

export function sequenceToAst(seq: Sequence): Ast {
  if (seq.subs.length === 0) return { type: 'empty', span: seq.span };
  if (seq.subs.length === 1) return seq.subs[0];
  return { type: 'concat', span: seq.span, subs: seq.subs };
}

export function unionToItem(union: UnionNode): ClassItem {
  if (union.items.length === 0) return { type: 'empty', span: union.span };
  if (union.items.length === 1) return union.items[0];
  return union;
}

export function pushToUnion(union: UnionNode, item: ClassItem): void {
  if (union.items.length === 0) union.span = span(item.span.start, union.span.end);
  union.span = span(union.span.start, item.span.end);
  union.items.push(item);
}
