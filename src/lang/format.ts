/**
 * The canonical printer: AST → expression text.
 *
 * The output is designed to parse back to the same tree (modulo spans): parentheses are added exactly where
 * the parser would otherwise build a different tree, strings are escaped so the lexer decodes the same bytes,
 * and regex patterns are written so the quoted-regex lexer hands the regex engine the same pattern.
 */

import type {
  Argument,
  ComparisonOperator,
  Expression,
  IndexSelector,
  LogicalOperator,
  Node,
  RegexLiteral,
  StringLiteral,
} from './ast.js';
import { utf8SequenceLength } from './literals.js';
import { comparisonOperator, LOGICAL_PRECEDENCE, LOGICAL_SYMBOLS } from './operators.js';

export interface FormatOptions {
  /** `words` (default): `and`, `eq`, `not`…; `symbols`: `&&`, `==`, `!`… where a symbol exists. */
  operators?: 'words' | 'symbols';
}

type Mode = 'words' | 'symbols';

// Operators are spelt, and the logical ones bind, as the operator table says.
const logicalText = (op: LogicalOperator, mode: Mode): string =>
  mode === 'words' ? op : LOGICAL_SYMBOLS[op];

const comparisonText = (op: ComparisonOperator, mode: Mode): string =>
  (mode === 'symbols' && comparisonOperator(op).symbol) || op;

/** Raw strings allow at most this many `#` around the quotes. */
const MAX_HASHES = 255;

export function formatExpression(ast: Expression, options: FormatOptions = {}): string {
  return print(ast, options.operators ?? 'words');
}

function print(node: Node, mode: Mode): string {
  switch (node.kind) {
    case 'logical': {
      const parent = LOGICAL_PRECEDENCE[node.op];
      // Same-operator runs are flattened by the parser, so a nested node of equal strength only survives a
      // round trip if it was parenthesised; a weaker one needs parentheses to bind at all.
      const parts = node.operands.map((operand) =>
        operand.kind === 'logical' && LOGICAL_PRECEDENCE[operand.op] <= parent
          ? `(${print(operand, mode)})`
          : print(operand, mode),
      );
      return parts.join(` ${logicalText(node.op, mode)} `);
    }
    case 'not': {
      const operand = print(node.operand, mode);
      const wrapped = node.operand.kind === 'logical' ? `(${operand})` : operand;
      return mode === 'words' ? `not ${wrapped}` : `!${wrapped}`;
    }
    case 'quantifier':
      // The parentheses of `any(…)` already delimit a whole expression, so the operand needs none of its own.
      return `${node.quantifier}(${print(node.operand, mode)})`;
    case 'comparison': {
      return `${print(node.lhs, mode)} ${comparisonText(node.op, mode)} ${print(node.rhs, mode)}`;
    }
    case 'predicate':
      return print(node.value, mode);
    case 'field':
      return node.name;
    case 'call':
      return `${node.name}(${node.args.map((arg) => printArgument(arg, mode)).join(', ')})`;
    case 'index':
      return `${print(node.target, mode)}[${printSelector(node.index)}]`;
    case 'string':
      return printString(node);
    case 'regex':
      return printRegex(node);
    case 'bare':
      return node.text;
    case 'set':
      return `{${node.items.map((item) => print(item, mode)).join(' ')}}`;
    case 'list':
      return `$${node.name}`;
  }
}

function printArgument(arg: Argument, mode: Mode): string {
  // An argument that starts with an identifier is read as a value or a comparison, never as a logical
  // expression or a lone predicate; parentheses switch the parser to reading a whole expression.
  // A comparison on a field whose name is all hex digits (`a > b`) would read back as the literal `a`: it
  // only stands as an argument in parentheses. (A bare field argument with such a name, like `cafe`, reads
  // back as a literal too: the parser never produces one, and no spelling could.)
  const text = print(arg, mode);
  const hexNamed =
    arg.kind === 'comparison' && arg.lhs.kind === 'field' && /^[0-9a-fA-F.]+$/.test(arg.lhs.name);
  return arg.kind === 'logical' || arg.kind === 'predicate' || hexNamed ? `(${text})` : text;
}

function printSelector(selector: IndexSelector): string {
  switch (selector.kind) {
    case 'array-index':
      return String(selector.index);
    case 'map-key':
      // The lexer only accepts UTF-8 keys, so escapes appear only for control characters, `"` and `\`.
      return quote(selector.key);
    case 'map-each':
      return '*';
  }
}

// ---- strings ----

function printString(node: StringLiteral): string {
  if (node.raw) {
    const raw = rawString(node.value);
    if (raw !== undefined) return raw;
  }
  // Not raw, or raw but not writable raw (invalid UTF-8, too many hashes): the quoted form holds any bytes.
  return quote(node.value);
}

/** A quoted string whose escapes decode to exactly `bytes`. */
function quote(bytes: string): string {
  let out = '"';
  let i = 0;
  while (i < bytes.length) {
    const byte = bytes.charCodeAt(i);
    if (byte === 0x22 || byte === 0x5c) {
      out += `\\${bytes[i]}`;
      i++;
    } else if (byte < 0x20 || byte === 0x7f) {
      out += hexEscape(byte);
      i++;
    } else if (byte < 0x80) {
      out += bytes[i];
      i++;
    } else {
      // Valid UTF-8 is written as the character it encodes (the lexer re-encodes source text as UTF-8);
      // stray bytes can only be written as escapes.
      const length = utf8SequenceLength(bytes, i);
      out += length > 0 ? decodeSequence(bytes, i, length) : hexEscape(byte);
      i += Math.max(length, 1);
    }
  }
  return `${out}"`;
}

/**
 * `r#"…"#` with as few hashes as possible, or undefined when the bytes are not valid UTF-8 (raw strings are
 * source text, so they cannot hold other bytes) or would need more than the allowed number of hashes.
 */
function rawString(bytes: string): string | undefined {
  const text = decodeUtf8(bytes);
  if (text === undefined) return undefined;
  // A raw string with N hashes ends at the first `"` followed by N or more `#`, so every quote in the
  // content must be followed by fewer than N. With no quote at all, N = 0 works.
  let hashes = 0;
  for (let i = text.indexOf('"'); i !== -1; i = text.indexOf('"', i + 1)) {
    let run = 0;
    while (text[i + 1 + run] === '#') run++;
    hashes = Math.max(hashes, run + 1);
  }
  if (hashes > MAX_HASHES) return undefined;
  const fence = '#'.repeat(hashes);
  return `r${fence}"${text}"${fence}`;
}

// ---- regular expressions ----

function printRegex(node: RegexLiteral): string {
  const quoted = quoteRegex(node.pattern);
  if (!node.raw && quoted.exact) return quoted.text;
  return rawString(node.pattern) ?? quoted.text;
}

/**
 * The quoted form of a pattern. The quoted-regex lexer keeps `\` + c pairs verbatim except `\"` outside a
 * character class (which yields `"`), so it cannot produce a pattern holding `\"` outside a class or a
 * trailing lone `\`; nor one ending inside a class, where `"` does not close the string; nor bytes that are
 * not UTF-8, since source text is UTF-8. For such patterns `exact` is false and `text` is a best effort that
 * still lexes: stray bytes become `\xHH` (which the regex engine reads as the same byte), a trailing `\` is
 * doubled and an unclosed class is closed.
 */
function quoteRegex(pattern: string): { text: string; exact: boolean } {
  let text = '"';
  let exact = true;
  let inClass = false;
  let i = 0;
  while (i < pattern.length) {
    let escaped = false;
    if (pattern[i] === '\\') {
      if (i + 1 === pattern.length) {
        exact = false;
        text += '\\\\';
        break;
      }
      if (pattern[i + 1] === '"' && !inClass) exact = false;
      escaped = true;
      i++;
    }
    const ch = pattern[i];
    const length = charLength(pattern, i);
    if (length === 0) {
      exact = false;
      text += hexEscape(pattern.charCodeAt(i));
      i++;
      continue;
    }
    if (escaped) text += '\\';
    else if (ch === '[' && !inClass) inClass = true;
    else if (ch === ']' && inClass) inClass = false;
    text += ch === '"' && !inClass && !escaped ? '\\"' : decodeSequence(pattern, i, length);
    i += length;
  }
  if (inClass) {
    exact = false;
    text += ']';
  }
  return { text: `${text}"`, exact };
}

// ---- bytes ----

function hexEscape(byte: number): string {
  return `\\x${byte.toString(16).padStart(2, '0')}`;
}

/** Length of the character at `i`: 1 for ASCII, see below otherwise. */
function charLength(bytes: string, i: number): number {
  return bytes.charCodeAt(i) < 0x80 ? 1 : utf8SequenceLength(bytes, i);
}

/** The character encoded by `length` bytes at `i` (ASCII when `length` is 1). */
function decodeSequence(bytes: string, i: number, length: number): string {
  if (length === 1) return bytes[i];
  let codePoint = bytes.charCodeAt(i) & (0xff >> (length + 1));
  for (let k = 1; k < length; k++) codePoint = (codePoint << 6) | (bytes.charCodeAt(i + k) & 0x3f);
  return String.fromCodePoint(codePoint);
}

/** The text a binary string encodes as UTF-8, or undefined if it is not well-formed UTF-8. */
function decodeUtf8(bytes: string): string | undefined {
  let text = '';
  let i = 0;
  while (i < bytes.length) {
    const length = charLength(bytes, i);
    if (length === 0) return undefined;
    text += decodeSequence(bytes, i, length);
    i += length;
  }
  return text;
}
