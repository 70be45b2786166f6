/**
 * Checks the pattern of a `matches` / `~` comparison as Cloudflare's engine would, and makes sure cfrules
 * can evaluate it with RE2.
 *
 * The reference engine compiles patterns with Rust's `regex-syntax` 0.8 and `regex-automata` in byte mode
 * (`unicode(false)`, `utf8(false)`). Its syntax errors are regex-syntax's multi-line text:
 *
 *     regex parse error:
 *         (
 *         ^
 *     error: unclosed group
 *
 * so this module carries its own parser of that syntax (same grammar, same error kinds, same spans, same
 * nesting limit of 250), then the checks regex-syntax makes when it translates the syntax tree in byte mode
 * (`Unicode not allowed here`), then an estimate of the compiled size. A pattern that passes is translated
 * to RE2 syntax and compiled with re2-wasm, the engine cfrules evaluates `matches` with, as the final word.
 *
 * Decisions and differences from the reference (also listed in test/check/regex.test.ts):
 *
 * - Problems come in two kinds. `invalid`: Cloudflare rejects the pattern too (syntax errors, Unicode in
 *   byte mode, compiled size). `unsupported`: Cloudflare accepts the pattern but cfrules cannot evaluate it
 *   faithfully with RE2; the validator may show these as warnings. Both use the `regex parse error:` layout.
 * - `unsupported`, because RE2 has no equivalent (RE2 would reject some, and silently read others as
 *   literals): class set operations (`[a-z&&[^aeiou]]`, `--`, `~~`) and negated classes nested in a class;
 *   `\b{start}`, `\b{end}`, `\b{start-half}`, `\b{end-half}`, `\<`, `\>`; the CRLF flag `(?R)`; counted
 *   repetitions above 1000, also as a product of nested counts (`(a{10}){101}`), RE2's limit; Unicode
 *   property names RE2 does not know (RE2 knows general categories and scripts in their canonical spelling:
 *   `\pL`, `\p{Lu}`, `\p{Greek}`; Rust also knows binary properties such as `\p{Alphabetic}`, `scx=` and
 *   loose spellings such as `\p{greek}`); patterns too large for re2-wasm's fixed 16 MiB heap.
 * - Translated for RE2 rather than rejected: `(?u)` and `(?x)` (RE2 knows neither flag; verbose mode is
 *   resolved by dropping its whitespace and comments), `\u0041` / `\U0001F600` / `\u{..}` escapes, named
 *   groups (RE2 1.0.2 only reads `(?P<name>`; names do not matter to `matches`), counted repetitions with
 *   spaces (`a{ 2 }` is a repetition in Rust, literal text in RE2) and repeated repetitions (`a**`).
 * - Unicode property names are not checked against Unicode tables here: with `(?u)` on, RE2 decides, and a
 *   name it does not know is reported as `unsupported` (Cloudflare would say `Unicode property not found`
 *   when the name is really unknown).
 * - The compiled-size limit (`Compiled regex exceeds size limit of 10485760 bytes.`) is estimated, not
 *   measured: regex-automata's builder counts 32 bytes per NFA state, 8 per class range and 4 per union
 *   branch, and counted repetitions copy their operand (`x{n,m}`: n copies, then m-n optional copies with a
 *   union each). Byte-mode patterns are estimated closely; Unicode classes (`(?u)\w`, `\p{..}`) get a flat
 *   cost of the order of their UTF-8 automata (about 1000 states for `\w`), so patterns near the limit may
 *   be judged differently from Cloudflare.
 * - Semantics (not reported here; for the evaluator): RE2 always works on UTF-8 text, so `.` is one code
 *   point rather than one byte, `\xFF` means U+00FF, `(?i)` folds Unicode case (`k` matches U+212A), and
 *   `\d`, `\s`, `\w`, `\b` stay ASCII in RE2 even where `(?u)` makes them Unicode in Rust.
 *
 * Loading RE2: re2-wasm is a CommonJS package whose wasm module compiles synchronously when required, so it
 * is loaded on first use with `createRequire` (through `process.getBuiltinModule`, so that importing this
 * module needs no Node built-in). We use its embind class `WrappedRE2` directly: the public `RE2` class
 * rewrites the pattern for JavaScript syntax and leaks the group-name map of every compile. Every object we
 * create is freed with `delete()`; the heap is fixed at 16 MiB and never shrinks. Where RE2 cannot be
 * loaded (a browser), only the Rust-compatible checks run.
 */

/** Why a `matches` pattern cannot be used as written. */
export interface RegexProblem {
  /** The reference engine's text: regex-syntax's multi-line error, or the compiled-size message. */
  message: string;
  /** `invalid`: Cloudflare rejects it too. `unsupported`: Cloudflare accepts it, cfrules cannot run it. */
  kind: 'invalid' | 'unsupported';
}

/** The reference engine's `regex_compiled_size_limit` (10 MiB). */
export const REGEX_SIZE_LIMIT = 10 * (1 << 20);

/** regex-syntax's default `nest_limit`. */
const NEST_LIMIT = 250;

/**
 * Checks a pattern (a binary string: one character per byte, as the lexer produces it). Returns the first
 * problem in the order the reference reports them, or `undefined` when the pattern is fine.
 */
export function checkRegex(pattern: string): RegexProblem | undefined {
  return analyse(pattern).problem;
}

/** The RE2 translation of a pattern `checkRegex` accepts (what it compiled), else `undefined`. */
export function toRe2Pattern(pattern: string): string | undefined {
  const result = analyse(pattern);
  return result.problem ? undefined : result.re2;
}

interface Analysis {
  problem?: RegexProblem;
  re2?: string;
}

/** Results by pattern: the same pattern is often checked again (editors, repeated validation). */
const cache = new Map<string, Analysis>();
const CACHE_SIZE = 512;

function analyse(pattern: string): Analysis {
  const cached = cache.get(pattern);
  if (cached) return cached;
  // Frozen, since every caller of the same pattern shares the result.
  const result = Object.freeze(analyseUncached(pattern));
  if (result.problem) Object.freeze(result.problem);
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(pattern, result);
  return result;
}

function analyseUncached(pattern: string): Analysis {
  const text = decodeBinary(pattern);
  let ast: Ast;
  let nfaBytes: number;
  try {
    ast = new Parser(text).parse();
    checkNesting(ast, 0);
    nfaBytes = new Translator().size(ast).bytes + NFA_OVERHEAD;
  } catch (err) {
    if (err instanceof RegexSyntaxError) return { problem: invalid(formatRegexError(text, err)) };
    throw err;
  }
  if (nfaBytes > REGEX_SIZE_LIMIT) {
    return { problem: invalid(`Compiled regex exceeds size limit of ${REGEX_SIZE_LIMIT} bytes.`) };
  }
  const writer = new Re2Writer();
  const re2 = writer.write(ast);
  const first = writer.firstProblem();
  if (first) return { problem: unsupported(text, first.description, first.span) };
  if (re2.units > RE2_UNIT_BUDGET) {
    return { problem: unsupported(text, RE2_TOO_LARGE, wholeSpan(text)) };
  }
  const re2Error = compileWithRe2(re2.text);
  if (re2Error !== undefined) {
    const property = writer.properties.find((p) => re2Error.includes(p.text));
    if (property) return { problem: unsupported(text, PROPERTY_NOT_FOUND, property.span) };
    return {
      problem: unsupported(text, `RE2, the engine cfrules runs regexes with, ${re2Error}`, wholeSpan(text)),
    };
  }
  return { re2: re2.text };
}

function invalid(message: string): RegexProblem {
  return { message, kind: 'invalid' };
}

function unsupported(text: string, description: string, span: Span): RegexProblem {
  return { message: formatRegexError(text, new RegexSyntaxError(description, span)), kind: 'unsupported' };
}

/**
 * The pattern as text. The reference parses a Rust `&str`, so bytes ≥ 0x80 are UTF-8 (they come from the
 * expression's own text); a byte that is not valid UTF-8 becomes U+FFFD.
 */
function decodeBinary(pattern: string): string {
  let hasHighByte = false;
  for (let i = 0; i < pattern.length; i++) {
    const code = pattern.charCodeAt(i);
    if (code > 0xff) return pattern;
    if (code >= 0x80) hasHighByte = true;
  }
  if (!hasHighByte) return pattern;
  return new TextDecoder().decode(Uint8Array.from(pattern, (ch) => ch.charCodeAt(0)));
}

// ---------------------------------------------------------------------------------------------------------
// Positions and the error text

/** A position as regex-syntax reports it: offset and column count characters; line and column from 1. */
interface Position {
  offset: number;
  line: number;
  column: number;
}

interface Span {
  start: Position;
  end: Position;
}

function span(start: Position, end: Position): Span {
  return { start, end };
}

function wholeSpan(text: string): Span {
  const chars = Array.from(text);
  let end: Position = { offset: 0, line: 1, column: 1 };
  for (const ch of chars) {
    end = ch === '\n' ? { offset: end.offset + 1, line: end.line + 1, column: 1 } : advance(end);
  }
  return span({ offset: 0, line: 1, column: 1 }, end);
}

function advance(pos: Position): Position {
  return { offset: pos.offset + 1, line: pos.line, column: pos.column + 1 };
}

/** A regex-syntax error: its description, where it is, and for duplicates where the original is. */
class RegexSyntaxError extends Error {
  constructor(
    readonly description: string,
    readonly span: Span,
    readonly original?: Span,
  ) {
    super(description);
  }
}

const DIVIDER = '~'.repeat(79);

/**
 * regex-syntax's error layout. A one-line pattern is indented by 4 with carets under the error (and under
 * the original, for duplicates); a pattern with newlines gets numbered lines between two rules of `~`, and
 * spans over several lines are described in words.
 */
function formatRegexError(text: string, error: RegexSyntaxError): string {
  const lines = rustLines(text);
  const lineCount = lines.length + (text.endsWith('\n') ? 1 : 0);
  const numberWidth = lineCount <= 1 ? 0 : String(lineCount).length;
  const spans = [error.span, ...(error.original ? [error.original] : [])].sort(
    (a, b) => a.start.offset - b.start.offset || a.end.offset - b.end.offset,
  );
  const oneLine = spans.filter((s) => s.start.line === s.end.line);
  const multiLine = spans.filter((s) => s.start.line !== s.end.line);
  let notated = '';
  lines.forEach((line, i) => {
    notated += `${numberWidth > 0 ? `${String(i + 1).padStart(numberWidth)}: ` : '    '}${line}\n`;
    const onThisLine = oneLine.filter((s) => s.start.line === i + 1);
    if (onThisLine.length === 0) return;
    let notes = ' '.repeat(numberWidth === 0 ? 4 : 2 + numberWidth);
    let pos = 0;
    for (const s of onThisLine) {
      for (; pos < s.start.column - 1; pos++) notes += ' ';
      const carets = Math.max(1, s.end.column - s.start.column);
      notes += '^'.repeat(carets);
      pos += carets;
    }
    notated += `${notes}\n`;
  });
  if (!text.includes('\n')) return `regex parse error:\n${notated}error: ${error.description}`;
  const ranges = multiLine.map(
    (s) =>
      `on line ${s.start.line} (column ${s.start.column}) through line ${s.end.line} (column ${s.end.column - 1})\n`,
  );
  return `regex parse error:\n${DIVIDER}\n${notated}${DIVIDER}\n${ranges.join('')}error: ${error.description}`;
}

/** Rust's `str::lines`: split at `\n`, drop a `\r` before it, no empty last line after a final `\n`. */
function rustLines(text: string): string[] {
  if (text === '') return [];
  const parts = text.split('\n');
  const last = parts.pop() ?? '';
  const lines = parts.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (last !== '') lines.push(last);
  return lines;
}

// ---------------------------------------------------------------------------------------------------------
// Syntax tree (the parts of regex-syntax's AST that the checks and the RE2 translation need)

type LiteralForm = 'verbatim' | 'escaped' | 'hexByte' | 'hex';
interface LiteralNode {
  type: 'literal';
  span: Span;
  /** The code point. */
  c: number;
  /** `hexByte` is a two-digit `\xHH`: the only literal that means a raw byte in byte mode. */
  form: LiteralForm;
}
interface DotNode {
  type: 'dot';
  span: Span;
}
type AssertionKind =
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
interface AssertionNode {
  type: 'assertion';
  span: Span;
  kind: AssertionKind;
}
interface UnicodeNode {
  type: 'unicode';
  span: Span;
  negated: boolean;
  /** `\pL` has the name `L`; `\p{sc=Greek}` the name `sc` and the value `Greek`. */
  name: string;
  value?: string;
  notEqual: boolean;
  oneLetter: boolean;
}
interface PerlNode {
  type: 'perl';
  span: Span;
  letter: 'd' | 's' | 'w';
  negated: boolean;
}
type Primitive = LiteralNode | DotNode | AssertionNode | UnicodeNode | PerlNode;

interface RangeNode {
  type: 'range';
  span: Span;
  start: LiteralNode;
  end: LiteralNode;
}
interface AsciiNode {
  type: 'ascii';
  span: Span;
  name: string;
  negated: boolean;
}
interface UnionNode {
  type: 'union';
  span: Span;
  items: ClassItem[];
}
interface EmptyNode {
  type: 'empty';
  span: Span;
}
interface BracketedNode {
  type: 'bracketed';
  span: Span;
  negated: boolean;
  set: ClassSet;
}
interface SetOpNode {
  type: 'setop';
  span: Span;
  lhs: ClassSet;
  rhs: ClassSet;
}
type ClassItem =
  | LiteralNode
  | UnicodeNode
  | PerlNode
  | RangeNode
  | AsciiNode
  | UnionNode
  | EmptyNode
  | BracketedNode;
type ClassSet = ClassItem | SetOpNode;

/** A flag letter (`imsUuRx`) or `-`. */
interface FlagItem {
  span: Span;
  flag: string;
}
interface FlagsNode {
  type: 'flags';
  span: Span;
  items: FlagItem[];
}
interface RepetitionNode {
  type: 'repetition';
  span: Span;
  opSpan: Span;
  op: '?' | '*' | '+' | 'exactly' | 'atLeast' | 'bounded';
  min: number;
  max: number | undefined;
  greedy: boolean;
  sub: Ast;
}
interface GroupNode {
  type: 'group';
  span: Span;
  capturing: boolean;
  flags?: FlagItem[];
  sub: Ast;
}
interface AlternationNode {
  type: 'alternation';
  span: Span;
  subs: Ast[];
}
interface ConcatNode {
  type: 'concat';
  span: Span;
  subs: Ast[];
}
type Ast =
  | Primitive
  | EmptyNode
  | FlagsNode
  | BracketedNode
  | RepetitionNode
  | GroupNode
  | AlternationNode
  | ConcatNode;

/** A concatenation being built; becomes empty, its only item, or a concat node. */
interface Sequence {
  span: Span;
  subs: Ast[];
}

function sequenceToAst(seq: Sequence): Ast {
  if (seq.subs.length === 0) return { type: 'empty', span: seq.span };
  if (seq.subs.length === 1) return seq.subs[0];
  return { type: 'concat', span: seq.span, subs: seq.subs };
}

function unionToItem(union: UnionNode): ClassItem {
  if (union.items.length === 0) return { type: 'empty', span: union.span };
  if (union.items.length === 1) return union.items[0];
  return union;
}

function pushToUnion(union: UnionNode, item: ClassItem): void {
  if (union.items.length === 0) union.span = span(item.span.start, union.span.end);
  union.span = span(union.span.start, item.span.end);
  union.items.push(item);
}

// ---------------------------------------------------------------------------------------------------------
// Parser: regex-syntax's grammar, error kinds and spans (octal off, `x` off unless enabled by a flag)

const META = new Set(Array.from('\\.+*?()|[]{}^$#&-~'));
const FLAGS = new Set(Array.from('imsUuRx'));
const ASCII_CLASSES = new Map<string, number>([
  // Class name → number of byte ranges (for the size estimate).
  ['alnum', 3],
  ['alpha', 2],
  ['ascii', 1],
  ['blank', 2],
  ['cntrl', 2],
  ['digit', 1],
  ['graph', 1],
  ['lower', 1],
  ['print', 1],
  ['punct', 4],
  ['space', 2],
  ['upper', 1],
  ['word', 4],
  ['xdigit', 3],
]);
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

class Parser {
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
    if (!this.bumpIf(':]') || !ASCII_CLASSES.has(name)) return fail();
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

/** regex-syntax's nesting limit, counted over the finished tree in the same order. */
function checkNesting(node: Ast | ClassSet, depth: number): void {
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

// ---------------------------------------------------------------------------------------------------------
// Translation checks and the compiled-size estimate (regex-automata's Thompson NFA builder)

/** Builder bytes: a state is 32 bytes; a class range 8; a union branch 4. */
const STATE = 32;
const RANGE = 8;
const BRANCH = 4;
/** The unanchored prefix, the match state and the like. */
const NFA_OVERHEAD = 8 * STATE;
/** Rough UTF-8 automata sizes, in bytes, of Unicode-mode classes (the reverse automaton is the larger). */
const UNICODE_CLASS = 1000 * 40;
const UNICODE_PERL = { d: 200 * 40, s: 40 * 40, w: 1000 * 40 };
const UNICODE_DOT = 20 * 40;
const UNICODE_RANGE = 4 * STATE;

const byteClassBytes = (ranges: number): number => 2 * STATE + RANGE * ranges;

interface Flags {
  unicode: boolean;
  caseInsensitive: boolean;
  dotAll: boolean;
}

/** The size of what a node compiles to, and whether it can only match the empty string. */
interface Size {
  bytes: number;
  emptyOnly: boolean;
}

/**
 * Walks the tree with the flags in force, as regex-syntax's translator does: reports `Unicode not allowed
 * here` where byte mode cannot express a literal or class, and adds up the estimated NFA size.
 */
class Translator {
  private flags: Flags = { unicode: false, caseInsensitive: false, dotAll: false };

  size(node: Ast): Size {
    switch (node.type) {
      case 'empty':
        return { bytes: STATE, emptyOnly: true };
      case 'flags':
        this.flags = applyFlags(this.flags, node.items);
        return { bytes: 0, emptyOnly: true };
      case 'literal':
        // Outside a class, byte mode accepts any character and matches its UTF-8 bytes (regex-syntax
        // 0.8.2 and later: "(?-u:☃)" is allowed); only classes still refuse non-ASCII characters.
        return { bytes: this.literalBytes(node), emptyOnly: false };
      case 'dot':
        return {
          bytes: this.flags.unicode ? UNICODE_DOT : byteClassBytes(this.flags.dotAll ? 1 : 2),
          emptyOnly: false,
        };
      case 'assertion':
        return { bytes: STATE, emptyOnly: true };
      case 'perl':
        return {
          bytes: this.flags.unicode ? UNICODE_PERL[node.letter] : byteClassBytes(4),
          emptyOnly: false,
        };
      case 'unicode':
        this.checkUnicodeClass(node);
        return { bytes: UNICODE_CLASS, emptyOnly: false };
      case 'bracketed': {
        const { ranges, extra } = this.classSize(node);
        return { bytes: byteClassBytes(ranges) + extra, emptyOnly: false };
      }
      case 'repetition':
        return this.repetitionSize(node);
      case 'group': {
        const outer = this.flags;
        if (node.flags) this.flags = applyFlags(this.flags, node.flags);
        const size = this.size(node.sub);
        this.flags = outer;
        return size;
      }
      case 'alternation':
      case 'concat': {
        let bytes = node.type === 'alternation' ? 2 * STATE + BRANCH * node.subs.length : 0;
        let emptyOnly = true;
        for (const sub of node.subs) {
          const size = this.size(sub);
          bytes += size.bytes;
          emptyOnly &&= size.emptyOnly;
        }
        return { bytes, emptyOnly };
      }
    }
  }

  private literalBytes(node: LiteralNode): number {
    const { c } = node;
    if (c > 0x7f && (this.flags.unicode || node.form !== 'hexByte')) return utf8Length(c) * STATE;
    const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
    return this.flags.caseInsensitive && letter ? byteClassBytes(2) : STATE;
  }

  /** In a class, byte mode has no way to say a non-ASCII character except as a `\xHH` byte. */
  private checkLiteral(node: LiteralNode): void {
    if (!this.flags.unicode && node.c > 0x7f && node.form !== 'hexByte') {
      throw new RegexSyntaxError('Unicode not allowed here', node.span);
    }
  }

  private checkUnicodeClass(node: UnicodeNode): void {
    if (!this.flags.unicode) throw new RegexSyntaxError('Unicode not allowed here', node.span);
  }

  private repetitionSize(node: RepetitionNode): Size {
    const sub = this.size(node.sub);
    let { min, max } = node;
    // regex-syntax caps the repetition of something that can only match the empty string at one.
    if (sub.emptyOnly) {
      min = Math.min(min, 1);
      max = Math.min(max ?? 1, 1);
    }
    const optional = sub.bytes + STATE + 2 * BRANCH;
    let bytes: number;
    if (max === undefined) bytes = min === 0 ? optional + STATE : min * sub.bytes + STATE + 2 * BRANCH;
    else if (min === max) bytes = min === 0 ? STATE : min * sub.bytes;
    else bytes = min * sub.bytes + STATE + (max - min) * optional;
    return { bytes, emptyOnly: sub.emptyOnly || max === 0 };
  }

  /** Byte ranges of a class and the extra bytes of its Unicode parts; checks its literals. */
  private classSize(node: ClassSet): { ranges: number; extra: number } {
    const fold = this.flags.caseInsensitive ? 2 : 1;
    switch (node.type) {
      case 'literal':
        this.checkLiteral(node);
        return this.flags.unicode && node.c > 0x7f
          ? { ranges: 0, extra: UNICODE_RANGE }
          : { ranges: fold, extra: 0 };
      case 'range':
        this.checkLiteral(node.start);
        this.checkLiteral(node.end);
        return this.flags.unicode && node.end.c > 0x7f
          ? { ranges: 0, extra: UNICODE_RANGE }
          : { ranges: fold, extra: 0 };
      case 'ascii':
        return { ranges: ASCII_CLASSES.get(node.name) ?? 1, extra: 0 };
      case 'perl':
        return this.flags.unicode ? { ranges: 0, extra: UNICODE_PERL[node.letter] } : { ranges: 4, extra: 0 };
      case 'unicode':
        this.checkUnicodeClass(node);
        return { ranges: 0, extra: UNICODE_CLASS };
      case 'empty':
        return { ranges: 0, extra: 0 };
      case 'bracketed': {
        const inner = this.classSize(node.set);
        const negation = node.negated ? (this.flags.unicode ? UNICODE_DOT : RANGE) : 0;
        return { ranges: inner.ranges + 1, extra: inner.extra + negation };
      }
      case 'union':
      case 'setop': {
        const parts = node.type === 'union' ? node.items : [node.lhs, node.rhs];
        let ranges = 0;
        let extra = 0;
        for (const part of parts) {
          const size = this.classSize(part);
          ranges += size.ranges;
          extra += size.extra;
        }
        return { ranges, extra };
      }
    }
  }
}

function applyFlags(flags: Flags, items: FlagItem[]): Flags {
  const next = { ...flags };
  let enable = true;
  for (const { flag } of items) {
    if (flag === '-') enable = false;
    else if (flag === 'u') next.unicode = enable;
    else if (flag === 'i') next.caseInsensitive = enable;
    else if (flag === 's') next.dotAll = enable;
  }
  return next;
}

function utf8Length(c: number): number {
  return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
}

// ---------------------------------------------------------------------------------------------------------
// RE2

/**
 * Cost units of a translated pattern, roughly RE2 program instructions (a repeated operand is compiled once
 * per copy; a Unicode property class costs thousands). re2-wasm aborts, for good, when a compile outgrows its
 * 16 MiB heap instead of reporting RE2's memory limit: `\p{L}{80}` or 300 `x{1000}` in a row did in our
 * measurements, while 60,000 units (`\p{L}{20}`, 60 `[a-z]{1000}`) left room for other live regexes.
 */
const RE2_UNIT_BUDGET = 60_000;
const RE2_PROPERTY_UNITS = 3000;
const RE2_MAX_REPEAT = 1000;
const RE2_TOO_LARGE = 'pattern too large for RE2, the engine cfrules runs regexes with';
const PROPERTY_NOT_FOUND =
  'Unicode property not found (cfrules knows the general categories and scripts RE2 knows, such as \\pL, \\p{Lu} or \\p{Greek})';
const GENERAL_CATEGORIES = new Set(
  'l lu ll lt lm lo m mn mc me n nd nl no p pc pd ps pe pi pf po s sm sc sk so z zs zl zp c cc cf cs co cn'.split(
    ' ',
  ),
);
const RE2_META = new Set(Array.from('\\.+*?()|[]{}^$'));

interface Written {
  text: string;
  units: number;
  /** Product of nested counted repetitions (RE2 allows at most 1000). */
  product: number;
}

/** Writes the tree in RE2 syntax and notes what RE2 cannot express. */
class Re2Writer {
  private readonly problems: { span: Span; description: string }[] = [];
  /** Unicode property classes as written for RE2, to point at the one RE2 does not know. */
  readonly properties: { text: string; span: Span }[] = [];

  /** The first problem in the text. */
  firstProblem(): { span: Span; description: string } | undefined {
    return this.problems.reduce<{ span: Span; description: string } | undefined>(
      (first, p) => (!first || p.span.start.offset < first.span.start.offset ? p : first),
      undefined,
    );
  }

  write(node: Ast): Written {
    const leaf = (text: string, units: number): Written => ({ text, units, product: 1 });
    switch (node.type) {
      case 'empty':
        return leaf('', 0);
      case 'flags': {
        const flags = this.flags(node.items);
        return leaf(flags === '' ? '' : `(?${flags})`, 0);
      }
      case 'literal':
        return leaf(re2Literal(node.c), 1);
      case 'dot':
        return leaf('.', 10);
      case 'assertion':
        return leaf(this.assertion(node), 1);
      case 'perl':
        return leaf(perl(node), 4);
      case 'unicode':
        return leaf(this.property(node), RE2_PROPERTY_UNITS);
      case 'bracketed':
        return this.bracketed(node);
      case 'repetition':
        return this.repetition(node);
      case 'group': {
        const sub = this.write(node.sub);
        const open = node.capturing ? '(' : `(?${this.flags(node.flags ?? [])}:`;
        return { ...sub, text: `${open}${sub.text})` };
      }
      case 'alternation':
      case 'concat': {
        const subs = node.subs.map((sub) => this.write(sub));
        return {
          text: subs.map((sub) => sub.text).join(node.type === 'alternation' ? '|' : ''),
          units: subs.reduce((sum, sub) => sum + sub.units, 0),
          product: subs.reduce((most, sub) => Math.max(most, sub.product), 1),
        };
      }
    }
  }

  /** RE2 knows `imsU`; `u` and `x` are resolved by the translation; `R` has no equivalent. */
  private flags(items: FlagItem[]): string {
    let on = '';
    let off = '';
    let negated = false;
    for (const item of items) {
      if (item.flag === '-') negated = true;
      else if (item.flag === 'R')
        this.problems.push({ span: item.span, description: 'CRLF mode (?R) is not supported by RE2' });
      else if ('imsU'.includes(item.flag) && negated) off += item.flag;
      else if ('imsU'.includes(item.flag)) on += item.flag;
    }
    return off === '' ? on : `${on}-${off}`;
  }

  private assertion(node: AssertionNode): string {
    const simple: Partial<Record<AssertionKind, string>> = {
      startLine: '^',
      endLine: '$',
      startText: '\\A',
      endText: '\\z',
      word: '\\b',
      notWord: '\\B',
    };
    const text = simple[node.kind];
    if (text !== undefined) return text;
    this.problems.push({
      span: node.span,
      description: 'this word boundary assertion is not supported by RE2',
    });
    return '\\b';
  }

  private property(node: UnicodeNode): string {
    let negated = node.negated;
    let name = node.name;
    if (node.value !== undefined) {
      const key = looseName(node.name);
      if (node.notEqual) negated = !negated;
      name = ['gc', 'generalcategory', 'sc', 'script'].includes(key)
        ? node.value
        : `${node.name}=${node.value}`;
    }
    const loose = looseName(name);
    if (loose === 'any') name = 'Any';
    else if (GENERAL_CATEGORIES.has(loose)) name = loose[0].toUpperCase() + loose.slice(1);
    const text = `\\${negated ? 'P' : 'p'}${name.length === 1 ? name : `{${name}}`}`;
    this.properties.push({ text, span: node.span });
    return text;
  }

  private bracketed(node: BracketedNode): Written {
    const parts: string[] = [];
    let units = node.negated ? 10 : 0;
    const add = (item: ClassSet): void => {
      switch (item.type) {
        case 'literal':
          parts.push(re2ClassChar(item.c));
          units += item.c > 0x7f ? 8 : 1;
          return;
        case 'range':
          parts.push(`${re2ClassChar(item.start.c)}-${re2ClassChar(item.end.c)}`);
          units += item.end.c > 0x7f ? 8 : 1;
          return;
        case 'ascii':
          parts.push(`[:${item.negated ? '^' : ''}${item.name}:]`);
          units += 4;
          return;
        case 'perl':
          parts.push(perl(item));
          units += 4;
          return;
        case 'unicode':
          parts.push(this.property(item));
          units += RE2_PROPERTY_UNITS;
          return;
        case 'union':
          for (const inner of item.items) add(inner);
          return;
        case 'empty':
          return;
        case 'bracketed':
          // A nested class is a union of its items, unless negated (RE2 cannot nest classes).
          if (item.negated) {
            this.problems.push({
              span: item.span,
              description: 'negated classes inside a class are not supported by RE2',
            });
          }
          add(item.set);
          return;
        case 'setop':
          this.problems.push({
            span: item.span,
            description: 'class set operations are not supported by RE2',
          });
          return;
      }
    };
    add(node.set);
    return { text: `[${node.negated ? '^' : ''}${parts.join('')}]`, units, product: 1 };
  }

  private repetition(node: RepetitionNode): Written {
    const sub = this.write(node.sub);
    // RE2 rejects a repetition of a repetition (`a**`) and counts only in braces written as digits.
    const atom = ['literal', 'dot', 'perl', 'unicode', 'bracketed', 'group'].includes(node.sub.type);
    const operand = atom ? sub.text : `(?:${sub.text})`;
    const lazy = node.greedy ? '' : '?';
    const { min, max } = node;
    switch (node.op) {
      case '?':
      case '*':
      case '+':
        return { text: `${operand}${node.op}${lazy}`, units: sub.units, product: sub.product };
      default: {
        const count =
          node.op === 'exactly' ? `{${min}}` : node.op === 'atLeast' ? `{${min},}` : `{${min},${max}}`;
        const copies = max ?? min + 1;
        const product = Math.max(max ?? min, 1) * sub.product;
        if (product > RE2_MAX_REPEAT) {
          this.problems.push({
            span: node.opSpan,
            description: 'counted repetition above 1000 (nested counts multiplied) is not supported by RE2',
          });
        }
        return { text: `${operand}${count}${lazy}`, units: Math.max(copies, 1) * sub.units, product };
      }
    }
  }
}

function perl(node: PerlNode): string {
  return `\\${node.negated ? node.letter.toUpperCase() : node.letter}`;
}

/** Rust's loose matching of property names: case, spaces, `_` and `-` do not matter. */
function looseName(name: string): string {
  return name.replace(/[\s_-]/gu, '').toLowerCase();
}

function hexEscape(c: number): string {
  return `\\x{${c.toString(16).toUpperCase()}}`;
}

function re2Literal(c: number): string {
  if (c < 0x20 || c > 0x7e) return hexEscape(c);
  const ch = String.fromCharCode(c);
  return RE2_META.has(ch) ? `\\${ch}` : ch;
}

function re2ClassChar(c: number): string {
  return /^[0-9A-Za-z]$/.test(String.fromCodePoint(c)) ? String.fromCodePoint(c) : hexEscape(c);
}

interface WrappedRe2 {
  ok(): boolean;
  error(): string;
  delete(): void;
}
type WrappedRe2Class = new (
  pattern: string,
  ignoreCase: boolean,
  multiline: boolean,
  dotAll: boolean,
) => WrappedRe2;

/** `undefined` until first use; `null` where RE2 cannot be loaded or its heap was exhausted. */
let re2Class: WrappedRe2Class | null | undefined;

function loadRe2(): WrappedRe2Class | null {
  if (re2Class === undefined) {
    re2Class = null;
    try {
      const nodeModule = globalThis.process?.getBuiltinModule?.('node:module');
      if (nodeModule) {
        const load = nodeModule.createRequire(import.meta.url);
        const loaded = load('re2-wasm/build/wasm/re2.js') as { WrappedRE2?: WrappedRe2Class };
        re2Class = loaded.WrappedRE2 ?? null;
      }
    } catch {
      re2Class = null;
    }
  }
  return re2Class;
}

/** Compiles with RE2 and frees the result; returns RE2's error text, if any. */
function compileWithRe2(pattern: string): string | undefined {
  const Re2 = loadRe2();
  if (!Re2) return undefined;
  let compiled: WrappedRe2 | undefined;
  try {
    compiled = new Re2(pattern, false, false, false);
    return compiled.ok() ? undefined : `rejects it: ${compiled.error()}`;
  } catch (err) {
    // An abort (heap exhausted) leaves the wasm module unusable: stop using it.
    if (err instanceof Error && err.message.startsWith('abort(')) {
      re2Class = null;
      return 'could not compile it (out of memory)';
    }
    throw err;
  } finally {
    compiled?.delete();
  }
}
