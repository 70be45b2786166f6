/**
 * A seeded pseudo-random generator (mulberry32): the corpus is the same on every run and every machine,
 * and changing the seed gives another corpus of the same shape.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** One of the items, each with its weight. */
  weighted<T>(items: readonly (readonly [number, T])[]): T {
    const total = items.reduce((sum, [weight]) => sum + weight, 0);
    let r = this.next() * total;
    for (const [weight, item] of items) {
      r -= weight;
      if (r < 0) return item;
    }
    return (items[items.length - 1] as readonly [number, T])[1];
  }

  /** `count` distinct items (fewer if the list is shorter), in the list's order. */
  some<T>(items: readonly T[], count: number): T[] {
    const chosen = new Set<number>();
    while (chosen.size < Math.min(count, items.length)) chosen.add(this.int(0, items.length - 1));
    return [...chosen].sort((a, b) => a - b).map((i) => items[i] as T);
  }

  private chars(alphabet: string, length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }

  /** `count` random bytes. */
  bytes(count: number): Buffer {
    const out = Buffer.alloc(count + 4);
    for (let i = 0; i < count; i += 4) out.writeUInt32LE(Math.floor(this.next() * 4294967296), i);
    return out.subarray(0, count);
  }

  hex(length: number): string {
    return this.bytes(Math.ceil(length / 2))
      .toString('hex')
      .slice(0, length);
  }

  digits(length: number): string {
    return this.chars('123456789', 1) + this.chars('0123456789', length - 1);
  }

  alnum(length: number): string {
    return this.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', length);
  }

  /** Base64url text (tokens, ids). */
  b64url(length: number): string {
    return this.bytes(Math.ceil((length * 3) / 4) + 1)
      .toString('base64url')
      .slice(0, length);
  }

  /** Standard base64 of `bytes` random bytes, with its padding. */
  base64(bytes: number): string {
    return this.bytes(bytes).toString('base64');
  }

  uuid(): string {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
  }

  /** A Unix time in May 2024, in seconds. */
  time(): number {
    return 1714521600 + this.int(0, 31 * 86400);
  }
}
