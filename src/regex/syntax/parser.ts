// Parser: regex-syntax's grammar, error kinds and spans (octal off, `x` off unless enabled by a flag)

import { ASCII_CLASS_RANGES } from './ascii-classes.js';
import { advance, type Position, RegexSyntaxError, type Span, span } from './errors.js';
import {
  type AsciiNode,
  type AssertionKind,
  type AssertionNode,
  type Ast,
  type BracketedNode,
  type ClassItem,
  type ClassSet,
  type EmptyNode,
  type FlagItem,
  type FlagsNode,
  type GroupNode,
  type LiteralNode,
  type Primitive,
  pushToUnion,
  type RepetitionNode,
  type Sequence,
  sequenceToAst,
  type UnicodeNode,
  type UnionNode,
  unionToItem,
} from './syntax-tree.js';

const META = new Set(Array.from('\\.+*?()|[]{}^$#&-~'));
const FLAGS = new Set(Array.from('imsUuRx'));
const SPECIAL_ESCAPES = new Map<string, number>([
  ['a', 0x07],
  ['f', 0x0c],
  ['t', 0x09],
  ['n', 0x0a],
  ['r', 0x0d],
  ['v', 0x0b],
]);

const codePoint = (c: string): number => c.codePointAt(0) ?? 0;
const isWhitespace = (c: string): boolean => /^\p{White_Space}$/u.test(c);
const isHex = (c: string): boolean => /^[0-9a-fA-F]$/.test(c);
const isDigit = (c: string): boolean => /^[0-9]$/.test(c);
/** Escaping any other ASCII punctuation is allowed; letters, digits, `<` and `>` are reserved. */
const isEscapeable = (c: string): boolean =>
  META.has(c) || (codePoint(c) < 0x80 && !/^[0-9A-Za-z<>]$/.test(c));
const isCaptureChar = (c: string, first: boolean): boolean =>
  first ? c === '_' || /^\p{Alphabetic}$/u.test(c) : /^[_.[\]\p{Alphabetic}\p{N}]$/u.test(c);

type GroupFrame =
  | { kind: 'group'; outer: Sequence; group: GroupNode; ignoreWhitespace: boolean }
  | { kind: 'alternation'; span: Span; subs: Ast[] };
type ClassFrame = { kind: 'open'; outer: UnionNode; set: BracketedNode } | { kind: 'op'; lhs: ClassSet };

export class Parser {
  private readonly chars: string[];
  private pos: Position = { offset: 0, line: 1, column: 1 };
  private ignoreWhitespace = false;
  private readonly groups: GroupFrame[] = [];
  private readonly classes: ClassFrame[] = [];
  private readonly captureNames = new Map<string, Span>();

  constructor(text: string) {
    this.chars = Array.from(text);
  }

  parse(): Ast {
    let seq: Sequence = { span: this.here(), subs: [] };
    for (;;) {
      this.skipSpace();
      if (this.eof()) break;
      switch (this.char()) {
        case '(':
          seq = this.openGroup(seq);
          break;
        case ')':
          seq = this.closeGroup(seq);
          break;
        case '|':
          seq = this.alternate(seq);
          break;
        case '[':
          seq.subs.push(this.parseClass());
          break;
        case '?':
        case '*':
        case '+':
          this.repeat(seq);
          break;
        case '{':
          this.repeatCounted(seq);
          break;
        default:
          seq.subs.push(this.parsePrimitive());
      }
    }
    return this.finish(seq);
  }

  // --- cursor

  private eof(): boolean {
    return this.pos.offset >= this.chars.length;
  }

  /** The current character; only called when not at the end. */
  private char(): string {
    return this.chars[this.pos.offset];
  }

  private peek(): string | undefined {
    return this.chars[this.pos.offset + 1];
  }

  /** Moves one character on; false when that reaches the end. */
  private bump(): boolean {
    if (this.eof()) return false;
    const { offset, line } = this.pos;
    this.pos = this.char() === '\n' ? { offset: offset + 1, line: line + 1, column: 1 } : advance(this.pos);
    return !this.eof();
  }

  private bumpIf(prefix: string): boolean {
    const { offset } = this.pos;
    for (let i = 0; i < prefix.length; i++) if (this.chars[offset + i] !== prefix[i]) return false;
    for (let i = 0; i < prefix.length; i++) this.bump();
    return true;
  }

  /** Skips whitespace and `#` comments, in verbose mode only. */
  private skipSpace(): void {
    if (!this.ignoreWhitespace) return;
    while (!this.eof()) {
      if (isWhitespace(this.char())) {
        this.bump();
      } else if (this.char() === '#') {
        this.bump();
        while (!this.eof()) {
          const c = this.char();
          this.bump();
          if (c === '\n') break;
        }
      } else {
        break;
      }
    }
  }

  private bumpAndSkipSpace(): boolean {
    if (!this.bump()) return false;
    this.skipSpace();
    return !this.eof();
  }

  /** The character after the current one, past whitespace and one `#` in verbose mode (as regex-syntax). */
  private peekSpace(): string | undefined {
    if (!this.ignoreWhitespace) return this.peek();
    if (this.eof()) return undefined;
    let inComment = false;
    for (let i = this.pos.offset + 1; i < this.chars.length; i++) {
      const c = this.chars[i];
      if (isWhitespace(c)) continue;
      if (!inComment && c === '#') {
        inComment = true;
        continue;
      }
      return c;
    }
    return this.peek();
  }

  private here(): Span {
    return span(this.pos, this.pos);
  }

  private spanChar(): Span {
    const next =
      this.char() === '\n'
        ? { offset: this.pos.offset + 1, line: this.pos.line + 1, column: 1 }
        : advance(this.pos);
    return span(this.pos, next);
  }

  private error(description: string, at: Span, original?: Span): RegexSyntaxError {
    return new RegexSyntaxError(description, at, original);
  }

  // --- groups and alternation

  private openGroup(seq: Sequence): Sequence {
    const opened = this.parseGroupOpening();
    if (opened.type === 'flags') {
      const verbose = flagState(opened.items, 'x');
      if (verbose !== undefined) this.ignoreWhitespace = verbose;
      seq.subs.push(opened);
      return seq;
    }
    const verbose = opened.flags ? flagState(opened.flags, 'x') : undefined;
    this.groups.push({ kind: 'group', outer: seq, group: opened, ignoreWhitespace: this.ignoreWhitespace });
    this.ignoreWhitespace = verbose ?? this.ignoreWhitespace;
    return { span: this.here(), subs: [] };
  }

  private closeGroup(inner: Sequence): Sequence {
    let frame = this.groups.pop();
    let alternation: { span: Span; subs: Ast[] } | undefined;
    if (frame?.kind === 'alternation') {
      alternation = frame;
      frame = this.groups.pop();
    }
    if (frame?.kind !== 'group') throw this.error('unopened group', this.spanChar());
    this.ignoreWhitespace = frame.ignoreWhitespace;
    inner.span = span(inner.span.start, this.pos);
    this.bump();
    const group = frame.group;
    group.span = span(group.span.start, this.pos);
    if (alternation) {
      alternation.subs.push(sequenceToAst(inner));
      group.sub = {
        type: 'alternation',
        span: span(alternation.span.start, inner.span.end),
        subs: alternation.subs,
      };
    } else {
      group.sub = sequenceToAst(inner);
    }
    frame.outer.subs.push(group);
    return frame.outer;
  }

  private alternate(seq: Sequence): Sequence {
    seq.span = span(seq.span.start, this.pos);
    const top = this.groups[this.groups.length - 1];
    if (top?.kind === 'alternation') top.subs.push(sequenceToAst(seq));
    else
      this.groups.push({
        kind: 'alternation',
        span: span(seq.span.start, this.pos),
        subs: [sequenceToAst(seq)],
      });
    this.bump();
    return { span: this.here(), subs: [] };
  }

  private finish(seq: Sequence): Ast {
    seq.span = span(seq.span.start, this.pos);
    const top = this.groups.pop();
    let ast: Ast;
    if (!top) {
      ast = sequenceToAst(seq);
    } else if (top.kind === 'alternation') {
      top.subs.push(sequenceToAst(seq));
      ast = { type: 'alternation', span: span(top.span.start, this.pos), subs: top.subs };
    } else {
      throw this.error('unclosed group', top.group.span);
    }
    const below = this.groups.pop();
    if (below?.kind === 'group') throw this.error('unclosed group', below.group.span);
    return ast;
  }

  /** After `(`: a group, or a flag directive such as `(?i)`. The group's span is its `(` for now. */
  private parseGroupOpening(): GroupNode | FlagsNode {
    const open = this.spanChar();
    this.bump();
    this.skipSpace();
    if (this.bumpIf('?=') || this.bumpIf('?!') || this.bumpIf('?<=') || this.bumpIf('?<!')) {
      throw this.error(
        'look-around, including look-ahead and look-behind, is not supported',
        span(open.start, this.pos),
      );
    }
    const inner = this.here();
    const empty: EmptyNode = { type: 'empty', span: inner };
    if (this.bumpIf('?P<') || this.bumpIf('?<')) {
      this.parseCaptureName();
      return { type: 'group', span: open, capturing: true, sub: empty };
    }
    if (!this.bumpIf('?')) return { type: 'group', span: open, capturing: true, sub: empty };
    if (this.eof()) throw this.error('unclosed group', open);
    const items = this.parseFlags();
    const end = this.char();
    this.bump();
    if (end === ':') return { type: 'group', span: open, capturing: false, flags: items, sub: empty };
    // `(?)` reads as a repetition operator with nothing to repeat.
    if (items.length === 0) throw this.error('repetition operator missing expression', inner);
    return { type: 'flags', span: span(open.start, this.pos), items };
  }

  private parseCaptureName(): void {
    if (this.eof()) throw this.error('unclosed capture group name', this.here());
    const start = this.pos;
    while (this.char() !== '>') {
      if (!isCaptureChar(this.char(), this.pos.offset === start.offset)) {
        throw this.error('invalid capture group character', this.spanChar());
      }
      if (!this.bump()) break;
    }
    const end = this.pos;
    if (this.eof()) throw this.error('unclosed capture group name', this.here());
    this.bump();
    const name = this.chars.slice(start.offset, end.offset).join('');
    if (name === '') throw this.error('empty capture group name', span(start, start));
    const original = this.captureNames.get(name);
    if (original) throw this.error('duplicate capture group name', span(start, end), original);
    this.captureNames.set(name, span(start, end));
  }

  /** Flags up to `:` or `)`, which is left current. */
  private parseFlags(): FlagItem[] {
    const items: FlagItem[] = [];
    let danglingNegation: Span | undefined;
    while (this.char() !== ':' && this.char() !== ')') {
      const at = this.spanChar();
      const flag = this.char();
      if (flag === '-') {
        danglingNegation = at;
        const original = items.find((item) => item.flag === '-');
        if (original) throw this.error('flag negation operator repeated', at, original.span);
      } else {
        danglingNegation = undefined;
        if (!FLAGS.has(flag)) throw this.error('unrecognized flag', at);
        const original = items.find((item) => item.flag === flag);
        if (original) throw this.error('duplicate flag', at, original.span);
      }
      items.push({ span: at, flag });
      if (!this.bump()) throw this.error('expected flag but got end of regex', this.here());
    }
    if (danglingNegation) throw this.error('dangling flag negation operator', danglingNegation);
    return items;
  }

  // --- repetition

  private repeat(seq: Sequence): void {
    const op = this.char() as '?' | '*' | '+';
    const opStart = this.pos;
    const sub = this.operand(seq);
    let greedy = true;
    if (this.bump() && this.char() === '?') {
      greedy = false;
      this.bump();
    }
    const [min, max] = op === '?' ? [0, 1] : op === '*' ? [0, undefined] : [1, undefined];
    seq.subs.push({
      type: 'repetition',
      span: span(sub.span.start, this.pos),
      opSpan: span(opStart, this.pos),
      op,
      min,
      max,
      greedy,
      sub,
    });
  }

  private repeatCounted(seq: Sequence): void {
    const start = this.pos;
    const sub = this.operand(seq);
    const unclosed = () => this.error('unclosed counted repetition', span(start, this.pos));
    if (!this.bumpAndSkipSpace()) throw unclosed();
    // Like regex-syntax, a missing first count is only reported once we know it is needed.
    const first = this.parseCount();
    if (this.eof()) throw unclosed();
    let op: RepetitionNode['op'] = 'exactly';
    let max: number | undefined;
    if (this.char() === ',') {
      if (!this.bumpAndSkipSpace()) throw unclosed();
      if (this.char() === '}') {
        op = 'atLeast';
      } else {
        if (first instanceof RegexSyntaxError) throw first;
        const second = this.parseCount();
        if (second instanceof RegexSyntaxError) throw second;
        op = 'bounded';
        max = second;
      }
    }
    if (first instanceof RegexSyntaxError) throw first;
    if (op === 'exactly') max = first;
    if (this.eof() || this.char() !== '}') throw unclosed();
    let greedy = true;
    if (this.bumpAndSkipSpace() && this.char() === '?') {
      greedy = false;
      this.bump();
    }
    const opSpan = span(start, this.pos);
    if (max !== undefined && first > max) {
      throw this.error('invalid repetition count range, the start must be <= the end', opSpan);
    }
    seq.subs.push({
      type: 'repetition',
      span: span(sub.span.start, this.pos),
      opSpan,
      op,
      min: first,
      max,
      greedy,
      sub,
    });
  }

  /** Takes the expression a repetition operator applies to. */
  private operand(seq: Sequence): Ast {
    const sub = seq.subs.pop();
    if (!sub || sub.type === 'empty' || sub.type === 'flags') {
      throw this.error('repetition operator missing expression', this.here());
    }
    return sub;
  }

  /** A decimal count, surrounding whitespace allowed (even outside verbose mode); errors are returned. */
  private parseCount(): number | RegexSyntaxError {
    while (!this.eof() && isWhitespace(this.char())) this.bump();
    const start = this.pos;
    let digits = '';
    while (!this.eof() && isDigit(this.char())) {
      digits += this.char();
      this.bumpAndSkipSpace();
    }
    const at = span(start, this.pos);
    while (!this.eof() && isWhitespace(this.char())) this.bumpAndSkipSpace();
    if (digits === '') return this.error('repetition quantifier expects a valid decimal', at);
    const value = Number(digits);
    return value > 0xffffffff ? this.error('decimal literal invalid', at) : value;
  }

  // --- primitives and escapes

  private parsePrimitive(): Primitive {
    const at = this.spanChar();
    const c = this.char();
    if (c === '\\') return this.parseEscape();
    this.bump();
    if (c === '.') return { type: 'dot', span: at };
    if (c === '^') return { type: 'assertion', span: at, kind: 'startLine' };
    if (c === '$') return { type: 'assertion', span: at, kind: 'endLine' };
    return { type: 'literal', span: at, c: codePoint(c), form: 'verbatim' };
  }

  private parseEscape(): Primitive {
    const start = this.pos;
    if (!this.bump()) throw this.error(INCOMPLETE_ESCAPE, span(start, this.pos));
    const c = this.char();
    if (isDigit(c)) throw this.error('backreferences are not supported', span(start, this.spanChar().end));
    if (c === 'x' || c === 'u' || c === 'U') return { ...this.parseHex(), span: span(start, this.pos) };
    if (c === 'p' || c === 'P') return { ...this.parseUnicodeClass(), span: span(start, this.pos) };
    if ('dswDSW'.includes(c)) {
      this.bump();
      return {
        type: 'perl',
        span: span(start, this.pos),
        letter: c.toLowerCase() as 'd' | 's' | 'w',
        negated: c < 'a',
      };
    }
    this.bump();
    const at = span(start, this.pos);
    if (isEscapeable(c)) return { type: 'literal', span: at, c: codePoint(c), form: 'escaped' };
    const special = SPECIAL_ESCAPES.get(c);
    if (special !== undefined) return { type: 'literal', span: at, c: special, form: 'escaped' };
    const assertion = (kind: AssertionKind): AssertionNode => ({ type: 'assertion', span: at, kind });
    switch (c) {
      case 'A':
        return assertion('startText');
      case 'z':
        return assertion('endText');
      case 'B':
        return assertion('notWord');
      case '<':
        return assertion('wordStartAngle');
      case '>':
        return assertion('wordEndAngle');
      case 'b': {
        const kind = !this.eof() && this.char() === '{' ? this.parseSpecialWordBoundary(start) : undefined;
        return { type: 'assertion', span: kind ? span(start, this.pos) : at, kind: kind ?? 'word' };
      }
      default:
        throw this.error('unrecognized escape sequence', at);
    }
  }

  /** After `\b` at `{`: `\b{start}` and friends, or nothing (then `{` starts a counted repetition). */
  private parseSpecialWordBoundary(wordStart: Position): AssertionKind | undefined {
    const isNameChar = (c: string) => /^[A-Za-z-]$/.test(c);
    const start = this.pos;
    if (!this.bumpAndSkipSpace()) {
      throw this.error(
        'found either the beginning of a special word boundary or a bounded repetition on a \\b with an opening brace, but no closing brace',
        span(wordStart, this.pos),
      );
    }
    const contentStart = this.pos;
    if (!isNameChar(this.char())) {
      this.pos = start;
      return undefined;
    }
    let name = '';
    while (!this.eof() && isNameChar(this.char())) {
      name += this.char();
      this.bumpAndSkipSpace();
    }
    if (this.eof() || this.char() !== '}') {
      throw this.error(
        'special word boundary assertion is either unclosed or contains an invalid character',
        span(start, this.pos),
      );
    }
    const end = this.pos;
    this.bump();
    const kinds: Record<string, AssertionKind> = {
      start: 'wordStart',
      end: 'wordEnd',
      'start-half': 'wordStartHalf',
      'end-half': 'wordEndHalf',
    };
    const kind = Object.hasOwn(kinds, name) ? kinds[name] : undefined;
    if (!kind) {
      throw this.error(
        'unrecognized special word boundary assertion, valid choices are: start, end, start-half or end-half',
        span(contentStart, end),
      );
    }
    return kind;
  }

  /** At `x`, `u` or `U`: `\xHH`, `\uHHHH`, `\UHHHHHHHH` or a braced form. Span set by the caller. */
  private parseHex(): LiteralNode {
    const letter = this.char();
    if (!this.bumpAndSkipSpace()) throw this.error(INCOMPLETE_ESCAPE, this.here());
    const braced = this.char() === '{';
    let digits = '';
    let valueSpan: Span;
    if (braced) {
      const brace = this.pos;
      const start = this.spanChar().end;
      while (this.bumpAndSkipSpace() && this.char() !== '}') {
        if (!isHex(this.char())) throw this.error('invalid hexadecimal digit', this.spanChar());
        digits += this.char();
      }
      if (this.eof()) throw this.error(INCOMPLETE_ESCAPE, span(brace, this.pos));
      valueSpan = span(start, this.pos);
      this.bumpAndSkipSpace();
      if (digits === '') throw this.error('hexadecimal literal empty', span(brace, this.pos));
    } else {
      const start = this.pos;
      const count = letter === 'x' ? 2 : letter === 'u' ? 4 : 8;
      for (let i = 0; i < count; i++) {
        if (i > 0 && !this.bumpAndSkipSpace()) throw this.error(INCOMPLETE_ESCAPE, this.here());
        if (!isHex(this.char())) throw this.error('invalid hexadecimal digit', this.spanChar());
        digits += this.char();
      }
      this.bumpAndSkipSpace();
      valueSpan = span(start, this.pos);
    }
    const value = Number.parseInt(digits, 16);
    if (value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) {
      throw this.error('hexadecimal literal is not a Unicode scalar value', valueSpan);
    }
    const form = letter === 'x' && !braced ? 'hexByte' : 'hex';
    return { type: 'literal', span: valueSpan, c: value, form };
  }

  /** At `p` or `P`: `\pN` or `\p{...}`. Names are not looked up here. Span set by the caller. */
  private parseUnicodeClass(): UnicodeNode {
    const negated = this.char() === 'P';
    if (!this.bumpAndSkipSpace()) throw this.error(INCOMPLETE_ESCAPE, this.here());
    const node = { type: 'unicode', span: this.here(), negated, notEqual: false } as const;
    if (this.char() !== '{') {
      if (this.char() === '\\') throw this.error('invalid Unicode character class', this.spanChar());
      const name = this.char();
      this.bumpAndSkipSpace();
      return { ...node, name, oneLetter: true };
    }
    let body = '';
    while (this.bumpAndSkipSpace() && this.char() !== '}') body += this.char();
    if (this.eof()) throw this.error(INCOMPLETE_ESCAPE, this.here());
    this.bump();
    for (const op of ['!=', ':', '=']) {
      const at = body.indexOf(op);
      if (at >= 0) {
        const value = body.slice(at + op.length);
        return { ...node, name: body.slice(0, at), value, notEqual: op === '!=', oneLetter: false };
      }
    }
    return { ...node, name: body, oneLetter: false };
  }

  // --- bracketed classes

  private parseClass(): BracketedNode {
    let union: UnionNode = { type: 'union', span: this.here(), items: [] };
    for (;;) {
      this.skipSpace();
      if (this.eof()) throw this.unclosedClass();
      const c = this.char();
      if (c === '[') {
        const ascii = this.classes.length > 0 ? this.parseAsciiClass() : undefined;
        if (ascii) pushToUnion(union, ascii);
        else union = this.openClass(union);
      } else if (c === ']') {
        const closed = this.closeClass(union);
        if (closed.type === 'bracketed') return closed;
        union = closed;
      } else if ((c === '&' || c === '-' || c === '~') && this.peek() === c) {
        this.bump();
        this.bump();
        union = this.classOperator(union);
      } else {
        pushToUnion(union, this.parseClassRange());
      }
    }
  }

  private openClass(outer: UnionNode): UnionNode {
    const start = this.pos;
    const unclosedHere = () => this.error('unclosed character class', span(start, this.pos));
    if (!this.bumpAndSkipSpace()) throw unclosedHere();
    let negated = false;
    if (this.char() === '^') {
      negated = true;
      if (!this.bumpAndSkipSpace()) throw unclosedHere();
    }
    // Leading `-`s, then a leading `]`, are literals.
    const union: UnionNode = { type: 'union', span: this.here(), items: [] };
    while (this.char() === '-') {
      pushToUnion(union, { type: 'literal', span: this.spanChar(), c: 0x2d, form: 'verbatim' });
      if (!this.bumpAndSkipSpace()) throw this.error('unclosed character class', span(start, start));
    }
    if (union.items.length === 0 && this.char() === ']') {
      pushToUnion(union, { type: 'literal', span: this.spanChar(), c: 0x5d, form: 'verbatim' });
      if (!this.bumpAndSkipSpace()) throw unclosedHere();
    }
    const set: BracketedNode = { type: 'bracketed', span: span(start, this.pos), negated, set: union };
    this.classes.push({ kind: 'open', outer, set });
    return union;
  }

  /** At `]`: closes the innermost class; returns the finished class or the enclosing union. */
  private closeClass(inner: UnionNode): BracketedNode | UnionNode {
    const set = this.popClassOperator(unionToItem(inner));
    const frame = this.classes.pop();
    if (frame?.kind !== 'open') throw new Error('unbalanced character class stack');
    this.bump();
    frame.set.span = span(frame.set.span.start, this.pos);
    frame.set.set = set;
    if (this.classes.length === 0) return frame.set;
    pushToUnion(frame.outer, frame.set);
    return frame.outer;
  }

  private classOperator(lhs: UnionNode): UnionNode {
    this.classes.push({ kind: 'op', lhs: this.popClassOperator(unionToItem(lhs)) });
    return { type: 'union', span: this.here(), items: [] };
  }

  private popClassOperator(rhs: ClassSet): ClassSet {
    const top = this.classes[this.classes.length - 1];
    if (top?.kind !== 'op') return rhs;
    this.classes.pop();
    return { type: 'setop', span: span(top.lhs.span.start, rhs.span.end), lhs: top.lhs, rhs };
  }

  private unclosedClass(): RegexSyntaxError {
    for (let i = this.classes.length - 1; i >= 0; i--) {
      const frame = this.classes[i];
      if (frame.kind === 'open') return this.error('unclosed character class', frame.set.span);
    }
    throw new Error('no open character class');
  }

  private parseClassRange(): ClassItem {
    const first = this.parseClassPrimitive();
    this.skipSpace();
    if (this.eof()) throw this.unclosedClass();
    const next = this.peekSpace();
    if (this.char() !== '-' || next === ']' || next === '-') return this.asClassItem(first);
    if (!this.bumpAndSkipSpace()) throw this.unclosedClass();
    const second = this.parseClassPrimitive();
    const range = span(first.span.start, second.span.end);
    const start = this.asRangeBound(first);
    const end = this.asRangeBound(second);
    if (start.c > end.c)
      throw this.error('invalid character class range, the start must be <= the end', range);
    return { type: 'range', span: range, start, end };
  }

  private parseClassPrimitive(): Primitive {
    if (this.char() === '\\') return this.parseEscape();
    const literal: LiteralNode = {
      type: 'literal',
      span: this.spanChar(),
      c: codePoint(this.char()),
      form: 'verbatim',
    };
    this.bump();
    return literal;
  }

  private asClassItem(primitive: Primitive): ClassItem {
    if (primitive.type === 'dot' || primitive.type === 'assertion') {
      throw this.error('invalid escape sequence found in character class', primitive.span);
    }
    return primitive;
  }

  private asRangeBound(primitive: Primitive): LiteralNode {
    if (primitive.type !== 'literal')
      throw this.error('invalid range boundary, must be a literal', primitive.span);
    return primitive;
  }

  /** `[:name:]` inside a class; anything else leaves the position unchanged. */
  private parseAsciiClass(): AsciiNode | undefined {
    const start = this.pos;
    const fail = () => {
      this.pos = start;
      return undefined;
    };
    if (!this.bump() || this.char() !== ':') return fail();
    if (!this.bump()) return fail();
    let negated = false;
    if (this.char() === '^') {
      negated = true;
      if (!this.bump()) return fail();
    }
    const nameStart = this.pos.offset;
    while (this.char() !== ':' && this.bump()) {}
    if (this.eof()) return fail();
    const name = this.chars.slice(nameStart, this.pos.offset).join('');
    if (!this.bumpIf(':]') || !ASCII_CLASS_RANGES.has(name)) return fail();
    return { type: 'ascii', span: span(start, this.pos), name, negated };
  }
}

const INCOMPLETE_ESCAPE = 'incomplete escape sequence, reached end of pattern prematurely';

/** Whether the flags turn `flag` on (true), off (false), or leave it (undefined). */
function flagState(items: FlagItem[], flag: string): boolean | undefined {
  let enable = true;
  for (const item of items) {
    if (item.flag === '-') enable = false;
    else if (item.flag === flag) return enable;
  }
  return undefined;
}

/** regex-syntax's default `nest_limit`. */
const NEST_LIMIT = 250;

/** regex-syntax's nesting limit, counted over the finished tree in the same order. */
export function checkNesting(node: Ast | ClassSet, depth: number): void {
  const enter = () => {
    if (depth + 1 > NEST_LIMIT) {
      throw new RegexSyntaxError(
        `exceed the maximum number of nested parentheses/brackets (${NEST_LIMIT})`,
        node.span,
      );
    }
    return depth + 1;
  };
  switch (node.type) {
    case 'bracketed':
      checkNesting(node.set, enter());
      return;
    case 'repetition':
    case 'group':
      checkNesting(node.sub, enter());
      return;
    case 'alternation':
    case 'concat': {
      const inner = enter();
      for (const sub of node.subs) checkNesting(sub, inner);
      return;
    }
    case 'union': {
      const inner = enter();
      for (const item of node.items) checkNesting(item, inner);
      return;
    }
    case 'setop': {
      const inner = enter();
      checkNesting(node.lhs, inner);
      checkNesting(node.rhs, inner);
      return;
    }
    default:
      return;
  }
}

/**
 * Parsed patterns (nesting checked), by text: the checker and the compiler both parse a pattern, often
 * one after the other (a rule validated, then compiled), and the managed rules repeat patterns. The tree
 * is shared, so its readers must not change it. Throws RegexSyntaxError as the parser does (errors are
 * not kept). Bounded, so that a stream of distinct patterns cannot grow memory without end.
 */
const parsedTrees = new Map<string, Ast>();
const MAX_PARSED_TREES = 2048;

export function parsedPattern(text: string): Ast {
  let ast = parsedTrees.get(text);
  if (!ast) {
    ast = new Parser(text).parse();
    checkNesting(ast, 0);
    if (parsedTrees.size >= MAX_PARSED_TREES) parsedTrees.clear();
    parsedTrees.set(text, ast);
  }
  return ast;
}
