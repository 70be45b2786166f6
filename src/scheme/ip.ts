/**
 * IP addresses as the reference engine reads them. Addresses after `eq` and the other single-value
 * operators follow Rust's standard parser (strict: no leading zeros in IPv4 octets); set items follow
 * the `cidr` crate, which also accepts leading zeros (`1.1.1.01`). IPv4-mapped IPv6 addresses stay IPv6.
 *
 * IPv4 values are numbers, IPv6 values bigints, so that ranges compare with `<`.
 *
 * Shared by the checker (IP literals and sets), the sample-request reader (client addresses) and the
 * evaluator (the Ip run-time value, see values.ts), hence its place at the bottom, in the scheme.
 */
export type IpAddress = { family: 4; value: number } | { family: 6; value: bigint };

/** An inclusive range of one family. */
export interface IpRange {
  from: IpAddress;
  to: IpAddress;
}

function parseIpv4(text: string, lenient: boolean): number | undefined {
  // By hand rather than split + regex: set items are read in bulk (sets of thousands of addresses).
  let value = 0;
  let octets = 0;
  let i = 0;
  while (octets < 4) {
    const start = i;
    let octet = 0;
    while (i < text.length && i - start < 4) {
      const digit = text.charCodeAt(i) - 0x30;
      if (digit < 0 || digit > 9) break;
      octet = octet * 10 + digit;
      i++;
    }
    const digits = i - start;
    if (digits === 0 || digits > 3 || octet > 255) return undefined;
    if (!lenient && digits > 1 && text.charCodeAt(start) === 0x30) return undefined;
    value = value * 256 + octet;
    octets++;
    if (octets < 4) {
      if (text.charCodeAt(i) !== 0x2e /* . */) return undefined;
      i++;
    }
  }
  return i === text.length ? value : undefined;
}

/**
 * An IPv6 address as Rust's standard parser reads it: eight groups of 1–4 hex digits, or fewer around one
 * `::`, the last two groups possibly written as an IPv4 address. Scanned by hand, with the groups put
 * together 32 bits at a time: with split, a regex per group and a bigint operation per group, a client
 * address took some 1.5 µs to read.
 */
function parseIpv6(text: string): bigint | undefined {
  const groups = [0, 0, 0, 0, 0, 0, 0, 0];
  let count = 0;
  /** Where `::` stands: the number of groups before it; -1 without one. */
  let gap = -1;
  const end = text.length;
  let i = 0;
  if (text.charCodeAt(0) === 0x3a /* : */) {
    if (text.charCodeAt(1) !== 0x3a) return undefined;
    gap = 0;
    i = 2;
  }
  while (i < end) {
    const start = i;
    let group = 0;
    while (i < end && i - start < 5) {
      const digit = hexDigit(text.charCodeAt(i));
      if (digit < 0) break;
      group = group * 16 + digit;
      i++;
    }
    if (text.charCodeAt(i) === 0x2e /* . */) {
      // An embedded IPv4 address: the rest of the text, filling the last two groups.
      const v4 = count <= 6 ? parseIpv4(text.slice(start), false) : undefined;
      if (v4 === undefined) return undefined;
      groups[count++] = Math.floor(v4 / 0x10000);
      groups[count++] = v4 % 0x10000;
      break;
    }
    if (i === start || i - start > 4 || count === 8) return undefined;
    groups[count++] = group;
    if (i === end) break;
    if (text.charCodeAt(i) !== 0x3a) return undefined;
    i++;
    if (text.charCodeAt(i) === 0x3a) {
      if (gap !== -1) return undefined;
      gap = count;
      i++;
    } else if (i === end) {
      return undefined; // a single `:` at the end
    }
  }
  if (gap === -1 ? count !== 8 : count > 7) return undefined;
  if (gap !== -1) {
    // The groups after `::` move to the end; zeros fill the gap.
    const moved = count - gap;
    for (let k = 0; k < moved; k++) groups[7 - k] = groups[count - 1 - k] as number;
    for (let k = gap; k < 8 - moved; k++) groups[k] = 0;
  }
  const word = (k: number) => BigInt((groups[k] as number) * 0x10000 + (groups[k + 1] as number));
  return (word(0) << 96n) | (word(2) << 64n) | (word(4) << 32n) | word(6);
}

/** The value of a hex digit's character code; -1 for any other character. */
function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** Parses an IPv4 or IPv6 address; `lenient` accepts leading zeros in IPv4 octets (set items). */
export function parseIpAddress(text: string, lenient = false): IpAddress | undefined {
  if (text.includes(':')) {
    const value = parseIpv6(text);
    return value === undefined ? undefined : { family: 6, value };
  }
  const value = parseIpv4(text, lenient);
  return value === undefined ? undefined : { family: 4, value };
}

export const compareIp = (a: IpAddress, b: IpAddress): number =>
  a.value < b.value ? -1 : a.value > b.value ? 1 : 0;

const bits = (family: 4 | 6) => (family === 4 ? 32 : 128);

/** The range covered by `address/length`, or the reason it is not a network address. */
export function networkRange(address: IpAddress, length: number): IpRange | 'host-bits' {
  const hostBits = bits(address.family) - length;
  if (address.family === 4) {
    const size = 2 ** hostBits;
    if (address.value % size !== 0) return 'host-bits';
    return { from: address, to: { family: 4, value: address.value + size - 1 } };
  }
  const size = 1n << BigInt(hostBits);
  if (address.value % size !== 0n) return 'host-bits';
  return { from: address, to: { family: 6, value: address.value + size - 1n } };
}

export const maxPrefixLength = (family: 4 | 6): number => bits(family);

/** The usual text of an address (for messages and lints). */
export function formatIp(address: IpAddress): string {
  if (address.family === 4) {
    const v = address.value;
    return [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].join('.');
  }
  const groups: string[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n)
    groups.push(((address.value >> shift) & 0xffffn).toString(16));
  // Compress the longest run of zero groups (at least two), as RFC 5952 recommends.
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLength) {
      best = i;
      bestLength = j - i;
    }
    i = j;
  }
  if (best === -1) return groups.join(':');
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLength).join(':')}`;
}
