import { SQL_PHRASES, SQL_WORDS } from './sqli-words.js';

/**
 * A tokenizing SQL-injection detector in the manner of libinjection (the detector behind ModSecurity's
 * `@detectSQLi`, which CRS rule 942100 runs): the value is read as SQL, the tokens are folded into a short
 * fingerprint of token types, and the fingerprint decides. It is written for cfrules from libinjection's
 * published description (tokens, three quote contexts, folding, a five-token fingerprint, reducers of false
 * positives); the code, the word tables and the acceptance rules are ours.
 *
 * 1. **Tokens.** The value is read as SQL of the usual dialects: strings (`'…'`, `"…"`, `N'…'`, `$$…$$`,
 *    Oracle's `q'[…]'`), numbers (`12`, `1.5e3`, `0x1F`, `0b101`, `x'1F'`, `\N`), quoted names (`` `x` ``,
 *    `[x]`), variables (`@x`, `@@version`), comments (`--`, `#`, `/* … *\/`), operators and words. A word is
 *    classified by `sqli-words.ts`; a function name is a function only when a `(` follows it. Each token gets
 *    one of the types below; the fingerprint is the string of their letters.
 *
 *    | type | meaning | type | meaning |
 *    |---|---|---|---|
 *    | `s` | string | `1` | number or NULL/TRUE/FALSE |
 *    | `n` | name (bare word) | `v` | variable |
 *    | `k` | keyword | `E` | statement word (SELECT, DROP…) |
 *    | `U` | UNION, EXCEPT… | `B` | ORDER BY, GROUP BY, HAVING |
 *    | `T` | procedural statement (WAITFOR, EXEC…) | `t` | data type |
 *    | `f` | function (followed by `(`) | `o` | operator |
 *    | `&` | AND, OR, XOR, `&&`, `\|\|` | `c` | comment |
 *    | `A` | COLLATE | `( ) { } . , ; :` | themselves |
 *    | `X` | a comment nested in a comment, which no two SQL readings agree on (the fingerprint is `X` alone) | | |
 *
 * 2. **Three contexts.** An injected value lands inside a statement: after nothing (a number, a name, a whole
 *    statement), or inside a string opened by `'` or `"`. The value is read as is, then, when it holds that
 *    quote, as if a `'` preceded it, then as if a `"` did: the first token is then the rest of the string the
 *    application opened, and the value's own quote closes it.
 *
 * 3. **Two dialects.** `#` starts a comment in MySQL and is an operator in PostgreSQL; `--` starts a comment
 *    everywhere but MySQL, which wants white space after it; a backslash escapes a quote in MySQL's strings
 *    only. The value is read the standard way first, and again the MySQL way when it holds any of these. A
 *    double-quoted string is a string in MySQL only (elsewhere it is a name): that context is read the MySQL
 *    way only.
 *
 * 4. **Folding.** Tokens go on a short stack, and the top is reduced after each one: comments disappear (one
 *    that ends the value is kept at the end), a leading `(`, unary operator or type is skipped, two words
 *    that make a phrase become one token (`UNION ALL`, `ORDER BY`, `NOT LIKE`, `WAITFOR DELAY`), a value, an
 *    operator and a value become the first value (`1=1` → `1`, `a-b` → `a`), a list becomes its first item
 *    (`1,2,3` → `1`), a chain of ANDs and ORs becomes one, a qualified name becomes its last part, a type
 *    before a value disappears (`BINARY 'a'`), so do unary operators after an operator, `((` is `(`, `))`
 *    is `)`, two strings that follow each other are one, and so are two `;`. A folded value remembers that
 *    it was folded (`1=1` is a comparison, `1` is not), which the decision uses. Reading stops once the
 *    stack holds two tokens more than the five a fingerprint keeps, so only the beginning of a long value is
 *    read, unless it keeps folding (`1+1+1…`): the work is linear in the value, and small.
 *
 * 5. **Decision.** `isInjection` below says which fingerprints are injections. There is no list of accepted
 *    fingerprints: acceptance is a set of rules over the token sequence, written for this project from what
 *    an injection has to do where it lands — leave the string or number it landed in (the context's string,
 *    maybe a `)`), then change the statement: a condition that compares (`OR 1=1`, not `OR 2`), a UNION
 *    SELECT, a stacked statement, a call of a function that probes the server (`sleep`, `version`…), a
 *    comment that cuts the rest off, or a computation that ends in a string the application's own quote
 *    closes (`' || 'a'='a`). Where the types alone cannot tell an injection from prose, code or a password,
 *    the rules look at the tokens' text, as libinjection's reducers of false positives do: which comment
 *    marker (`admin'--` but not `1 -- see page 2` or `x'#`), which operator (a comparison, not `/` in
 *    `href="/home"`), which function (`sleep(5)` but not `max(1, 2)`). The rules were tuned against our own
 *    attack cases and benign values (`test/eval/waf-sqli.test.ts`, `test/fixtures/waf-sqli/benign.txt`), and
 *    measured against CRS's regression tests outside the repository.
 *
 * Input is a binary string (one char per byte); any bytes are accepted and nothing throws.
 */
export interface SqliDetection {
  readonly fingerprint: string;
}

// ---------------------------------------------------------------------------------------------------------
// Token types: the char code of the letter that stands for the type in a fingerprint.

const STRING = 0x73; // s
const NUMBER = 0x31; // 1
const NAME = 0x6e; // n
const VARIABLE = 0x76; // v
const KEYWORD = 0x6b; // k
const STATEMENT = 0x45; // E
const UNION = 0x55; // U
const GROUP = 0x42; // B
const PROCEDURAL = 0x54; // T
const TYPE = 0x74; // t
const FUNCTION = 0x66; // f
const OPERATOR = 0x6f; // o
const LOGIC = 0x26; // &
const COMMENT = 0x63; // c
const COLLATE = 0x41; // A
const LPAREN = 0x28; // (
const RPAREN = 0x29; // )
const LBRACE = 0x7b; // {
const RBRACE = 0x7d; // }
const DOT = 0x2e; // .
const COMMA = 0x2c; // ,
const SEMICOLON = 0x3b; // ;
const COLON = 0x3a; // :
const EVIL = 0x58; // X

/** Every letter a fingerprint can hold (for tests). */
export const SQLI_TOKEN_TYPES = 's1nvkEUBTtfo&cA(){}.,;:X';

// ---------------------------------------------------------------------------------------------------------
// The word table, built once from `sqli-words.ts`: each word gets an id; a hash of its upper-case letters
// finds it without building a string per word read.

interface WordEntry {
  readonly text: string;
  /** The token type the word has on its own; NAME for a word that is only a function name. */
  readonly type: number;
  /** A function name: the word is FUNCTION when a `(` follows. */
  readonly fn: boolean;
  /** IN: an operator when a `(` follows, a name otherwise. */
  readonly isIn: boolean;
  /** NOT: a unary operator. */
  readonly unary: boolean;
  /** IF: a procedural statement after `;`. */
  readonly isIf: boolean;
  /** A function that probes the server (sleep, load_file, version…). */
  readonly probe: boolean;
}

type WordClass = Exclude<keyof typeof SQL_WORDS, 'probe'>;

const CLASS_TYPES: Record<WordClass, number> = {
  statement: STATEMENT,
  union: UNION,
  group: GROUP,
  procedural: PROCEDURAL,
  keyword: KEYWORD,
  operator: OPERATOR,
  logic: LOGIC,
  literal: NUMBER,
  collate: COLLATE,
  type: TYPE,
  function: NAME,
};

/** A phrase's type when it takes the second word's type. */
const SECOND = -1;

const words: WordEntry[] = [];
const wordIds = new Map<string, number>();
/** hash → first word id with that hash; `nextSameHash[id]` chains the others. */
const wordsByHash = new Map<number, number>();
const nextSameHash: number[] = [];
/** (first id × 4096 + second id) → the phrase's type, or SECOND. */
const phrases = new Map<number, number>();
/** The longest word: longer ones are names without looking them up. */
let longestWord = 0;

function upper(c: number): number {
  return c >= 0x61 && c <= 0x7a ? c - 0x20 : c;
}

function hashWord(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ upper(text.charCodeAt(i)), 0x01000193);
  return h >>> 0;
}

function defineWord(text: string, type: number | undefined, fn: boolean, probe = false): void {
  const known = wordIds.get(text);
  if (known !== undefined) {
    const old = words[known];
    words[known] = { ...old, type: type ?? old.type, fn: old.fn || fn, probe: old.probe || probe };
    return;
  }
  const id = words.length;
  words.push({
    text,
    type: type ?? NAME,
    fn,
    isIn: text === 'IN',
    unary: text === 'NOT',
    isIf: text === 'IF',
    probe,
  });
  wordIds.set(text, id);
  const h = hashWord(text, 0, text.length);
  nextSameHash[id] = wordsByHash.get(h) ?? -1;
  wordsByHash.set(h, id);
  if (text.length > longestWord) longestWord = text.length;
}

function splitWords(list: string): string[] {
  return list.split(/\s+/).filter((w) => w !== '');
}

for (const [cls, list] of Object.entries(SQL_WORDS) as [keyof typeof SQL_WORDS, string][]) {
  for (const w of splitWords(list)) {
    if (cls === 'function' || cls === 'probe') defineWord(w, undefined, true, cls === 'probe');
    else defineWord(w, CLASS_TYPES[cls], false);
  }
}
// Words that matter only as a phrase's part (ORDER BY, SOUNDS LIKE, WAITFOR DELAY…) are names on their own.
for (const [first, seconds] of SQL_PHRASES) {
  for (const w of [first, ...splitWords(seconds)]) if (!wordIds.has(w)) defineWord(w, undefined, false);
}
defineWord('IN', NAME, false);
for (const [first, seconds, kind] of SQL_PHRASES) {
  const a = wordIds.get(first) as number;
  for (const w of splitWords(seconds)) {
    const b = wordIds.get(w) as number;
    phrases.set(a * 4096 + b, kind === 'second' ? SECOND : CLASS_TYPES[kind as WordClass]);
  }
}

function lookupWord(text: string, start: number, end: number): number {
  const size = end - start;
  if (size > longestWord) return -1;
  let id = wordsByHash.get(hashWord(text, start, end)) ?? -1;
  while (id >= 0) {
    const w = words[id].text;
    if (w.length === size) {
      let i = 0;
      while (i < size && upper(text.charCodeAt(start + i)) === w.charCodeAt(i)) i++;
      if (i === size) return id;
    }
    id = nextSameHash[id];
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------------------
// Characters.

/** 1: white space (including NUL and Latin-1's no-break space); 2: a character of a word. */
const CHAR_CLASS = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0]) CHAR_CLASS[c] = 1;
// Other control characters separate tokens as white space does.
for (let c = 0x01; c < 0x20; c++) if (CHAR_CLASS[c] === 0) CHAR_CLASS[c] = 1;
CHAR_CLASS[0x7f] = 1;
for (let c = 0x30; c <= 0x39; c++) CHAR_CLASS[c] = 2;
for (let c = 0x41; c <= 0x5a; c++) CHAR_CLASS[c] = 2;
for (let c = 0x61; c <= 0x7a; c++) CHAR_CLASS[c] = 2;
CHAR_CLASS[0x5f] = 2; // _
CHAR_CLASS[0x24] = 2; // $
for (let c = 0x80; c < 0x100; c++) if (c !== 0xa0) CHAR_CLASS[c] = 2;

function isSpace(c: number): boolean {
  return c < 256 && CHAR_CLASS[c] === 1;
}

function isWordChar(c: number): boolean {
  return c >= 256 || CHAR_CLASS[c] === 2;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

// ---------------------------------------------------------------------------------------------------------
// Tokens and the lexer. There is one lexer and a fixed set of token slots, reused by every call: reading a
// value allocates nothing but the fingerprint of a detection.

class Token {
  type = 0;
  /** The token's text is input[start, end) (a string's content, without its quotes). */
  start = 0;
  end = 0;
  /** A string's or quoted name's opening and closing quote (0: none — the context's quote, or unclosed). */
  open = 0;
  close = 0;
  /** The word's id in the table, or -1. */
  word = -1;
  /** An operator that can be unary: `+ - ! ~ NOT`. */
  unary = false;
  /** A value that folding made of a comparison (`1=1`, `a LIKE b`), or a word that folding made of two. */
  folded = false;

  set(type: number, start: number, end: number): void {
    this.type = type;
    this.start = start;
    this.end = end;
    this.open = 0;
    this.close = 0;
    this.word = -1;
    this.unary = false;
    this.folded = false;
  }

  copy(from: Token): void {
    this.type = from.type;
    this.start = from.start;
    this.end = from.end;
    this.open = from.open;
    this.close = from.close;
    this.word = from.word;
    this.unary = from.unary;
    this.folded = from.folded;
  }
}

const QUOTE_NONE = 0;
const SINGLE = 0x27;
const DOUBLE = 0x22;
const BACKTICK = 0x60;

/** Lexer state of the reading in progress. */
let src = '';
let pos = 0;
let srcEnd = 0;
/** The context's quote before the first token is read; 0 after. */
let pendingQuote = 0;
let mysql = false;
/** Inside MySQL's executable comments `/*! … *\/`: their text is SQL and their end is nothing. */
let execComments = 0;
/** What the standard reading saw that MySQL reads otherwise: `#`, or `--` without white space after it. */
let dialectSensitive = false;

function startLexer(input: string, quote: number, mysqlDialect: boolean): void {
  src = input;
  pos = 0;
  srcEnd = input.length;
  pendingQuote = quote;
  mysql = mysqlDialect;
  execComments = 0;
  dialectSensitive = false;
}

/**
 * The index of the quote closing a string whose text starts at `from`, or -1. A doubled quote is one quote
 * of the text; a backslash escapes the next character in MySQL only (standard SQL, PostgreSQL, SQL Server and
 * SQLite end `'a\'` at its second quote): a backslash read the standard way asks for the MySQL reading too.
 */
function stringEnd(from: number, quote: number, backslash: boolean): number {
  let i = from;
  while (i < srcEnd) {
    const c = src.charCodeAt(i);
    if (c === 0x5c && backslash) {
      if (mysql) i += 2;
      else {
        dialectSensitive = true;
        i++;
      }
    } else if (c === quote) {
      if (i + 1 < srcEnd && src.charCodeAt(i + 1) === quote) i += 2;
      else return i;
    } else i++;
  }
  return -1;
}

/** A string (or a quoted name, or a hex/bit literal) whose opening quote is at `quoteAt`. */
function readQuoted(tok: Token, type: number, quoteAt: number, quote: number): void {
  const from = quoteAt + 1;
  const close = stringEnd(from, quote, quote !== BACKTICK);
  tok.set(type, from, close < 0 ? srcEnd : close);
  tok.open = quote;
  tok.close = close < 0 ? 0 : quote;
  pos = close < 0 ? srcEnd : close + 1;
}

function setToken(tok: Token, type: number, start: number, end: number): void {
  tok.set(type, start, end);
  pos = end;
}

/** Whether the next thing after `from`, past white space and block comments, is `(`. */
function parenFollows(from: number): boolean {
  let i = from;
  while (i < srcEnd) {
    const c = src.charCodeAt(i);
    if (isSpace(c)) i++;
    else if (c === 0x2f && src.charCodeAt(i + 1) === 0x2a) {
      const close = src.indexOf('*/', i + 2);
      if (close < 0) return false;
      i = close + 2;
    } else return c === LPAREN;
  }
  return false;
}

function readNumber(tok: Token, start: number): void {
  let i = start;
  const c0 = src.charCodeAt(i);
  const c1 = i + 1 < srcEnd ? src.charCodeAt(i + 1) : 0;
  if (c0 === 0x30 && (c1 === 0x78 || c1 === 0x58) && i + 2 < srcEnd && isHexDigit(src.charCodeAt(i + 2))) {
    i += 3;
    while (i < srcEnd && isHexDigit(src.charCodeAt(i))) i++;
  } else if (
    c0 === 0x30 &&
    (c1 === 0x62 || c1 === 0x42) &&
    i + 2 < srcEnd &&
    (src.charCodeAt(i + 2) === 0x30 || src.charCodeAt(i + 2) === 0x31)
  ) {
    i += 3;
    while (i < srcEnd && (src.charCodeAt(i) === 0x30 || src.charCodeAt(i) === 0x31)) i++;
  } else {
    while (i < srcEnd && isDigit(src.charCodeAt(i))) i++;
    if (i < srcEnd && src.charCodeAt(i) === DOT) {
      i++;
      while (i < srcEnd && isDigit(src.charCodeAt(i))) i++;
    }
    if (i < srcEnd && (src.charCodeAt(i) | 0x20) === 0x65) {
      let j = i + 1;
      const sign = j < srcEnd ? src.charCodeAt(j) : 0;
      if (sign === 0x2b || sign === 0x2d) j++;
      if (j < srcEnd && isDigit(src.charCodeAt(j))) {
        i = j + 1;
        while (i < srcEnd && isDigit(src.charCodeAt(i))) i++;
      }
    }
  }
  setToken(tok, NUMBER, start, i);
}

/** A comment from `start` to the end of the line. */
function readLineComment(tok: Token, start: number): void {
  const nl = src.indexOf('\n', start);
  setToken(tok, COMMENT, start, nl < 0 ? srcEnd : nl);
}

function readWord(tok: Token, start: number): void {
  let i = start + 1;
  while (i < srcEnd && isWordChar(src.charCodeAt(i))) i++;
  const next = i < srcEnd ? src.charCodeAt(i) : 0;
  if (next === SINGLE && i - start === 1) {
    const first = src.charCodeAt(start) | 0x20;
    // N'…' (national), E'…' (PostgreSQL escapes): strings; X'…', B'…': hex and bit numbers.
    if (first === 0x6e || first === 0x65) {
      readQuoted(tok, STRING, i, SINGLE);
      return;
    }
    if (first === 0x78 || first === 0x62) {
      readQuoted(tok, NUMBER, i, SINGLE);
      return;
    }
    if (first === 0x71 && i + 1 < srcEnd) {
      readOracleQuote(tok, i);
      return;
    }
  }
  // MySQL's character set introducer (_utf8'…', _latin1"…") is a type applied to the string.
  if ((next === SINGLE || next === DOUBLE) && src.charCodeAt(start) === 0x5f && i - start > 1) {
    setToken(tok, TYPE, start, i);
    return;
  }
  const id = lookupWord(src, start, i);
  if ((id < 0 || words[id].type === NAME) && next === DOT) {
    readQualifiedName(tok, start, i);
    return;
  }
  setToken(tok, NAME, start, i);
  if (id < 0) return;
  const w = words[id];
  tok.word = id;
  if (w.fn && parenFollows(i)) tok.type = FUNCTION;
  else if (w.isIn) tok.type = parenFollows(i) ? OPERATOR : NAME;
  else {
    tok.type = w.type;
    tok.unary = w.unary;
  }
}

/**
 * A qualified name (`information_schema.tables`, `master..xp_cmdshell`, `dbms_pipe.receive_message(`): one
 * name, or a function when its last part is one and a `(` follows. The first part ends at `dot`.
 */
function readQualifiedName(tok: Token, start: number, dot: number): void {
  let i = dot;
  let last = start;
  let lastEnd = dot;
  while (i < srcEnd && src.charCodeAt(i) === DOT) {
    let j = i + 1;
    if (j < srcEnd && src.charCodeAt(j) === DOT) j++;
    const c = j < srcEnd ? src.charCodeAt(j) : 0;
    if (!isWordChar(c) || isDigit(c)) break;
    last = j;
    i = j + 1;
    while (i < srcEnd && isWordChar(src.charCodeAt(i))) i++;
    lastEnd = i;
  }
  setToken(tok, NAME, start, lastEnd);
  if (last === start || !parenFollows(lastEnd)) return;
  // Only a call keeps its last part's word (for its function's kind): `t.union` is a column, not UNION.
  tok.type = FUNCTION;
  tok.word = lookupWord(src, last, lastEnd);
}

/** Oracle's q'<d>…<d>' string, with `[`, `{`, `(`, `<` closed by their pair; the quote is at `quoteAt`. */
function readOracleQuote(tok: Token, quoteAt: number): void {
  const open = src.charCodeAt(quoteAt + 1);
  const close =
    open === 0x5b ? 0x5d : open === 0x7b ? 0x7d : open === 0x28 ? 0x29 : open === 0x3c ? 0x3e : open;
  let i = quoteAt + 2;
  while (i < srcEnd && !(src.charCodeAt(i) === close && src.charCodeAt(i + 1) === SINGLE)) i++;
  tok.set(STRING, quoteAt + 2, Math.min(i, srcEnd));
  tok.open = SINGLE;
  tok.close = i < srcEnd ? SINGLE : 0;
  pos = i < srcEnd ? i + 2 : srcEnd;
}

function readVariable(tok: Token, start: number): void {
  let i = start + 1;
  if (i < srcEnd && src.charCodeAt(i) === 0x40) i++;
  const c = i < srcEnd ? src.charCodeAt(i) : 0;
  if (c === SINGLE || c === DOUBLE || c === BACKTICK) {
    readQuoted(tok, VARIABLE, i, c);
    tok.start = start;
    return;
  }
  while (i < srcEnd && (isWordChar(src.charCodeAt(i)) || src.charCodeAt(i) === DOT)) i++;
  setToken(tok, VARIABLE, start, i);
}

/** `$$…$$` and `$tag$…$tag$` (PostgreSQL strings), `$1` (a parameter or an amount), `$name`. */
function readDollar(tok: Token, start: number): boolean {
  const c = start + 1 < srcEnd ? src.charCodeAt(start + 1) : 0;
  if (c === 0x24) {
    const close = src.indexOf('$$', start + 2);
    tok.set(STRING, start + 2, close < 0 ? srcEnd : close);
    tok.open = 0x24;
    tok.close = close < 0 ? 0 : 0x24;
    pos = close < 0 ? srcEnd : close + 2;
    return true;
  }
  if (isDigit(c)) {
    let i = start + 1;
    while (i < srcEnd && isDigit(src.charCodeAt(i))) i++;
    setToken(tok, NUMBER, start, i);
    return true;
  }
  if (isWordChar(c)) {
    let i = start + 1;
    while (i < srcEnd && isWordChar(src.charCodeAt(i)) && src.charCodeAt(i) !== 0x24) i++;
    if (i < srcEnd && src.charCodeAt(i) === 0x24 && !isDigit(c)) {
      // $tag$ … $tag$
      const tag = src.slice(start, i + 1);
      const close = src.indexOf(tag, i + 1);
      tok.set(STRING, i + 1, close < 0 ? srcEnd : close);
      tok.open = 0x24;
      tok.close = close < 0 ? 0 : 0x24;
      pos = close < 0 ? srcEnd : close + tag.length;
      return true;
    }
    readWord(tok, start);
    return true;
  }
  return false;
}

/** Operators of one to three characters; `&&` and `||` are logical. */
function readOperator(tok: Token, start: number, c: number): void {
  const c1 = start + 1 < srcEnd ? src.charCodeAt(start + 1) : 0;
  const c2 = start + 2 < srcEnd ? src.charCodeAt(start + 2) : 0;
  let size = 1;
  let type = OPERATOR;
  switch (c) {
    case 0x3c: // <
      if (c1 === 0x3d && c2 === 0x3e) size = 3;
      else if (c1 === 0x3e || c1 === 0x3d || c1 === 0x3c || c1 === 0x40) size = 2;
      break;
    case 0x3e: // >
      if (c1 === 0x3d || c1 === 0x3e) size = 2;
      break;
    case 0x21: // !
      if (c1 === 0x3d || c1 === 0x3c || c1 === 0x3e) size = 2;
      else if (c1 === 0x7e) size = c2 === 0x2a ? 3 : 2;
      break;
    case 0x3d: // =
      if (c1 === 0x3d || c1 === 0x3e) size = 2;
      break;
    case 0x7c: // |
      if (c1 === 0x7c) {
        size = 2;
        type = LOGIC;
      } else if (c1 === 0x3d) size = 2;
      break;
    case 0x26: // &
      if (c1 === 0x26) {
        size = 2;
        type = LOGIC;
      } else if (c1 === 0x3d) size = 2;
      break;
    case 0x3a: // :
      if (c1 === 0x3a || c1 === 0x3d) size = 2;
      else type = COLON;
      break;
    case 0x7e: // ~
      if (c1 === 0x2a) size = 2;
      break;
    case 0x2d: // -
      if (c1 === 0x3e) size = c2 === 0x3e ? 3 : 2;
      else if (c1 === 0x3d) size = 2;
      break;
    default:
      if (c1 === 0x3d) size = 2;
  }
  setToken(tok, type, start, start + size);
  tok.unary = size === 1 && (c === 0x2b || c === 0x2d || c === 0x21 || c === 0x7e);
}

/** Reads the next token into `tok`; false at the end of the input. */
function nextToken(tok: Token): boolean {
  if (pendingQuote !== QUOTE_NONE) {
    // The context's string: from the start of the value to its first (unescaped) quote of that kind.
    const quote = pendingQuote;
    pendingQuote = QUOTE_NONE;
    readQuoted(tok, STRING, -1, quote);
    tok.open = 0;
    return true;
  }
  while (pos < srcEnd) {
    const start = pos;
    const c = src.charCodeAt(pos);
    if (isSpace(c)) {
      pos++;
      continue;
    }
    switch (c) {
      case SINGLE:
      case DOUBLE:
        readQuoted(tok, STRING, start, c);
        return true;
      case BACKTICK:
        readQuoted(tok, NAME, start, c);
        return true;
      case 0x5b: {
        // [name] (Transact-SQL)
        const close = src.indexOf(']', start + 1);
        setToken(tok, NAME, start + 1, close < 0 ? srcEnd : close);
        tok.open = 0x5b;
        tok.close = close < 0 ? 0 : 0x5d;
        pos = close < 0 ? srcEnd : close + 1;
        return true;
      }
      case 0x5d: // a lone ]
      case 0x3f: // ? (a placeholder, or the end of a question)
        pos++;
        continue;
      case 0x5c: // \N is MySQL's NULL; other backslashes mean nothing outside a string
        if (src.charCodeAt(start + 1) === 0x4e) {
          setToken(tok, NUMBER, start, start + 2);
          return true;
        }
        pos++;
        continue;
      case 0x40: // @
        readVariable(tok, start);
        return true;
      case 0x24: // $
        if (readDollar(tok, start)) return true;
        pos++;
        continue;
      case LPAREN:
      case RPAREN:
      case LBRACE:
      case RBRACE:
      case COMMA:
      case SEMICOLON:
        setToken(tok, c, start, start + 1);
        return true;
      case DOT:
        if (isDigit(src.charCodeAt(start + 1))) readNumber(tok, start);
        else setToken(tok, DOT, start, start + 1);
        return true;
      case 0x2d: // -
        if (src.charCodeAt(start + 1) === 0x2d) {
          const after = start + 2 < srcEnd ? src.charCodeAt(start + 2) : 0x20;
          const spaced = after <= 0x20;
          if (!mysql || spaced) {
            if (!spaced) dialectSensitive = true;
            readLineComment(tok, start);
            return true;
          }
        }
        readOperator(tok, start, c);
        return true;
      case 0x23: // #
        if (mysql) {
          readLineComment(tok, start);
          return true;
        }
        dialectSensitive = true;
        setToken(tok, OPERATOR, start, start + 1);
        return true;
      case 0x2f: // /
        if (src.charCodeAt(start + 1) === 0x2a) {
          readBlockComment(tok, start);
          if (tok.type === 0) continue;
          return true;
        }
        readOperator(tok, start, c);
        return true;
      case 0x2a: // *
        if (execComments > 0 && src.charCodeAt(start + 1) === 0x2f) {
          execComments--;
          pos += 2;
          continue;
        }
        readOperator(tok, start, c);
        return true;
      default:
        if (isDigit(c)) readNumber(tok, start);
        else if (isWordChar(c)) readWord(tok, start);
        else readOperator(tok, start, c);
        return true;
    }
  }
  return false;
}

/**
 * `/* … *\/`: a comment, EVIL when it holds another `/*` (PostgreSQL nests comments, the others do not, so
 * what follows cannot be read one way), or the opening of MySQL's executable comment `/*!` (`/*M!` in
 * MariaDB), whose text is read as SQL: then `tok.type` is 0 and no token is read.
 */
function readBlockComment(tok: Token, start: number): void {
  const c2 = src.charCodeAt(start + 2);
  if (c2 === 0x21 || (c2 === 0x4d && src.charCodeAt(start + 3) === 0x21)) {
    let i = start + (c2 === 0x21 ? 3 : 4);
    while (i < srcEnd && isDigit(src.charCodeAt(i))) i++;
    execComments++;
    tok.type = 0;
    pos = i;
    return;
  }
  const close = src.indexOf('*/', start + 2);
  const end = close < 0 ? srcEnd : close + 2;
  // A `/*` inside, even one whose `*` starts the `*\/` (`/*\/*\/`: MySQL ends the comment there, PostgreSQL
  // opens a second one).
  let nested = false;
  for (let i = start + 2; i < close && !nested; i++) {
    nested = src.charCodeAt(i) === 0x2f && src.charCodeAt(i + 1) === 0x2a;
  }
  setToken(tok, nested ? EVIL : COMMENT, start, end);
}

// ---------------------------------------------------------------------------------------------------------
// Folding.

const MAX_TOKENS = 5;
/** The stack: slots[0 .. depth). Two more than MAX_TOKENS are read to see how the last one folds. */
const slots: Token[] = Array.from({ length: MAX_TOKENS + 2 }, () => new Token());
const lastComment = new Token();
let depth = 0;
/** Whether reading stopped before the end of the input. */
let truncated = false;
/** Whether the value starts with `(` (which folding skips). */
let leadingParen = false;

function isValue(type: number): boolean {
  return type === NUMBER || type === STRING || type === NAME || type === VARIABLE;
}

/** Pops the stack's top token. */
function pop(count: number): void {
  depth -= count;
}

/** Applies the reductions to the top of the stack until none applies. */
function reduce(): void {
  for (;;) {
    if (depth < 2) return;
    const c = slots[depth - 1];
    const b = slots[depth - 2];
    // Two words that make a phrase: UNION ALL, ORDER BY, NOT LIKE, WAITFOR DELAY…
    if (b.word >= 0 && c.word >= 0) {
      const phrase = phrases.get(b.word * 4096 + c.word);
      if (phrase !== undefined) {
        b.type = phrase === SECOND ? c.type : phrase;
        b.end = c.end;
        if (phrase === SECOND) b.word = c.word;
        b.unary = false;
        b.folded = true;
        pop(1);
        continue;
      }
    }
    // A unary operator after anything but a value changes nothing: `= -1`, `AND NOT`, `(!`.
    if (c.unary && !(isValue(b.type) || b.type === RPAREN)) {
      pop(1);
      continue;
    }
    // A type before a value: BINARY 'x', _utf8'x', DATE '2020-01-01'.
    if (b.type === TYPE && (isValue(c.type) || c.type === LPAREN || c.type === FUNCTION || c.type === TYPE)) {
      b.copy(c);
      pop(1);
      continue;
    }
    // 'a' 'b' is one string in SQL.
    if (b.type === STRING && c.type === STRING) {
      b.close = c.close;
      b.end = c.end;
      pop(1);
      continue;
    }
    if (
      (b.type === SEMICOLON && c.type === SEMICOLON) ||
      (b.type === LPAREN && c.type === LPAREN) ||
      (b.type === RPAREN && c.type === RPAREN) ||
      (b.type === DOT && c.type === DOT)
    ) {
      pop(1);
      continue;
    }
    // IF after `;` is Transact-SQL's IF statement.
    if (b.type === SEMICOLON && c.word >= 0 && words[c.word].isIf) {
      c.type = PROCEDURAL;
    }
    // A subscript is part of its name: array[id], col[1].
    if (b.type === NAME && c.type === NAME && c.open === 0x5b && c.start === b.end + 1) {
      pop(1);
      continue;
    }
    // ODBC escapes {fn …}, {d '…'}: the brace and the word go; so does the closing brace.
    if (b.type === LBRACE && c.type === NAME) {
      pop(2);
      continue;
    }
    if (c.type === RBRACE) {
      pop(1);
      continue;
    }
    if (depth < 3) return;
    const a = slots[depth - 3];
    // value op value → value: 1=1, a-b, @a:=1 (a comparison is remembered: 1=1 is not 1).
    if (
      b.type === OPERATOR &&
      (((a.type === NUMBER || a.type === NAME) && (c.type === NUMBER || c.type === NAME)) ||
        (a.type === VARIABLE && (c.type === NUMBER || c.type === NAME || c.type === VARIABLE)))
    ) {
      if (isComparison(b)) a.folded = true;
      pop(2);
      continue;
    }
    // 1 AND 2 AND → 1 AND: a chain of conditions is as good as one (and remembers a comparison in it).
    if (a.type === LOGIC && c.type === LOGIC) {
      if (b.folded) a.folded = true;
      pop(2);
      continue;
    }
    // A list is its first item: 1,2,3 → 1.
    if (isValue(a.type) && b.type === COMMA && isValue(c.type)) {
      pop(2);
      continue;
    }
    // A cast x::int is x.
    if (isValue(a.type) && b.type === OPERATOR && c.type === TYPE && isDoubleColon(b)) {
      pop(2);
      continue;
    }
    // A qualified name is its last part: db.table, schema.function(.
    if (a.type === NAME && b.type === DOT && (c.type === NAME || c.type === FUNCTION)) {
      a.copy(c);
      pop(2);
      continue;
    }
    return;
  }
}

function isDoubleColon(tok: Token): boolean {
  return (
    tok.end - tok.start === 2 && src.charCodeAt(tok.start) === 0x3a && src.charCodeAt(tok.start + 1) === 0x3a
  );
}

/** Reads the input in one context and dialect; leaves the folded tokens in slots[0 .. depth). */
function fold(input: string, quote: number, mysqlDialect: boolean): void {
  startLexer(input, quote, mysqlDialect);
  depth = 0;
  truncated = false;
  leadingParen = false;
  let trailingComment = false;
  for (;;) {
    const tok = slots[depth];
    if (!nextToken(tok)) break;
    if (tok.type === COMMENT) {
      lastComment.copy(tok);
      trailingComment = true;
      continue;
    }
    trailingComment = false;
    // What a value may start with changes nothing: (, a unary operator, a type.
    if (depth === 0 && (tok.type === LPAREN || tok.unary || tok.type === TYPE)) {
      if (tok.type === LPAREN) leadingParen = true;
      continue;
    }
    depth++;
    reduce();
    // Two more tokens than the fingerprint holds are read: a value, an operator and a value fold into the
    // fifth token only when the seventh is read.
    if (depth === MAX_TOKENS + 2) break;
  }
  if (depth > MAX_TOKENS) {
    depth = MAX_TOKENS;
    truncated = true;
  } else if (trailingComment && depth < MAX_TOKENS) slots[depth++].copy(lastComment);
}

// ---------------------------------------------------------------------------------------------------------
// The decision: rules over the folded token sequence, ours (see 5. at the top). Each rule says what an
// injection must do after the point where the value lands; the cases they let through and refuse are in
// test/eval/waf-sqli.test.ts.

function idOf(word: string): number {
  return wordIds.get(word) as number;
}

/** The words after which a statement's select list or target ends: FROM, INTO, SET, WHERE. */
const CLAUSE_WORDS = new Set(['FROM', 'INTO', 'SET', 'WHERE'].map(idOf));
/** The first words of the statements that define or destroy: CREATE TABLE, DROP TABLE… */
const DEFINITION_WORDS = new Set(['CREATE', 'DROP', 'ALTER', 'TRUNCATE'].map(idOf));
const EXEC_WORDS = new Set(['EXEC', 'EXECUTE'].map(idOf));
/** Procedural words that make a value of their own: EXEC xp_cmdshell…, DECLARE @x… */
const STATEMENT_START_WORDS = new Set(['EXEC', 'EXECUTE', 'DECLARE'].map(idOf));
const FROM_WORD = idOf('FROM');
const PROCEDURE_WORD = idOf('PROCEDURE');
const VALUES_WORD = idOf('VALUES');
const INTO_WORD = idOf('INTO');
const CASE_WORD = idOf('CASE');
/** Word operators that compare (NOT, DIV, MOD and ESCAPE do not); a phrase keeps its first word's id. */
const COMPARISON_WORDS = new Set(
  [
    'LIKE',
    'RLIKE',
    'ILIKE',
    'REGEXP',
    'SIMILAR',
    'GLOB',
    'IS',
    'BETWEEN',
    'NOTNULL',
    'MEMBER',
    'IN',
    'SOUNDS',
  ].map(idOf),
);
const WHERE_WORD = idOf('WHERE');
const LIMIT_WORD = idOf('LIMIT');

function typeAt(i: number): number {
  return i < depth ? slots[i].type : 0;
}

/** A function that probes the server (`probe` in sqli-words.ts) at index `i`. */
function isProbeAt(i: number): boolean {
  return i < depth && slots[i].type === FUNCTION && slots[i].word >= 0 && words[slots[i].word].probe;
}

/** `@@version`, `@@datadir` at index `i`: the server's own variables, not a user's `@name`. */
function isSystemVariableAt(i: number): boolean {
  if (i >= depth) return false;
  const tok = slots[i];
  return tok.type === VARIABLE && tok.end - tok.start > 2 && src.charCodeAt(tok.start + 1) === 0x40;
}

/**
 * A comparison (`=`, `<>`, `<=>`, `!=`, `LIKE`, `IS NOT`, `NOTNULL`…), as opposed to arithmetic, shifts or
 * concatenation.
 */
function isComparison(tok: Token): boolean {
  if (tok.type !== OPERATOR) return false;
  const size = tok.end - tok.start;
  const c = src.charCodeAt(tok.start);
  const c1 = size > 1 ? src.charCodeAt(tok.start + 1) : 0;
  switch (c) {
    case 0x3d: // = ==
      return size === 1 || c1 === 0x3d;
    case 0x3c: // < <= <> <=>
      return size === 1 || c1 === 0x3d || c1 === 0x3e;
    case 0x3e: // > >=
      return size === 1 || c1 === 0x3d;
    case 0x21: // != !< !>
      return c1 === 0x3d || c1 === 0x3c || c1 === 0x3e;
  }
  return COMPARISON_WORDS.has(tok.word);
}

/** Whether the fingerprint in slots[0 .. depth) is an injection. */
function isInjection(quote: number): boolean {
  if (depth === 0) return false;
  for (let i = 0; i < depth; i++) if (slots[i].type === EVIL) return true;
  if (depth === 1) return false;
  const t0 = slots[0].type;
  for (let i = 0; i + 1 < depth; i++) {
    const t = slots[i].type;
    const next = slots[i + 1].type;
    // UNION SELECT, UNION (SELECT, UNION VALUES(…), anywhere but after a value that starts with an operator
    // (`/post/24 union all select 1,2`, a path, leaves no statement to add a query to).
    if (
      t === UNION &&
      t0 !== OPERATOR &&
      (next === STATEMENT ||
        (next === LPAREN && typeAt(i + 2) === STATEMENT) ||
        (next === FUNCTION && slots[i + 1].word === VALUES_WORD))
    ) {
      return true;
    }
    // A subquery as an operand: = (SELECT …), OR (SELECT …), EXISTS(SELECT …), anywhere.
    if ((t === OPERATOR || t === LOGIC || t === FUNCTION) && next === LPAREN && typeAt(i + 2) === STATEMENT) {
      return true;
    }
  }
  // Where the value lands: in a value (the string it closes, a number, a name), maybe closed by `)`.
  if (isValue(t0)) return afterLanding(typeAt(1) === RPAREN ? 2 : 1, quote);
  if (t0 === RPAREN) return afterLanding(1, quote);
  // Or it is SQL of its own.
  const t1 = typeAt(1);
  switch (t0) {
    case SEMICOLON:
      return stacked(1);
    case FUNCTION:
      return callAtStart();
    case STATEMENT:
      return statementAtStart();
    case PROCEDURAL:
      // WAITFOR DELAY '0:0:5', EXEC xp_cmdshell 'dir', DECLARE @x…; not `backup 2024-01-15.tar.gz`.
      return (slots[0].folded || STATEMENT_START_WORDS.has(slots[0].word)) && procedural(0);
    case GROUP:
      // ORDER BY if(…), HAVING count(*) > 1
      return t1 === FUNCTION;
    case KEYWORD:
      // PROCEDURE ANALYSE(…), FROM (SELECT …)
      return (
        (slots[0].word === PROCEDURE_WORD && t1 === FUNCTION) ||
        (slots[0].word === FROM_WORD && t1 === LPAREN && typeAt(2) === STATEMENT)
      );
  }
  return false;
}

/** `; SELECT`, `; DROP`, `; WAITFOR`, `; sleep(5)`: a stacked statement at index `i`. */
function stacked(i: number): boolean {
  const t = typeAt(i);
  if (t === PROCEDURAL) {
    // ; SHUTDOWN, ; SHUTDOWN--, ; IF (…), ; IF 1=1 …, ; EXEC xp_cmdshell…, ; DECLARE @x…; not `;if x`.
    const u = typeAt(i + 1);
    return u !== NAME && u !== OPERATOR ? true : procedural(i);
  }
  return t === STATEMENT || isProbeAt(i);
}

/** What follows the value the input landed in, from index `i`. */
function afterLanding(i: number, quote: number): boolean {
  const first = slots[0];
  // The string the application opened and the input closed: the value surely left it.
  const closedString = first.type === STRING && first.open === 0 && quote !== QUOTE_NONE;
  const next = typeAt(i + 1);
  switch (typeAt(i)) {
    case SEMICOLON:
      // 1; DROP … stacks another statement; x';-- ends the application's.
      return stacked(i + 1) || (closedString && next === COMMENT && i + 2 === depth && cutsOff(slots[i + 1]));
    case PROCEDURAL:
      // 1 WAITFOR DELAY '0:0:5', x' EXEC xp_cmdshell…; `<a name="kill">` is HTML.
      return (slots[i].folded || EXEC_WORDS.has(slots[i].word)) && procedural(i);
    case GROUP:
      return grouping(i + 1);
    case COMMENT:
      return i + 1 === depth && commentEnds(slots[i], closedString);
    case LOGIC:
      return rejoins(closedString, quote) || condition(i + 1, closedString);
    case OPERATOR:
      return rejoins(closedString, quote) || operation(i, closedString);
    case FUNCTION:
      // x' sleep(5): a probe right after the string the input closed.
      return closedString && isProbeAt(i);
    case DOT:
      // 'x'.sleep(5).'
      return closedString && next === FUNCTION;
    case LPAREN:
      // 1(SELECT …): the value becomes a call's argument list.
      return next === STATEMENT;
    case COLLATE:
      // x' COLLATE nocase--
      return closedString && next !== 0;
    case KEYWORD:
      // 1 PROCEDURE ANALYSE(…), ' INTO OUTFILE '/tmp/x, 1 LIMIT 1 UNION…
      if (next === FUNCTION || (isIntoFile(slots[i]) && next === STRING)) return true;
      // x' WHERE 1=1--
      if (closedString && slots[i].word === WHERE_WORD && isValue(next)) return true;
      if (slots[i].word === LIMIT_WORD && next === NUMBER) {
        const after = typeAt(i + 2);
        return after === KEYWORD || after === UNION || after === COMMENT || after === SEMICOLON;
      }
      return false;
  }
  return false;
}

/**
 * `x' + … + 'y`: the input closes the application's string, computes, and opens a string that the
 * application's own closing quote ends — unless what it computes is a single operation on names, which
 * HTML attributes and prose do too (`href="/home">`).
 */
function rejoins(closedString: boolean, quote: number): boolean {
  if (!closedString || depth < 3 || truncated) return false;
  const last = slots[depth - 1];
  // The application's own quote closes the string the input opens: the same quote, and a plain word
  // before it (' or 'a, not a password's "=\"D0~kq).
  if (last.type !== STRING || last.close !== 0 || last.open !== quote || !isPlainWord(last)) return false;
  // The string is an operand: what precedes it expects one (`= 'a`, `|| '`, `('`), unlike prose's
  // possessives (`users' and authors' sake`).
  const operand = slots[depth - 2].type;
  if (operand !== OPERATOR && operand !== LOGIC && operand !== LPAREN && operand !== COMMA) return false;
  // x' OR 'y, x'='y: one operator between the quotes.
  if (depth === 3)
    return operand === LOGIC || (isComparison(slots[1]) && src.charCodeAt(slots[1].start) === 0x3d);
  // Between the quotes: a condition, a call or a UNION; or a value between two operators (x' | cmd | 'y),
  // not a path or a format (x'/home'y, '%s%').
  let valued = false;
  for (let k = 1; k < depth - 1; k++) {
    const tok = slots[k];
    if (tok.type === LOGIC || tok.type === FUNCTION || tok.type === UNION || isComparison(tok)) return true;
    if (tok.type === NAME || tok.type === NUMBER || tok.type === VARIABLE) valued = true;
  }
  const before = slots[1];
  const after = slots[depth - 2];
  return valued && isJoining(before) && isJoining(after);
}

/** Letters, digits and `_` only (or nothing). */
function isPlainWord(tok: Token): boolean {
  for (let k = tok.start; k < tok.end; k++) {
    const c = src.charCodeAt(k);
    if (c >= 0x80 || c === 0x24 || !isWordChar(c)) return false;
  }
  return true;
}

/**
 * An operator that joins expressions in a rejoining value: `+ - * | & ^`, not `/` or `%` (paths, formats)
 * nor a unary `~ !`.
 */
function isJoining(tok: Token): boolean {
  if (tok.type !== OPERATOR || tok.end - tok.start !== 1) return false;
  const c = src.charCodeAt(tok.start);
  return c === 0x2b || c === 0x2d || c === 0x2a || c === 0x7c || c === 0x26 || c === 0x5e;
}

/** A condition added with AND/OR, from index `i`: `OR 1=1`, `AND sleep(5)`, `OR (SELECT …)`. */
function condition(i: number, closedString: boolean): boolean {
  // The logical operator remembers a comparison folded into a chain of them (1 AND 1 BETWEEN 0 AND 2).
  const chained = slots[i - 1].folded;
  let u = typeAt(i);
  if (u === FUNCTION || isSystemVariableAt(i)) return true;
  // AND CASE WHEN …
  if (u === KEYWORD && slots[i].word === CASE_WORD) return true;
  if (u === LPAREN) {
    i++;
    u = typeAt(i);
    if (u === STATEMENT || u === FUNCTION) return true;
  }
  if (!isValue(u)) return false;
  const first = slots[0];
  const w = typeAt(i + 1);
  // A comparison: folded into the value (1=1), in the chain before it, or after it (1 = (SELECT…), 'a'='a).
  const compared = slots[i].folded || chained || (w === OPERATOR && isComparison(slots[i + 1]));
  // What follows the condition may be an injection of its own: UNION…, ORDER BY…, WAITFOR…, ; DROP…
  if (w === UNION || w === GROUP || w === PROCEDURAL || (w === SEMICOLON && stacked(i + 2))) return true;
  // After a name, a variable or a `)`, the value may be prose or a password (`rock and roll`, `h||@x^`):
  // the condition must be a comparison (`abc OR 1=1`), and not one of two names (`a=1 and b=2`).
  const weak = first.type === NAME || first.type === VARIABLE || first.type === RPAREN;
  if (weak && (!compared || (first.type === NAME && u === NAME))) return false;
  switch (w) {
    case 0:
      // V AND V ends the fingerprint: when more was read than it holds (') OR ('1'='1…); when the second is
      // a comparison (1 OR 1=1) and the first is not one (then the whole value is a formula: 1 < 2 and
      // 3 > 2); after the string the input closed, when the second is a constant (x' OR true).
      return truncated || (compared && !first.folded) || (closedString && u === NUMBER);
    case OPERATOR: {
      // x' OR 1='1, 1 OR 1 LIKE '1, x' OR a NOTNULL--: an operator and an operand that could not fold (not
      // the end of `1 or 1 =`, unless the application's quote follows: `x' OR 1='`).
      const op = slots[i + 1];
      if (i + 2 >= depth) return truncated || (closedString && isComparison(op));
      const operand = slots[i + 2].type;
      if (operand === COMMENT) return isWordOperator(op) && isComparison(op);
      return operand === STRING || operand === LPAREN || operand === FUNCTION || operand === VARIABLE;
    }
    case COMMENT:
      // ' OR 1=1--, ' OR 'a'--
      return compared || (closedString && u !== NAME);
    case KEYWORD: // 1 OR 1=1 LIMIT 1, ' OR 1=1 INTO OUTFILE …
    case RPAREN: // 1) OR (1=1)
    case SEMICOLON: // ' OR 1=1;--
    case LOGIC:
      return compared || closedString;
  }
  return false;
}

/** A value, then an operator at index `i`. */
function operation(i: number, closedString: boolean): boolean {
  const t0 = slots[0].type;
  let k = i + 1;
  let u = typeAt(k);
  if (u === LPAREN) {
    k++;
    u = typeAt(k);
  }
  // 1-sleep(5), 'x'+ascii(…), @a:=right(…): a known function called after a number, a variable or the
  // string the input closed; after a name (`x = max(a, b)` is code) only a probing one.
  if (u === FUNCTION) {
    return slots[k].word >= 0 && (t0 === NUMBER || t0 === VARIABLE || closedString || isProbeAt(k));
  }
  if (!closedString) return false;
  // x' NOTNULL --
  if (u === COMMENT && k + 1 === depth) return isWordOperator(slots[i]) && cutsOff(slots[k]);
  if (isSystemVariableAt(k)) return true;
  const w = typeAt(k + 1);
  if (!isValue(u)) return false;
  // x'*2--, x'=1--: an operation, then a comment that cuts the rest off.
  if (w === COMMENT) return cutsOff(slots[k + 1]);
  // x'=1 AND …, x'=1 ORDER BY…: a comparison, then more.
  return isComparison(slots[i]) && (w === LOGIC || w === UNION || w === GROUP);
}

function isWordOperator(tok: Token): boolean {
  return tok.type === OPERATOR && isWordChar(src.charCodeAt(tok.start));
}

/** ORDER BY, GROUP BY, HAVING after the value, from index `i`: `1 ORDER BY 3--`, `' HAVING 1=1`. */
function grouping(i: number): boolean {
  const u = typeAt(i);
  if (u === NUMBER || u === FUNCTION || u === LPAREN) return true;
  if (u !== NAME && u !== STRING) return false;
  const w = typeAt(i + 1);
  return w === COMMENT || w === GROUP || w === LOGIC || w === SEMICOLON || w === COMMA || w === UNION;
}

/** WAITFOR DELAY '0:0:5', EXEC xp_cmdshell 'dir', DECLARE @x: a procedural statement at index `i`. */
function procedural(i: number): boolean {
  const u = typeAt(i + 1);
  if (u === STRING || u === VARIABLE || u === NUMBER) return true;
  // EXEC('…'), EXEC(@sql)
  if (u === LPAREN && EXEC_WORDS.has(slots[i].word)) {
    const w = typeAt(i + 2);
    return w === STRING || w === VARIABLE;
  }
  // A stored procedure's name (xp_cmdshell, sp_executesql, master..xp_dirtree); `kill bill` is prose.
  if (u === NAME) {
    const tok = slots[i + 1];
    for (let k = tok.start; k < tok.end; k++) if (src.charCodeAt(k) === 0x5f) return true;
  }
  return false;
}

/** A value then a comment that cuts the rest of the statement off: `admin'--`, `1 /*`. */
function commentEnds(comment: Token, closedString: boolean): boolean {
  // After a number, only one the value starts with: `1--`, not `4&PcUOjTw#` (a password: `4&x` folded).
  const first = slots[0];
  return (closedString || (first.type === NUMBER && !first.folded)) && cutsOff(comment);
}

/**
 * A comment that cuts the rest of a statement off: a closed block comment (`/* x *\/`), or one with nothing
 * but its marker (`--`, `-- -`, `/*`), not one with words after it (`1 -- see page 2`, `opts['--']`,
 * `"/articles/*"`), nor MySQL's `#`.
 */
function cutsOff(comment: Token): boolean {
  const end = comment.end;
  // `#` ends too many passwords and tags (`x'#`, `item #`) to tell anything on its own.
  if (src.charCodeAt(comment.start) === 0x23) return false;
  if (
    src.charCodeAt(comment.start) === 0x2f &&
    src.charCodeAt(end - 1) === 0x2f &&
    end - comment.start >= 4
  ) {
    return true;
  }
  for (let k = comment.start + 1; k < end; k++) {
    const ch = src.charCodeAt(k);
    if (ch !== 0x2d && ch !== 0x23 && ch !== 0x2b && ch !== 0x2a && !isSpace(ch)) return false;
  }
  return true;
}

/** A value that starts with a call: `sleep(5)`, `version()`, `max((select …))`. */
function callAtStart(): boolean {
  const u = typeAt(2);
  if (u === STATEMENT || isSystemVariableAt(2)) return true;
  // A formula (`max(1, 2)`, `year (2020)`) is not an injection; a probe is, or a call with one in it
  // (`sleep(20)`, `user()`, `concat(0x7e,version())`).
  const argument = u === NUMBER || u === STRING || u === RPAREN || u === FUNCTION || u === 0;
  if (!argument) return false;
  for (let k = 0; k < depth; k++) if (isProbeAt(k)) return true;
  return false;
}

/** A value that starts with a statement: `select * from users`, `select @@version`, `drop table x`. */
function statementAtStart(): boolean {
  const first = slots[0];
  const u = typeAt(1);
  const w = typeAt(2);
  if (u === FUNCTION || isSystemVariableAt(1)) return true;
  // select (user()), select (select …)
  if (u === LPAREN) return w === FUNCTION || w === STATEMENT || isSystemVariableAt(2);
  // (select 1)
  if (leadingParen && isValue(u) && w === RPAREN) return true;
  // select * from…, select *
  if (u === OPERATOR) return w === 0 ? slots[1].end - slots[1].start === 1 : isClause(slots[2]);
  // DROP TABLE users, CREATE TABLE x (…)
  if (u === NAME && first.folded && DEFINITION_WORDS.has(first.word)) return true;
  // select 1 from…, update users set…, select x group by y; not `select one from the list below`.
  if (!isValue(u) || w === 0) return false;
  if (isClause(slots[2])) return !(typeAt(3) === NAME && typeAt(4) === NAME);
  return w === GROUP && typeAt(3) !== 0;
}

function isClause(tok: Token): boolean {
  return tok.type === KEYWORD && tok.word >= 0 && CLAUSE_WORDS.has(tok.word);
}

/** Whether the token is the phrase INTO OUTFILE or INTO DUMPFILE. */
function isIntoFile(tok: Token): boolean {
  return tok.type === KEYWORD && tok.word === INTO_WORD && tok.folded;
}

// ---------------------------------------------------------------------------------------------------------

/** The fingerprint: the folded tokens' letters, or `X` alone when one of them is EVIL. */
function fingerprint(): string {
  let s = '';
  for (let i = 0; i < depth; i++) {
    if (slots[i].type === EVIL) return 'X';
    s += String.fromCharCode(slots[i].type);
  }
  return s;
}

function tryContext(input: string, quote: number, mysqlDialect: boolean): string | undefined {
  fold(input, quote, mysqlDialect);
  return isInjection(quote) ? fingerprint() : undefined;
}

/** libinjection-style verdict on one value (a binary string: one char per byte, latin1). */
export function detectSqli(input: string): SqliDetection | undefined {
  if (input.length === 0) return undefined;
  const found = detect(input);
  src = '';
  return found === undefined ? undefined : { fingerprint: found };
}

function detect(input: string): string | undefined {
  let found = tryContext(input, QUOTE_NONE, false);
  if (found !== undefined) return found;
  if (dialectSensitive) {
    found = tryContext(input, QUOTE_NONE, true);
    if (found !== undefined) return found;
  }
  if (input.includes("'")) {
    found = tryContext(input, SINGLE, false);
    if (found !== undefined) return found;
    if (dialectSensitive) {
      found = tryContext(input, SINGLE, true);
      if (found !== undefined) return found;
    }
  }
  if (input.includes('"')) return tryContext(input, DOUBLE, true);
  return undefined;
}

/** The fingerprint of each reading of the input (for tests and measurement): context, dialect, fingerprint. */
export function sqliFingerprints(input: string): string[] {
  const out: string[] = [];
  const readings: [string, number, boolean][] = [
    ['none', QUOTE_NONE, false],
    ['none/mysql', QUOTE_NONE, true],
    ['single', SINGLE, false],
    ['single/mysql', SINGLE, true],
    ['double/mysql', DOUBLE, true],
  ];
  for (const [name, quote, my] of readings) {
    fold(input, quote, my);
    out.push(`${name}:${fingerprint()}${isInjection(quote) ? '!' : ''}`);
  }
  src = '';
  return out;
}
