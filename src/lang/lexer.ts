import type { IToken, TokenType } from 'chevrotain';
import {
  type DiagnosticCode,
  type Hint,
  type HintOf,
  hint,
  type Message,
  type MessageOf,
  message,
} from './catalogue.js';
import { commaInSetHint } from './comma-in-set.js';
import type { LiteralReading } from './hooks.js';
import {
  isHexDigit,
  isValidUtf8,
  type ScanProblem,
  type ScanResult,
  scanArrayIndex,
  scanBareLiteral,
  scanListName,
  scanQuotedRegex,
  scanQuotedString,
  scanRawString,
} from './literals.js';
import { matchComparison, matchLogical } from './operators.js';
import { PositionTracker } from './position.js';
import * as T from './tokens.js';

/**
 * A contextual lexer, like the reference engine's: what a piece of text means depends on where it stands.
 * `andt` after a value is `and t`, `nott` at the start of an operand is `not t`, the string after
 * `matches` follows regex rules, and unquoted literals are read only where a literal may stand. The lexer
 * therefore tracks a small state (what may come next) and a stack of open parentheses. It stops at the
 * first text it cannot read and emits an `Invalid` token there; the parser reports the error, using the
 * lexer's own message when the lexer had one.
 */

export const MAX_NESTING_DEPTH = 128;

export interface StringPayload {
  value: string;
  raw: boolean;
}

export interface RegexPayload {
  pattern: string;
  raw: boolean;
}

export interface InvalidPayload {
  /** The lexer's diagnosis; absent when the parser knows better what was expected. */
  problem?: LexProblem;
  /** The text follows a value (field, call, index) that is not a function argument. */
  afterValue: boolean;
  /** After a value: the word the text starts with, if it does (a misspelt operator, `contians`). */
  word?: string;
}

/** A word of letters, digits and underscores, as operators and names are written. */
const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;

/** A problem found by the lexer, with the hint it has for it. */
export type LexProblem = ScanProblem & { hint?: Hint };

/** A token with the end offset (exclusive) that the parser uses for spans. */
export interface Token extends IToken {
  end: number;
}

export interface LexResult {
  tokens: Token[];
  /** Offsets of the trimmed input: Cloudflare trims white space at both ends before parsing. */
  start: number;
  end: number;
}

enum State {
  /** Where an operand starts: `(`, `not`, `any(`, a field or call, or (as an argument) a literal. */
  Operand,
  /** After a field, a call or an index: `[`, a comparison operator, or what may follow an operand. */
  AfterValue,
  /** After a complete operand: a logical operator, `)`, `,`, or the end. */
  AfterOperand,
  /** After eq/ne/lt/…/contains/bitwise_and: one literal. */
  ValueRhs,
  /** After matches, wildcard, strict wildcard: a quoted or raw string. */
  PatternRhs,
  /** After `in`: a set or a list name. */
  InRhs,
  /** Inside `{…}`. */
  SetItem,
  /** After `[`. */
  IndexValue,
  /** After the index value: `]`. */
  IndexEnd,
}

type ParenKind = 'group' | 'call' | 'quantifier';

interface OpenParen {
  kind: ParenKind;
  /** For a call: whether the call itself is a function argument (restored when it closes). */
  valueIsArgument: boolean;
}

/** White space between tokens: only space, CR and LF (not tabs), as in the reference engine. */
export const isSpace = (unit: number): boolean => unit === 0x20 || unit === 0x0a || unit === 0x0d;
const isIdentifierChar = (unit: number): boolean =>
  (unit >= 0x61 && unit <= 0x7a) ||
  (unit >= 0x41 && unit <= 0x5a) ||
  (unit >= 0x30 && unit <= 0x39) ||
  unit === 0x5f;

/** White space as Rust's `str::trim` understands it (Unicode White_Space). */
function isTrimmable(unit: number): boolean {
  return (
    (unit >= 0x09 && unit <= 0x0d) ||
    unit === 0x20 ||
    unit === 0x85 ||
    unit === 0xa0 ||
    unit === 0x1680 ||
    (unit >= 0x2000 && unit <= 0x200a) ||
    unit === 0x2028 ||
    unit === 0x2029 ||
    unit === 0x202f ||
    unit === 0x205f ||
    unit === 0x3000
  );
}

/**
 * Reads a literal by type where the lexer reaches one: the parser answers with the left side it is
 * compared with (ParseHooks.literal). The type decides the extent: `01:02and ssl` is two bytes followed by
 * `and` for a Bytes field. Undefined: read it neutrally.
 */
export type LiteralReader = (
  place: 'rhs' | 'set-item' | 'argument',
  start: number,
) => LiteralReading | undefined;

/** The part of the text that is parsed: Cloudflare trims white space at both ends first. */
export function trimmedRange(text: string): { start: number; end: number } {
  let start = 0;
  let end = text.length;
  while (start < end && isTrimmable(text.charCodeAt(start))) start++;
  while (end > start && isTrimmable(text.charCodeAt(end - 1))) end--;
  if (start === end) start = end = 0; // like Rust's trim: nothing left is an empty text at the start
  return { start, end };
}

/** Lexes the whole text at once, reading literals neutrally (the parser lexes on demand: ExpressionLexer). */
export function tokenize(text: string): LexResult {
  const lexer = new ExpressionLexer(text);
  while (lexer.step());
  return { tokens: lexer.tokens, start: lexer.start, end: lexer.end };
}

/**
 * Lexes one token at a time, when the parser needs it: by then the parser knows what a literal is compared
 * with, and the reader can read it by type.
 */
export class ExpressionLexer {
  readonly tokens: Token[] = [];
  /** The trimmed input: Cloudflare trims white space at both ends before parsing. */
  readonly start: number;
  readonly end: number;
  private pos: number;
  private state = State.Operand;
  /** Open parentheses and pending `not`s: its length is the nesting depth. */
  private readonly nesting: (OpenParen | 'not')[] = [];
  /** The operand about to start is a function argument (right after `f(` or `,`). */
  private atArgumentStart = false;
  /** The current value (field, call, index chain) is a function argument. */
  private valueIsArgument = false;
  /** Which operator introduced the current pattern (to lex regex strings after `matches`). */
  private patternIsRegex = false;
  private done = false;
  private readonly positions: PositionTracker;

  constructor(
    private readonly text: string,
    private readonly reader?: LiteralReader,
  ) {
    const { start, end } = trimmedRange(text);
    this.start = start;
    this.end = end;
    this.pos = start;
    this.positions = new PositionTracker(text);
  }

  /**
   * Lexes on to the end of the input or of the readable text, or, with a reader, up to the next literal
   * of a comparison: the reader can read that one only once the parser has taken its operator. False when
   * there is nothing more to lex.
   */
  step(): boolean {
    if (this.done) return false;
    const pauses = this.reader !== undefined;
    do this.lexToken();
    while (!this.done && !(pauses && (this.state === State.ValueRhs || this.state === State.SetItem)));
    return true;
  }

  /** Lexes the next token (two for `f(` and `any(`). */
  private lexToken(): void {
    const { text, end } = this;
    const before = this.pos;
    while (this.pos < end && isSpace(text.charCodeAt(this.pos))) this.pos++;
    if (this.pos >= end) {
      this.done = true;
      // A literal was due: the reader says what the type expected there (`expected digit` for an Int).
      const due =
        this.state === State.ValueRhs ? 'rhs' : this.state === State.SetItem ? 'set-item' : undefined;
      const reading = due && this.reader?.(due, this.pos);
      if (reading && 'problem' in reading) this.failWith(reading.problem);
      return;
    }
    const spaced = this.pos > before;
    switch (this.state) {
      case State.Operand:
        this.lexOperand();
        break;
      case State.AfterValue:
        this.lexAfterValue(spaced);
        break;
      case State.AfterOperand:
        this.lexAfterOperand(false);
        break;
      case State.ValueRhs:
        this.lexValueRhs();
        break;
      case State.PatternRhs:
        this.lexPatternRhs();
        break;
      case State.InRhs:
        this.lexInRhs();
        break;
      case State.SetItem:
        this.lexSetItem();
        break;
      case State.IndexValue:
        this.lexIndexValue();
        break;
      case State.IndexEnd:
        if (text.charCodeAt(this.pos) === 0x5d) {
          this.emit(T.RBracket, this.pos + 1);
          this.state = State.AfterValue;
        } else {
          this.invalid();
        }
        break;
    }
  }

  // ---- states ----

  private lexOperand(): void {
    const { text, pos } = this;
    const unit = text.charCodeAt(pos);
    const isArgument = this.atArgumentStart;
    this.atArgumentStart = false;
    if (isArgument && unit === 0x29 /* ) */) {
      this.lexAfterOperand(false); // a call without arguments
      return;
    }
    if (isArgument && this.lexArgumentLiteral(unit)) return;
    if (unit === 0x28 /* ( */) {
      if (this.open({ kind: 'group', valueIsArgument: false })) this.emit(T.LParen, pos + 1);
      return;
    }
    if (unit === 0x21 /* ! */ || text.startsWith('not', pos)) {
      if (this.open('not')) this.emit(T.Not, pos + (unit === 0x21 ? 1 : 3));
      return;
    }
    if (text.startsWith('any', pos) || text.startsWith('all', pos)) {
      let paren = pos + 3;
      while (paren < this.end && isSpace(text.charCodeAt(paren))) paren++;
      if (text.charCodeAt(paren) === 0x28) {
        this.emit(T.Quantifier, pos + 3, text.slice(pos, pos + 3));
        this.pos = paren;
        if (this.open({ kind: 'quantifier', valueIsArgument: false })) this.emit(T.LParen, paren + 1);
        return;
      }
    }
    if (isIdentifierChar(unit)) {
      this.lexIdentifier(isArgument);
      return;
    }
    this.invalid();
  }

  /**
   * A function argument that is a literal. Like the reference engine, decide by the first characters:
   * quotes make a string; text that reads as a dotted name containing a letter beyond `f` or `_` is a field
   * or call (handled by the caller); other text made of digits, hex letters and `:.-/` is a literal.
   */
  private lexArgumentLiteral(unit: number): boolean {
    const { text, pos } = this;
    if (unit === 0x22 || (unit === 0x72 /* r */ && (text[pos + 1] === '"' || text[pos + 1] === '#'))) {
      this.lexString(false);
      return true;
    }
    if (!isHexDigit(unit) && unit !== 0x2d && unit !== 0x3a && unit !== 0x2e) return false;
    if (/^-?0x[0-9a-fA-F]/.test(text.slice(pos, pos + 4))) {
      this.emitArgumentLiteral(scanBareLiteral(text, pos, this.end)); // a hexadecimal integer
      return true;
    }
    // A name such as `cf.edge.server_port` has a letter beyond f or an underscore somewhere; an all-hex
    // name is still a name when a call or an index follows it (`f(x)`, `ab[0]`).
    let i = pos;
    while (i < this.end && (isIdentifierChar(text.charCodeAt(i)) || text.charCodeAt(i) === 0x2e)) {
      const c = text.charCodeAt(i);
      if (isIdentifierChar(c) && !isHexDigit(c)) return false;
      i++;
    }
    if (text.charCodeAt(i) === 0x5b) return false;
    while (i < this.end && isSpace(text.charCodeAt(i))) i++;
    if (text.charCodeAt(i) === 0x28) return false;
    const literalEnd = scanBareLiteral(text, pos, this.end);
    if (literalEnd === pos) return false;
    this.emitArgumentLiteral(literalEnd);
    return true;
  }

  private lexIdentifier(isArgument: boolean): void {
    const { text, end } = this;
    let i = this.pos;
    for (;;) {
      const segmentStart = i;
      while (i < end && isIdentifierChar(text.charCodeAt(i))) i++;
      if (i === segmentStart) {
        this.fail('expected-identifier', message('expectedIdentifier'), i);
        return;
      }
      if (text.charCodeAt(i) !== 0x2e /* . */) break;
      i++;
    }
    this.valueIsArgument = isArgument;
    // A call: the name, optional spaces, then `(`.
    let paren = i;
    while (paren < end && isSpace(text.charCodeAt(paren))) paren++;
    const isCall = text.charCodeAt(paren) === 0x28;
    if (isCall && this.nesting.length >= MAX_NESTING_DEPTH) {
      // Too deep: report at the `(`, without the name (which would otherwise read as a field).
      this.pos = paren;
      this.open({ kind: 'call', valueIsArgument: isArgument });
      return;
    }
    this.emit(T.Identifier, i);
    if (isCall) {
      this.pos = paren;
      this.open({ kind: 'call', valueIsArgument: this.valueIsArgument });
      this.emit(T.LParen, paren + 1);
      this.atArgumentStart = true;
      this.state = State.Operand;
      return;
    }
    this.state = State.AfterValue;
  }

  private lexAfterValue(spaced: boolean): void {
    const { text, pos } = this;
    if (!spaced && text.charCodeAt(pos) === 0x5b /* [ */) {
      this.emit(T.LBracket, pos + 1);
      this.state = State.IndexValue;
      return;
    }
    if (this.lexComparisonOperator()) return;
    this.lexAfterOperand(true);
  }

  private lexComparisonOperator(): boolean {
    const { pos } = this;
    const match = matchComparison(this.text, pos);
    if (!match) return false;
    const { op, rhs, text } = match;
    const end = pos + text.length;
    // The token, and the state that reads what follows, depend on the kind of right-hand side only.
    switch (rhs) {
      case 'set':
        this.emit(T.In, end, op);
        this.state = State.InRhs;
        break;
      case 'regex':
      case 'wildcard':
        this.emit(T.PatternOp, end, op);
        this.patternIsRegex = rhs === 'regex';
        this.state = State.PatternRhs;
        break;
      case 'value':
        this.emit(T.ValueOp, end, op);
        this.state = State.ValueRhs;
        break;
    }
    return true;
  }

  private lexAfterOperand(afterValue: boolean): void {
    const { text, pos } = this;
    const logical = matchLogical(text, pos);
    if (logical) {
      this.closePendingNots();
      this.emit(T.LogicalOp, pos + logical.text.length, logical.op);
      this.state = State.Operand;
      return;
    }
    const unit = text.charCodeAt(pos);
    if (unit === 0x29 /* ) */) {
      this.closePendingNots();
      const top = this.nesting[this.nesting.length - 1];
      if (top !== undefined && top !== 'not') this.nesting.pop();
      this.emit(T.RParen, pos + 1);
      if (top !== undefined && top !== 'not' && top.kind === 'call') {
        this.valueIsArgument = top.valueIsArgument;
        this.state = State.AfterValue;
      } else {
        this.state = State.AfterOperand;
      }
      return;
    }
    if (unit === 0x2c /* , */) {
      this.closePendingNots();
      this.emit(T.Comma, pos + 1);
      const top = this.nesting[this.nesting.length - 1];
      this.atArgumentStart = top !== undefined && top !== 'not' && top.kind === 'call';
      this.state = State.Operand;
      return;
    }
    this.invalid(afterValue && !this.valueIsArgument);
  }

  private lexValueRhs(): void {
    const { text, pos } = this;
    const reading = this.reader?.('rhs', pos);
    if (reading) {
      this.emitReading(reading, State.AfterOperand);
      return;
    }
    const unit = text.charCodeAt(pos);
    if (unit === 0x22 || unit === 0x72 /* r: a raw string, or the reference's `expected " or #` */) {
      this.lexString(false);
      return;
    }
    const literalEnd = scanBareLiteral(text, pos, this.end);
    if (literalEnd > pos) {
      this.emit(T.BareLit, literalEnd);
      this.state = State.AfterOperand;
      return;
    }
    this.fail('expected-value', message('expectedValue'), pos);
  }

  private lexPatternRhs(): void {
    const unit = this.text.charCodeAt(this.pos);
    if (unit === 0x22 || unit === 0x72) {
      this.lexString(this.patternIsRegex);
      return;
    }
    this.fail('expected-string', message('expectedString'), this.pos);
  }

  private lexInRhs(): void {
    const { text, pos } = this;
    const unit = text.charCodeAt(pos);
    if (unit === 0x7b /* { */) {
      this.emit(T.LBrace, pos + 1);
      this.state = State.SetItem;
      return;
    }
    if (unit === 0x24 /* $ */) {
      const name = scanListName(text, pos, this.end);
      if (!name.ok) {
        this.failWith(name.problem);
        return;
      }
      this.emit(T.ListName, name.end, name.value);
      this.state = State.AfterOperand;
      return;
    }
    this.fail('expected-literal', message('expectedBrace'), pos);
  }

  private lexSetItem(): void {
    const { text, pos } = this;
    const unit = text.charCodeAt(pos);
    if (unit === 0x7d /* } */) {
      this.emit(T.RBrace, pos + 1);
      this.state = State.AfterOperand;
      return;
    }
    const reading = this.reader?.('set-item', pos);
    if (reading) {
      if ('problem' in reading) this.failInSet(reading.problem);
      else this.emitReading(reading, State.SetItem);
      return;
    }
    if (unit === 0x22 || unit === 0x72) {
      this.lexString(false, State.SetItem);
      return;
    }
    const literalEnd = scanBareLiteral(text, pos, this.end);
    if (literalEnd > pos) {
      this.emit(T.BareLit, literalEnd);
      return;
    }
    if (unit === 0x2c /* , */) {
      this.failInSet({ code: 'unrecognised-input', message: message('unrecognisedInput'), start: pos });
      return;
    }
    this.invalid();
  }

  /**
   * A set item that cannot be read. A comma between items is one mistake whatever the item's type says of
   * it: one code and one hint. (A comma inside a string item is the string's problem.)
   */
  private failInSet(problem: LexProblem): void {
    const { text } = this;
    if (problem.code === 'invalid-string' || text.charCodeAt(problem.start) !== 0x2c /* , */) {
      this.failWith(problem);
      return;
    }
    const set = commaInSetHint(text, problem.start);
    this.failWith({ ...problem, code: 'comma-in-set', hint: hint('commaInSet', { set }) });
  }

  private lexIndexValue(): void {
    const { text, pos } = this;
    const unit = text.charCodeAt(pos);
    if (unit === 0x2a /* * */) {
      this.emit(T.Star, pos + 1);
      this.state = State.IndexEnd;
      return;
    }
    if (unit === 0x22) {
      const key = scanQuotedString(text, pos, this.end);
      if (!key.ok) {
        this.failWith(key.problem);
        return;
      }
      if (!isValidUtf8(key.value)) {
        this.fail('invalid-index', message('indexNotUtf8'), pos);
        return;
      }
      this.emit(T.StringLit, key.end, { value: key.value, raw: false } satisfies StringPayload);
      this.state = State.IndexEnd;
      return;
    }
    if ((unit >= 0x30 && unit <= 0x39) || unit === 0x2d) {
      const index = scanArrayIndex(text, pos, this.end);
      if (!index.ok) {
        this.failWith(index.problem);
        return;
      }
      this.emit(T.IndexNumber, index.end, index.value);
      this.state = State.IndexEnd;
      return;
    }
    this.fail('invalid-index', message('indexExpected'), pos, hint('mapKeyQuotes'));
  }

  // ---- helpers ----

  /** An unquoted argument the neutral scan found to end at `neutralEnd`, read by type when it can be. */
  private emitArgumentLiteral(neutralEnd: number): void {
    const reading = this.reader?.('argument', this.pos);
    if (reading) {
      this.emitReading(reading, State.AfterOperand);
      return;
    }
    this.emit(T.BareLit, neutralEnd);
    this.state = State.AfterOperand;
  }

  /** A literal read by type: a string token when it is written as one, else an unquoted literal. */
  private emitReading(reading: LiteralReading, next: State): void {
    if ('problem' in reading) {
      this.failWith(reading.problem);
      return;
    }
    const { text, pos } = this;
    const unit = text.charCodeAt(pos);
    const raw = unit === 0x72 /* r */;
    if (unit === 0x22 || raw) {
      this.emit(T.StringLit, reading.end, { value: reading.value as string, raw } satisfies StringPayload);
    } else {
      this.emit(T.BareLit, reading.end, reading.value);
    }
    this.state = next;
  }

  private lexString(regex: boolean, next: State = State.AfterOperand): void {
    const { text, pos, end } = this;
    if (text.charCodeAt(pos) === 0x72 /* r */) {
      const raw = scanRawString(text, pos, end);
      if (!this.accept(raw)) return;
      const value = raw.value.value;
      this.emit(
        regex ? T.RegexLit : T.StringLit,
        raw.end,
        regex ? { pattern: value, raw: true } : { value, raw: true },
      );
    } else if (regex) {
      const quoted = scanQuotedRegex(text, pos, end);
      if (!this.accept(quoted)) return;
      this.emit(T.RegexLit, quoted.end, { pattern: quoted.value, raw: false } satisfies RegexPayload);
    } else {
      const quoted = scanQuotedString(text, pos, end);
      if (!this.accept(quoted)) return;
      this.emit(T.StringLit, quoted.end, { value: quoted.value, raw: false } satisfies StringPayload);
    }
    this.state = next;
  }

  private accept<T>(result: ScanResult<T>): result is { ok: true; value: T; end: number } {
    if (result.ok) return true;
    this.failWith(result.problem);
    return false;
  }

  /** Records an opening parenthesis or `not`; past the depth limit, stops with the reference error. */
  private open(entry: OpenParen | 'not'): boolean {
    if (this.nesting.length >= MAX_NESTING_DEPTH) {
      this.fail('nesting-limit', message('nestingLimit', { limit: MAX_NESTING_DEPTH }), this.pos);
      return false;
    }
    this.nesting.push(entry);
    return true;
  }

  /** An operand ended: the `not`s that applied to it are closed. */
  private closePendingNots(): void {
    while (this.nesting[this.nesting.length - 1] === 'not') this.nesting.pop();
  }

  private emit(type: TokenType, end: number, payload?: unknown): void {
    const start = this.pos;
    const positions = this.positions;
    positions.moveTo(start);
    this.tokens.push({
      // Only names and unquoted literals need their text; the others are known by their type.
      image: type === T.Identifier || type === T.BareLit ? this.text.slice(start, end) : '',
      startOffset: start,
      endOffset: end - 1,
      startLine: positions.line,
      startColumn: positions.column,
      end,
      tokenType: type,
      tokenTypeIdx: type.tokenTypeIdx as number,
      payload,
    });
    this.pos = end;
  }

  /** Text that cannot stand here: the parser will say what it expected. */
  private invalid(afterValue = false): void {
    WORD.lastIndex = this.pos;
    const word = afterValue ? WORD.exec(this.text)?.[0] : undefined;
    this.emit(T.Invalid, this.pos + 1, { afterValue, ...(word && { word }) } satisfies InvalidPayload);
    this.done = true;
  }

  private fail<C extends DiagnosticCode>(
    code: C,
    text: Message<MessageOf<C>>,
    start: number,
    withHint?: Hint<HintOf<C>>,
  ): void {
    this.failWith(withHint ? { code, message: text, start, hint: withHint } : { code, message: text, start });
  }

  private failWith(problem: LexProblem): void {
    this.emit(T.Invalid, this.pos + 1, { problem, afterValue: false } satisfies InvalidPayload);
    this.done = true;
  }
}
