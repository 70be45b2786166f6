import type { IpRange } from '../scheme/ip.js';
import type { IpAddress } from '../scheme/values.js';

/**
 * Sets of integers or IP addresses as sorted, merged, inclusive ranges searched by bisection, as the
 * reference engine does (a trie would not be faster for the sizes rules use). IPv4 and IPv6 are kept
 * apart: they never compare.
 */
export class RangeSet<T extends number | bigint> {
  private readonly starts: T[] = [];
  private readonly ends: T[] = [];

  constructor(ranges: Iterable<readonly [T, T]>, adjacent: (end: T, start: T) => boolean) {
    const sorted = [...ranges].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [start, end] of sorted) {
      const last = this.ends.length - 1;
      // Overlapping or touching ranges merge into one.
      if (last >= 0 && (start <= (this.ends[last] as T) || adjacent(this.ends[last] as T, start))) {
        if (end > (this.ends[last] as T)) this.ends[last] = end;
      } else {
        this.starts.push(start);
        this.ends.push(end);
      }
    }
  }

  get size(): number {
    return this.starts.length;
  }

  /** The merged ranges, in order, inclusive. */
  ranges(): [T, T][] {
    return this.starts.map((start, i) => [start, this.ends[i] as T]);
  }

  /** The membership test as one closure; a few ranges are scanned inline, without a method call. */
  matcher(): (value: T) => boolean {
    const { starts, ends } = this;
    if (starts.length === 1) {
      const [start, end] = [starts[0] as T, ends[0] as T];
      return (value) => value >= start && value <= end;
    }
    if (starts.length <= 8)
      return (value) => {
        for (let i = 0; i < starts.length; i++)
          if (value >= (starts[i] as T) && value <= (ends[i] as T)) return true;
        return false;
      };
    return (value) => this.has(value);
  }

  has(value: T): boolean {
    const { starts, ends } = this;
    if (starts.length <= 8) {
      // A few ranges (the usual case): a scan beats bisection.
      for (let i = 0; i < starts.length; i++)
        if (value >= (starts[i] as T) && value <= (ends[i] as T)) return true;
      return false;
    }
    let low = 0;
    let high = starts.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      if (value < (starts[middle] as T)) high = middle - 1;
      else if (value > (ends[middle] as T)) low = middle + 1;
      else return true;
    }
    return false;
  }
}

const MAX_SAFE = 2 ** 53;

/** Integer ranges (bigint literals) as numbers: run-time integers are safe integers, so clamping is exact. */
export function intRangeSet(ranges: Iterable<{ from: bigint; to: bigint }>): RangeSet<number> {
  const clamp = (v: bigint) =>
    v > BigInt(MAX_SAFE) ? MAX_SAFE : v < -BigInt(MAX_SAFE) ? -MAX_SAFE : Number(v);
  const pairs = [...ranges].map(({ from, to }) => [clamp(from), clamp(to)] as const);
  return new RangeSet(pairs, (end, start) => end + 1 === start);
}

/** An IP set: one range set per family. */
export class IpSet {
  readonly v4: RangeSet<number>;
  readonly v6: RangeSet<bigint>;

  constructor(ranges: Iterable<IpRange>) {
    const v4: [number, number][] = [];
    const v6: [bigint, bigint][] = [];
    for (const { from, to } of ranges) {
      if (from.family === 4) v4.push([from.value, to.value as number]);
      else v6.push([from.value, to.value as bigint]);
    }
    this.v4 = new RangeSet(v4, (end, start) => end + 1 === start);
    this.v6 = new RangeSet(v6, (end, start) => end + 1n === start);
  }

  has(address: IpAddress): boolean {
    return address.family === 4 ? this.v4.has(address.value) : this.v6.has(address.value);
  }

  /** The membership test as one closure, for compiled filters. */
  matcher(): (address: IpAddress) => boolean {
    const v4 = this.v4.matcher();
    const v6 = this.v6.matcher();
    return (address) => (address.family === 4 ? v4(address.value) : v6(address.value));
  }
}
