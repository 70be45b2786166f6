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

function parseIpv6(text: string): bigint | undefined {
  let head = text;
  let tail = '';
  const gap = text.indexOf('::');
  if (gap !== -1) {
    head = text.slice(0, gap);
    tail = text.slice(gap + 2);
    if (tail.includes('::')) return undefined;
  }
  // An embedded IPv4 address may only end the address: after `::`, or at the end without one.
  const groups = (part: string, mayEndWithIpv4: boolean): number[] | undefined => {
    if (part === '') return [];
    const out: number[] = [];
    const pieces = part.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i] as string;
      if (mayEndWithIpv4 && i === pieces.length - 1 && piece.includes('.')) {
        // An embedded IPv4 address fills the last two groups.
        const v4 = parseIpv4(piece, false);
        if (v4 === undefined) return undefined;
        out.push(Math.floor(v4 / 0x10000), v4 % 0x10000);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(piece)) {
        out.push(Number.parseInt(piece, 16));
      } else {
        return undefined;
      }
    }
    return out;
  };
  const before = groups(head, gap === -1);
  const after = groups(tail, true);
  if (!before || !after) return undefined;
  const total = before.length + after.length;
  if (gap === -1 ? total !== 8 : total > 7) return undefined;
  const all = [...before, ...new Array(8 - total).fill(0), ...after];
  let value = 0n;
  for (const group of all) value = (value << 16n) | BigInt(group);
  return value;
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
