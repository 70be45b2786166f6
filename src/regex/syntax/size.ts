// Translation checks and the compiled-size estimate (regex-automata's Thompson NFA builder)

import { ASCII_CLASS_RANGES } from './ascii-classes.js';
import { RegexSyntaxError } from './errors.js';
import type { Ast, ClassSet, FlagItem, LiteralNode, RepetitionNode, UnicodeNode } from './syntax-tree.js';

/** Builder bytes: a state is 32 bytes; a class range 8; a union branch 4. */
const STATE = 32;
const RANGE = 8;
const BRANCH = 4;
/** The unanchored prefix, the match state and the like. */
export const NFA_OVERHEAD = 8 * STATE;
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
export class Translator {
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
        return { ranges: ASCII_CLASS_RANGES.get(node.name)?.length ?? 1, extra: 0 };
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
