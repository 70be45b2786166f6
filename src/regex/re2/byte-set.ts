// Sets of bytes: what a byte-mode class (`[a-z]`, `\d`, `(?i)[^k]`) matches, computed exactly

import { ASCII_CLASS_RANGES, type ByteRange, PERL_CLASS_NAMES } from '../syntax/ascii-classes.js';

/** A set of the 256 byte values. */
export class ByteSet {
  private readonly bits = new Uint32Array(8);

  static of(...ranges: readonly ByteRange[]): ByteSet {
    const set = new ByteSet();
    for (const [start, end] of ranges) set.addRange(start, end);
    return set;
  }

  has(byte: number): boolean {
    return (this.bits[byte >> 5] & (1 << (byte & 31))) !== 0;
  }

  add(byte: number): void {
    this.bits[byte >> 5] |= 1 << (byte & 31);
  }

  addRange(start: number, end: number): void {
    for (let b = start; b <= end; b++) this.add(b);
  }

  union(other: ByteSet): ByteSet {
    return this.combine(other, (a, b) => a | b);
  }

  intersect(other: ByteSet): ByteSet {
    return this.combine(other, (a, b) => a & b);
  }

  minus(other: ByteSet): ByteSet {
    return this.combine(other, (a, b) => a & ~b);
  }

  symmetricDifference(other: ByteSet): ByteSet {
    return this.combine(other, (a, b) => a ^ b);
  }

  negate(): ByteSet {
    return this.combine(this, (a) => ~a);
  }

  /** Adds the other case of every ASCII letter: byte-mode `(?i)` folds ASCII only (`é` is not `É`). */
  foldAscii(): ByteSet {
    const folded = this.union(new ByteSet());
    for (let b = 0x41; b <= 0x5a; b++) {
      if (this.has(b) || this.has(b + 0x20)) {
        folded.add(b);
        folded.add(b + 0x20);
      }
    }
    return folded;
  }

  size(): number {
    let count = 0;
    for (let b = 0; b < 256; b++) if (this.has(b)) count++;
    return count;
  }

  members(): number[] {
    const out: number[] = [];
    for (let b = 0; b < 256; b++) if (this.has(b)) out.push(b);
    return out;
  }

  /** Maximal runs of members, ascending. */
  ranges(): [number, number][] {
    const out: [number, number][] = [];
    for (let b = 0; b < 256; b++) {
      if (!this.has(b)) continue;
      const start = b;
      while (b + 1 < 256 && this.has(b + 1)) b++;
      out.push([start, b]);
    }
    return out;
  }

  private combine(other: ByteSet, op: (a: number, b: number) => number): ByteSet {
    const out = new ByteSet();
    for (let i = 0; i < 8; i++) out.bits[i] = op(this.bits[i], other.bits[i]);
    return out;
  }
}

/** The POSIX classes `[[:name:]]` (../syntax/ascii-classes.ts) as byte sets. */
export const ASCII_CLASS_SETS: ReadonlyMap<string, ByteSet> = new Map(
  [...ASCII_CLASS_RANGES].map(([name, ranges]) => [name, ByteSet.of(...ranges)]),
);

/** Byte-mode `\d`, `\s` (`[\t\n\v\f\r ]`) and `\w`: ASCII only (bytes ≥ 0x80 are none of them). */
export const PERL_BYTE_SETS: Readonly<Record<'d' | 's' | 'w', ByteSet>> = {
  d: ASCII_CLASS_SETS.get(PERL_CLASS_NAMES.d) as ByteSet,
  s: ASCII_CLASS_SETS.get(PERL_CLASS_NAMES.s) as ByteSet,
  w: ASCII_CLASS_SETS.get(PERL_CLASS_NAMES.w) as ByteSet,
};
