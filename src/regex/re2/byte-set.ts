// Sets of bytes: what a byte-mode class (`[a-z]`, `\d`, `(?i)[^k]`) matches, computed exactly

/** A set of the 256 byte values. */
export class ByteSet {
  private readonly bits = new Uint32Array(8);

  static of(...ranges: [number, number][]): ByteSet {
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

/** The POSIX classes `[[:name:]]`, ASCII in both modes (as regex-syntax defines them). */
export const ASCII_CLASS_SETS: ReadonlyMap<string, ByteSet> = new Map([
  ['alnum', ByteSet.of([0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a])],
  ['alpha', ByteSet.of([0x41, 0x5a], [0x61, 0x7a])],
  ['ascii', ByteSet.of([0x00, 0x7f])],
  ['blank', ByteSet.of([0x09, 0x09], [0x20, 0x20])],
  ['cntrl', ByteSet.of([0x00, 0x1f], [0x7f, 0x7f])],
  ['digit', ByteSet.of([0x30, 0x39])],
  ['graph', ByteSet.of([0x21, 0x7e])],
  ['lower', ByteSet.of([0x61, 0x7a])],
  ['print', ByteSet.of([0x20, 0x7e])],
  ['punct', ByteSet.of([0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e])],
  ['space', ByteSet.of([0x09, 0x0d], [0x20, 0x20])],
  ['upper', ByteSet.of([0x41, 0x5a])],
  ['word', ByteSet.of([0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a], [0x5f, 0x5f])],
  ['xdigit', ByteSet.of([0x30, 0x39], [0x41, 0x46], [0x61, 0x66])],
]);

/** Byte-mode `\d`, `\s` (`[\t\n\v\f\r ]`) and `\w`: ASCII only (bytes ≥ 0x80 are none of them). */
export const PERL_BYTE_SETS: Readonly<Record<'d' | 's' | 'w', ByteSet>> = {
  d: ASCII_CLASS_SETS.get('digit') as ByteSet,
  s: ASCII_CLASS_SETS.get('space') as ByteSet,
  w: ASCII_CLASS_SETS.get('word') as ByteSet,
};
