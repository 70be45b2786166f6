// Translation of a parsed `matches` pattern into an RE2 pattern with the reference engine's byte semantics

import {
  applyFlags,
  DEFAULT_FLAGS,
  type Flags,
  UnsupportedRegexError,
  visitWithFlags,
} from '../syntax/flags.js';
import type {
  AssertionNode,
  Ast,
  BracketedNode,
  ClassSet,
  LiteralNode,
  PerlNode,
  UnicodeNode,
} from '../syntax/syntax-tree.js';
import { ASCII_CLASS_SETS, ByteSet, PERL_BYTE_SETS } from './byte-set.js';
import {
  type Atom,
  type ClassParts,
  classText,
  cp,
  DIGIT_ATOM,
  EMPTY_CLASS,
  MARKERS,
  SPACE_ATOMS,
  WORD_ATOMS,
} from './unicode-class.js';
import { decodeSequence, FIRST_MARKER, leadByteRange, MARKER_BASE, sequenceLength, utf8Of } from './utf8.js';
import { Re2Writer } from './writer.js';

/**
 * The input representation a translation is written for:
 * - `bytes`: the binary string as is, each byte one code point U+0000–U+00FF. Exact for byte-mode patterns.
 * - `unicode`: the input decoded from UTF-8 (invalid bytes as markers, see utf8.ts), needed when a
 *   Unicode-mode (`(?u)`) item must see whole characters: `.`, classes, `\p{..}`, `(?iu)` letters.
 */
export type Representation = 'bytes' | 'unicode';

export interface Translation {
  /** RE2 syntax; compiled without RE2 flags (every flag is resolved into the text). */
  source: string;
  representation: Representation;
  /** Rough bytes of re2-wasm heap the compiled pattern takes (see `estimate`). */
  cost: number;
}

/**
 * A piece of RE2 syntax; `atom` when a repetition operator can follow it directly; `cost` its estimated
 * share of the compiled pattern's memory.
 */
interface Piece {
  text: string;
  atom: boolean;
  cost: number;
}

/**
 * Memory estimates, measured by compiling copies of patterns until re2-wasm's heap ran out: about 1.5 KiB
 * per compiled pattern, 200 bytes per literal character (RE2 keeps the parsed tree), little for a byte
 * class, and 18–25 KiB for each copy of a large Unicode class such as `(?u)\w` or `\p{L}` (its UTF-8
 * automaton). Repetitions are counted once per copy, as RE2 compiles them.
 */
const BASE_COST = 1536;
const LITERAL_COST = 200;
const UNICODE_CLASS_COST = 24 * 1024;

function classCost(text: string): number {
  return text.includes('\\p') ? UNICODE_CLASS_COST : 150 + 2 * text.length;
}

const RE2_META = new Set(Array.from('\\.+*?()|[]{}^$'));
/** Printed as themselves outside classes, for readable translations. */
const PLAIN = /^[0-9A-Za-z_/\-,:;=@%&!'"<>~`# ]$/;
const NEWLINE = 0x0a;

function classChar(c: number): string {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)
    ? String.fromCharCode(c)
    : cp(c);
}

function literalChar(c: number): string {
  const ch = String.fromCharCode(c);
  if (RE2_META.has(ch)) return `\\${ch}`;
  return c < 0x80 && PLAIN.test(ch) ? ch : cp(c);
}

const isAsciiLetter = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

/** Sorted, merged code point ranges as the inside of an RE2 class. */
function rangesText(ranges: [number, number][]): string {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [start, end] of sorted) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1] + 1) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged
    .map(([start, end]) => (start === end ? classChar(start) : `${classChar(start)}-${classChar(end)}`))
    .join('');
}

/** Whether a pattern needs the `unicode` representation (some Unicode-mode item sees whole characters). */
export function needsUnicode(ast: Ast): boolean {
  let needed = false;
  visitWithFlags(ast, (node, flags) => {
    if (!flags.unicode || needed) return;
    switch (node.type) {
      case 'dot':
      case 'perl':
      case 'unicode':
        needed = true;
        return;
      case 'literal':
        needed = flags.caseInsensitive && (node.c >= 0x80 || isAsciiLetter(node.c));
        return;
      case 'bracketed':
        needed = flags.caseInsensitive || node.negated || !isAsciiClass(node.set);
        return;
      default:
        return;
    }
  });
  return needed;
}

/** A class made only of ASCII characters, ranges and POSIX classes: the same in both modes. */
function isAsciiClass(item: ClassSet): boolean {
  switch (item.type) {
    case 'literal':
      return item.c < 0x80;
    case 'range':
      return item.end.c < 0x80;
    case 'ascii':
      return !item.negated;
    case 'union':
      return item.items.every(isAsciiClass);
    case 'empty':
      return true;
    case 'bracketed':
      return !item.negated && isAsciiClass(item.set);
    default:
      return false;
  }
}

export function translate(ast: Ast): Translation {
  const representation = needsUnicode(ast) ? 'unicode' : 'bytes';
  const writer = new Writer(representation);
  const { text, cost } = writer.write(ast);
  return { source: text, representation, cost: BASE_COST + cost };
}

/** Writes RE2 syntax for one representation, tracking the flags in force. */
class Writer {
  private flags: Flags = DEFAULT_FLAGS;
  private readonly properties = new Re2Writer();

  constructor(private readonly representation: Representation) {}

  write(node: Ast): Piece {
    switch (node.type) {
      case 'empty':
        return { text: '', atom: false, cost: 0 };
      case 'flags':
        this.flags = applyFlags(this.flags, node.items);
        return { text: '', atom: false, cost: 0 };
      case 'literal':
        return this.literal(node);
      case 'dot':
        return this.dot();
      case 'assertion':
        return { text: this.assertion(node), atom: false, cost: 50 };
      case 'perl':
        if (!this.flags.unicode) return this.byteSet(perlByteSet(node));
        return this.classPiece(this.unicodeParts(node), false);
      case 'unicode':
        if (!this.flags.unicode) throw new UnsupportedRegexError('a Unicode class in byte mode');
        return this.classPiece(this.unicodeParts(node), false);
      case 'bracketed':
        return this.flags.unicode && this.representation === 'unicode'
          ? this.classPiece(this.unicodeParts(node.set), node.negated)
          : this.byteSet(this.byteClass(node));
      case 'repetition': {
        const sub = this.write(node.sub);
        const operand = sub.atom ? sub.text : `(?:${sub.text})`;
        const lazy = node.greedy === this.flags.swapGreed ? '?' : '';
        const { min, max } = node;
        const count = {
          '?': '?',
          '*': '*',
          '+': '+',
          exactly: `{${min}}`,
          atLeast: `{${min},}`,
          bounded: `{${min},${max}}`,
        }[node.op];
        // RE2 compiles `x*`, `x+`, `x?` with one copy of x, and `x{n,m}` with m (or n) copies.
        const copies =
          node.op === 'bounded' ? (max ?? 1) : ['exactly', 'atLeast'].includes(node.op) ? min : 1;
        return { text: `${operand}${count}${lazy}`, atom: false, cost: sub.cost * Math.max(1, copies) };
      }
      case 'group': {
        const outer = this.flags;
        if (node.flags) this.flags = applyFlags(this.flags, node.flags);
        const sub = this.write(node.sub);
        this.flags = outer;
        return { text: `${node.capturing ? '(' : '(?:'}${sub.text})`, atom: true, cost: sub.cost + 100 };
      }
      case 'alternation':
        return joined(
          node.subs.map((sub) => this.write(sub)),
          '|',
        );
      case 'concat': {
        const pieces = this.concat(node.subs);
        return pieces.length === 1 ? pieces[0] : joined(pieces, '');
      }
    }
  }

  private concat(subs: Ast[]): Piece[] {
    const pieces: Piece[] = [];
    for (let i = 0; i < subs.length; i++) {
      // In the unicode representation, a run of `\xHH` bytes that spells a character matches it whole.
      if (this.representation === 'unicode' && this.isHighByte(subs[i])) {
        let end = i;
        let run = '';
        while (end < subs.length && this.isHighByte(subs[end])) {
          run += String.fromCharCode((subs[end] as LiteralNode).c);
          end++;
        }
        pieces.push(...this.byteRun(run));
        i = end - 1;
        continue;
      }
      pieces.push(this.write(subs[i]));
    }
    return pieces;
  }

  private isHighByte(node: Ast): boolean {
    return node.type === 'literal' && !this.flags.unicode && node.form === 'hexByte' && node.c >= 0x80;
  }

  private byteRun(run: string): Piece[] {
    const pieces: Piece[] = [];
    for (let i = 0; i < run.length; ) {
      const length = sequenceLength(run, i);
      if (length === 0) {
        pieces.push(this.byteSet(ByteSet.of([run.charCodeAt(i), run.charCodeAt(i)])));
        i++;
      } else {
        pieces.push({ text: cp(decodeSequence(run, i, length)), atom: true, cost: LITERAL_COST });
        i += length;
      }
    }
    return pieces;
  }

  private literal(node: LiteralNode): Piece {
    const { c } = node;
    const { caseInsensitive, unicode } = this.flags;
    // Byte mode: `\xHH` is a raw byte, never case-folded, even under (?i).
    if (!unicode && node.form === 'hexByte' && c >= 0x80) return this.byteSet(ByteSet.of([c, c]));
    if (c < 0x80) {
      if (!caseInsensitive || !isAsciiLetter(c))
        return { text: literalChar(c), atom: true, cost: LITERAL_COST };
      // (?iu): Unicode folding (`k` also matches U+212A); only written in the unicode representation.
      if (unicode) return { text: `(?i:${literalChar(c)})`, atom: true, cost: LITERAL_COST };
      const upper = c & ~0x20;
      const text = `[${String.fromCharCode(upper)}${String.fromCharCode(upper | 0x20)}]`;
      return { text, atom: true, cost: LITERAL_COST };
    }
    if (this.representation === 'unicode') {
      return { text: unicode && caseInsensitive ? `(?i:${cp(c)})` : cp(c), atom: true, cost: LITERAL_COST };
    }
    // A character in byte mode (or without folding) matches its UTF-8 bytes.
    const bytes = utf8Of(c);
    return {
      text: Array.from(bytes, (b) => cp(b.charCodeAt(0))).join(''),
      atom: bytes.length === 1,
      cost: LITERAL_COST * bytes.length,
    };
  }

  private dot(): Piece {
    if (this.flags.unicode) {
      return { text: `[^${this.flags.dotAll ? '' : cp(NEWLINE)}${MARKERS}]`, atom: true, cost: 1024 };
    }
    // Byte mode: any byte; in the unicode representation any character or marker.
    return { text: this.flags.dotAll ? '(?s:.)' : `[^${cp(NEWLINE)}]`, atom: true, cost: 200 };
  }

  private assertion(node: AssertionNode): string {
    const { multiLine } = this.flags;
    switch (node.kind) {
      case 'startLine':
        return multiLine ? '(?m:^)' : '\\A';
      case 'endLine':
        return multiLine ? '(?m:$)' : '\\z';
      case 'startText':
        return '\\A';
      case 'endText':
        return '\\z';
      // ASCII word boundaries, in Unicode mode too (RE2 has no other kind).
      case 'word':
        return '\\b';
      case 'notWord':
        return '\\B';
      default:
        throw new UnsupportedRegexError(`the word boundary assertion ${node.kind}`);
    }
  }

  /** A set of bytes: a class in the bytes representation, whole characters by lead byte otherwise. */
  private byteSet(set: ByteSet): Piece {
    if (this.representation === 'bytes') {
      const members = set.size();
      if (members === 0) return { text: EMPTY_CLASS, atom: true, cost: 100 };
      if (members === 1) return { text: literalChar(set.members()[0]), atom: true, cost: LITERAL_COST };
      const text = `[${rangesText(set.ranges())}]`;
      return { text, atom: true, cost: classCost(text) };
    }
    // A byte-mode item in a pattern read as characters: it matches an invalid byte as its marker, and a
    // valid character when it would match the character's first byte (the only approximation made).
    const ranges: [number, number][] = [];
    for (const [start, end] of set.ranges()) {
      if (start < 0x80) ranges.push([start, Math.min(end, 0x7f)]);
      for (let b = Math.max(start, 0x80); b <= end; b++) {
        ranges.push([MARKER_BASE + b, MARKER_BASE + b]);
        const lead = leadByteRange(b);
        if (lead) ranges.push(lead);
      }
    }
    const text = ranges.length === 0 ? EMPTY_CLASS : `[${rangesText(ranges)}]`;
    return { text, atom: true, cost: classCost(text) };
  }

  private byteClass(node: BracketedNode): ByteSet {
    return byteClassSet(node, this.flags.caseInsensitive);
  }

  /** A Unicode-mode `\d`, `\s`, `\w` or a negation, alone or in a class. */
  private perlParts(node: PerlNode, parts: ClassParts): void {
    const atoms = { d: [DIGIT_ATOM], s: SPACE_ATOMS, w: WORD_ATOMS }[node.letter];
    if (!node.negated) parts.atoms.push(...atoms);
    else if (node.letter === 'd') parts.atoms.push({ ...DIGIT_ATOM, negated: true });
    else parts.negatedUnions.push(atoms);
  }

  /** A `\p{..}` or `\P{..}`, as RE2 spells it. */
  private propertyParts(node: UnicodeNode, parts: ClassParts): void {
    const negated = node.negated !== (node.value !== undefined && node.notEqual);
    const text = this.properties.write({ ...node, negated: false, notEqual: false }).text;
    // `\p{Any}` would include the markers; it is every character.
    const atom: Atom =
      text === '\\p{Any}'
        ? { kind: 'range', start: 0, end: FIRST_MARKER - 1 }
        : { kind: 'property', text, negated: false };
    if (!negated) parts.atoms.push(atom);
    else if (atom.kind === 'property') parts.atoms.push({ ...atom, negated: true });
    else parts.negatedUnions.push([atom]);
  }

  private classPiece(parts: ClassParts, negated: boolean): Piece {
    const text = classText(parts, negated);
    return { text: this.flags.caseInsensitive ? `(?i:${text})` : text, atom: true, cost: classCost(text) };
  }

  /** The parts of a Unicode-mode class; a nested positive class merges in, a nested negated one is a part. */
  private unicodeParts(set: ClassSet, parts: ClassParts = { atoms: [], negatedUnions: [] }): ClassParts {
    switch (set.type) {
      case 'literal':
        if (set.c < FIRST_MARKER) parts.atoms.push({ kind: 'range', start: set.c, end: set.c });
        break;
      case 'range': {
        const end = Math.min(set.end.c, FIRST_MARKER - 1);
        if (set.start.c <= end) parts.atoms.push({ kind: 'range', start: set.start.c, end });
        break;
      }
      case 'ascii':
        parts.atoms.push({ kind: 'posix', name: set.name, negated: set.negated });
        break;
      case 'perl':
        this.perlParts(set, parts);
        break;
      case 'unicode':
        this.propertyParts(set, parts);
        break;
      case 'union':
        for (const item of set.items) this.unicodeParts(item, parts);
        break;
      case 'empty':
        break;
      case 'bracketed':
        if (!set.negated) {
          this.unicodeParts(set.set, parts);
        } else {
          const inner = this.unicodeParts(set.set);
          if (inner.negatedUnions.length > 0) {
            throw new UnsupportedRegexError(
              'a negated class containing \\W, \\S or a negated class, inside a class',
            );
          }
          parts.negatedUnions.push(inner.atoms);
        }
        break;
      case 'setop':
        throw new UnsupportedRegexError('class set operations');
    }
    return parts;
  }
}

/** The bytes a byte-mode class matches. */
export function byteClassSet(node: BracketedNode, caseInsensitive: boolean): ByteSet {
  let set = byteItems(node.set, caseInsensitive);
  // regex-syntax folds a class before negating it: `(?i)[^a]` excludes `A` too.
  if (caseInsensitive) set = set.foldAscii();
  return node.negated ? set.negate() : set;
}

function byteItems(item: ClassSet, caseInsensitive: boolean): ByteSet {
  switch (item.type) {
    case 'literal':
      return ByteSet.of([byteOf(item), byteOf(item)]);
    case 'range':
      return ByteSet.of([byteOf(item.start), byteOf(item.end)]);
    case 'ascii': {
      const set = ASCII_CLASS_SETS.get(item.name) ?? new ByteSet();
      return item.negated ? set.negate() : set;
    }
    case 'perl':
      return perlByteSet(item);
    case 'union':
      return item.items.reduce((set, inner) => set.union(byteItems(inner, caseInsensitive)), new ByteSet());
    case 'empty':
      return new ByteSet();
    case 'bracketed':
      return byteClassSet(item, caseInsensitive);
    case 'unicode':
      throw new UnsupportedRegexError('a Unicode class in byte mode');
    case 'setop':
      throw new UnsupportedRegexError('class set operations');
  }
}

function joined(pieces: Piece[], separator: string): Piece {
  return {
    text: pieces.map((p) => p.text).join(separator),
    atom: false,
    cost: pieces.reduce((sum, p) => sum + p.cost, 0),
  };
}

function perlByteSet(node: PerlNode): ByteSet {
  const set = PERL_BYTE_SETS[node.letter];
  return node.negated ? set.negate() : set;
}

/** A class member in byte mode: ASCII, or a `\xHH` byte (the checker rejects other characters there). */
function byteOf(node: LiteralNode): number {
  if (node.c < 0x80 || (node.form === 'hexByte' && node.c <= 0xff)) return node.c;
  throw new UnsupportedRegexError('a non-ASCII character in a byte-mode class');
}
