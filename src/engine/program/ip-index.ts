import type { IpAddress, IpRange } from '../../scheme/ip.js';

/**
 * Which rules' address ranges hold an address, for one field: the ranges of every rule cut into
 * elementary segments that do not overlap, each with the rules covering it, found by binary search.
 * One structure per family, as the reference engine keeps v4 and v6 apart.
 */
class Segments<T extends number | bigint> {
  private readonly starts: T[] = [];
  private readonly rules: number[][] = [];

  constructor(ranges: { from: T; to: T; rule: number }[], after: (value: T) => T) {
    // Sweep over boundaries: a range opens at `from` and closes after `to`.
    const events: { at: T; rule: number; open: boolean }[] = [];
    for (const range of ranges) {
      events.push({ at: range.from, rule: range.rule, open: true });
      events.push({ at: after(range.to), rule: range.rule, open: false });
    }
    events.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
    const active = new Map<number, number>();
    for (let i = 0; i < events.length; ) {
      const at = (events[i] as { at: T }).at;
      for (; i < events.length && (events[i] as { at: T }).at === at; i++) {
        const event = events[i] as { rule: number; open: boolean };
        const count = (active.get(event.rule) ?? 0) + (event.open ? 1 : -1);
        if (count === 0) active.delete(event.rule);
        else active.set(event.rule, count);
      }
      this.starts.push(at);
      this.rules.push([...active.keys()]);
    }
  }

  /** The rules whose ranges hold `value`. */
  find(value: T): readonly number[] {
    let low = 0;
    let high = this.starts.length - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if ((this.starts[middle] as T) <= value) {
        found = middle;
        low = middle + 1;
      } else high = middle - 1;
    }
    return found < 0 ? [] : (this.rules[found] as number[]);
  }
}

export class IpIndex {
  private readonly v4: Segments<number>;
  private readonly v6: Segments<bigint>;

  constructor(entries: { range: IpRange; rule: number }[]) {
    const v4: { from: number; to: number; rule: number }[] = [];
    const v6: { from: bigint; to: bigint; rule: number }[] = [];
    for (const { range, rule } of entries) {
      if (range.from.family === 4 && range.to.family === 4)
        v4.push({ from: range.from.value, to: range.to.value, rule });
      else if (range.from.family === 6 && range.to.family === 6)
        v6.push({ from: range.from.value, to: range.to.value, rule });
    }
    this.v4 = new Segments(v4, (value) => value + 1);
    this.v6 = new Segments(v6, (value) => value + 1n);
  }

  find(address: IpAddress): readonly number[] {
    return address.family === 4 ? this.v4.find(address.value) : this.v6.find(address.value);
  }
}
