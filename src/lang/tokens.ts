import { createToken, Lexer, type TokenType } from 'chevrotain';
import { comparisonLabel, logicalLabel } from './operators.js';

// Token types for the Chevrotain parser. The lexer (lexer.ts) is hand-written because the language is
// contextual (keywords match as prefixes, literals depend on the operator), so no patterns are given here.
// Labels are what the syntax diagrams (grammar/syntax-diagrams.html) show for each token.
const token = (name: string, label: string): TokenType => createToken({ name, label, pattern: Lexer.NA });

export const LParen = token('LParen', "'('");
export const RParen = token('RParen', "')'");
export const Comma = token('Comma', "','");
export const LBracket = token('LBracket', "'[' (no space before)");
export const RBracket = token('RBracket', "']'");
export const LBrace = token('LBrace', "'{'");
export const RBrace = token('RBrace', "'}'");
export const Star = token('Star', "'*'");
/** `not` or `!`. */
export const Not = token('Not', 'not | !');
/** `any` or `all` (only when an opening parenthesis follows). Payload: the quantifier. */
export const Quantifier = token('Quantifier', 'any | all');
export const Identifier = token('Identifier', 'name (a.b.c)');
// The operators' labels are their spellings, from the operator table.
/** `and &&`, `xor ^^`, `or ||`. Payload: the LogicalOperator. */
export const LogicalOp = token('LogicalOp', logicalLabel);
/** Operators taking one literal (eq, ne, …, contains, bitwise_and). Payload: the operator. */
export const ValueOp = token('ValueOp', comparisonLabel('value'));
/** Operators taking a pattern string: matches, wildcard, strict wildcard. Payload: the operator. */
export const PatternOp = token('PatternOp', comparisonLabel('regex', 'wildcard'));
/** Operators taking a set or a list name: in. Payload: the operator. */
export const In = token('In', comparisonLabel('set'));
/** A quoted or raw string. Payload: StringPayload. */
export const StringLit = token('StringLit', '"string" | r#"raw"#');
/** The string after `matches`. Payload: RegexPayload. */
export const RegexLit = token('RegexLit', '"regex" | r#"regex"#');
/** A neutral unquoted literal (number, IP, CIDR, range, byte string). */
export const BareLit = token('BareLit', 'number | range | IP | CIDR | bytes');
/** An array index inside brackets. Payload: the number. */
export const IndexNumber = token('IndexNumber', 'integer');
/** `$name`. Payload: the name without `$`. */
export const ListName = token('ListName', '$list_name');
/** Text the lexer could not read here. Payload: InvalidPayload. */
export const Invalid = token('Invalid', '(unreadable text)');

export const allTokens: TokenType[] = [
  LParen,
  RParen,
  Comma,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Star,
  Not,
  Quantifier,
  Identifier,
  LogicalOp,
  ValueOp,
  PatternOp,
  In,
  StringLit,
  RegexLit,
  BareLit,
  IndexNumber,
  ListName,
  Invalid,
];
