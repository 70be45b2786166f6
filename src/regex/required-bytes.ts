// Required bytes: a set of punctuation bytes every match of a pattern contains one of, for an index of rules
// when the pattern's literals come down to single letters.

import { PERL_BYTE_SETS } from './re2/byte-set.js';
import { byteClassSet } from './re2/translate.js';
import { applyFlags, DEFAULT_FLAGS, type Flags } from './syntax/flags.js';
import type { Ast } from './syntax/syntax-tree.js';

/**
 * The command-injection patterns of the managed rules look like `(?:[;|&\n]|\$\(|…|\bc["'\\]*a["'\\]*t[\s<>|])`:
 * the quotes an attacker may slip between the letters of a command leave no literal longer than one
 * letter, and a letter is in nearly every value. But every match still holds one byte of a small set of
 * punctuation and white space (`;`, `|`, `$`, the separator after the command…), which most values of
 * ordinary traffic (numbers, slugs, tokens) do not. Sets with a letter or a digit, or of more than
 * MAX_BYTES bytes, are of no use and not given.
 */
const MAX_BYTES = 32;

type ByteChoice = ReadonlySet<number> | undefined;

const isAlphanumeric = (byte: number): boolean =>
  (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7a);
const useful = (set: ReadonlySet<number>): boolean =>
  set.size > 0 && set.size <= MAX_BYTES && ![...set].some(isAlphanumeric);

/** A set of bytes every match of the pattern holds one of, or undefined when none is of use. */
export function requiredBytes(ast: Ast): number[] | undefined {
  const set = new RequiredBytes().of(ast);
  return set && useful(set) ? [...set].sort((a, b) => a - b) : undefined;
}

class RequiredBytes {
  private flags: Flags = DEFAULT_FLAGS;

  of(node: Ast): ByteChoice {
    switch (node.type) {
      case 'flags':
        this.flags = applyFlags(this.flags, node.items);
        return undefined;
      case 'literal':
        // A multi-byte character (or a byte above 0x7f) is not worth the care: no requirement.
        return node.c < 0x80 ? new Set([node.c]) : undefined;
      case 'perl':
        if (this.flags.unicode) return undefined;
        return this.members(
          node.negated ? PERL_BYTE_SETS[node.letter].negate() : PERL_BYTE_SETS[node.letter],
        );
      case 'bracketed':
        return this.flags.unicode ? undefined : this.members(byteClassSet(node, this.flags.caseInsensitive));
      case 'group': {
        const outer = this.flags;
        if (node.flags) this.flags = applyFlags(this.flags, node.flags);
        const set = this.of(node.sub);
        this.flags = outer;
        return set;
      }
      case 'repetition':
        return node.min >= 1 ? this.of(node.sub) : undefined;
      case 'alternation': {
        // One branch matches: the union of what each requires, if each requires something.
        const union = new Set<number>();
        for (const sub of node.subs) {
          const set = this.of(sub);
          if (!set) return undefined;
          for (const byte of set) union.add(byte);
          if (union.size > MAX_BYTES) return undefined;
        }
        return union;
      }
      case 'concat': {
        // Every part matches: any part's set will do; the most useful one is kept.
        let best: ByteChoice;
        for (const sub of node.subs) {
          const set = this.of(sub);
          if (set && (!best || better(set, best))) best = set;
        }
        return best;
      }
      default:
        // dot, assertions, empty, Unicode classes: nothing required.
        return undefined;
    }
  }

  private members(set: { members(): number[] }): ByteChoice {
    const members = set.members();
    return members.length <= MAX_BYTES ? new Set(members) : undefined;
  }
}

/** A set without letters and digits beats one with them; then the smaller one. */
function better(a: ReadonlySet<number>, b: ReadonlySet<number>): boolean {
  const aUseful = useful(a);
  const bUseful = useful(b);
  if (aUseful !== bUseful) return aUseful;
  return a.size < b.size;
}
