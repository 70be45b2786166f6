import type { IpAddress } from '../../scheme/values.js';
import { type FunctionRuntime, isBytes, isInt, isIp } from './runtime.js';

/** Functions on IP addresses and packet headers: `cidr`, `cidr6`, `bit_slice`. */

/** The network address of `address` with `bits` network bits: the host bits set to zero. */
export function networkAddress(address: IpAddress, bits: number): IpAddress {
  if (address.family === 4) {
    const hostSize = 2 ** (32 - Math.min(Math.max(bits, 0), 32));
    return { family: 4, value: address.value - (address.value % hostSize) };
  }
  const hostBits = BigInt(128 - Math.min(Math.max(bits, 0), 128));
  return { family: 6, value: (address.value >> hostBits) << hostBits };
}

/**
 * `cidr(address, ipv4_bits, ipv6_bits)`: documented examples `cidr(113.10.0.2, 24, 24)` = `113.10.0.0` and
 * `cidr(2001:0:130f::9c0:876a:130b, 24, 24)` = `2001::`. An IPv4-mapped IPv6 address is IPv6 here, as
 * everywhere in the evaluator (src/scheme/values.ts), so it takes the IPv6 bits.
 */
const cidr: FunctionRuntime = {
  prepare:
    ([, v4Literal, v6Literal]) =>
    ([address, v4Argument, v6Argument]) => {
      const bits =
        isIp(address) && address.family === 4 ? (v4Literal ?? v4Argument) : (v6Literal ?? v6Argument);
      return isIp(address) && isInt(bits) ? networkAddress(address, bits) : undefined;
    },
};

/** `cidr6(address, ipv6_bits)` = `cidr(address, 32, ipv6_bits)`: IPv4 addresses come back unchanged. */
const cidr6: FunctionRuntime = {
  prepare:
    ([, v6Literal]) =>
    ([address, v6Argument]) => {
      const bits = v6Literal ?? v6Argument;
      if (!isIp(address) || !isInt(bits)) return undefined;
      return address.family === 4 ? address : networkAddress(address, bits);
    },
};

/** The widest slice Cloudflare allows (rules-language §7). */
const MAX_SLICE_BITS = 32;

/**
 * Bits `start` (included) to `end` (excluded) of a header, counted from the most significant bit of its
 * first byte (network order), as an unsigned integer. Cloudflare documents that offsets start at the named
 * header (bit 64 is the first bit of a UDP payload) and that a slice is at most 32 bits; the end being
 * exclusive is our reading of its example `bit_slice("udp", 64, 80)` (the first 16 bits of the payload).
 * An empty or reversed slice, one wider than 32 bits, or one past the end of the header gives a missing
 * value.
 */
export function bitSlice(header: string, start: number, end: number): number | undefined {
  if (start < 0 || end <= start || end - start > MAX_SLICE_BITS || end > header.length * 8) return undefined;
  let value = 0;
  for (let bit = start; bit < end; bit++) {
    const byte = header.charCodeAt(bit >>> 3);
    // Multiplying, not shifting: a 32-bit result must stay positive.
    value = value * 2 + ((byte >>> (7 - (bit & 7))) & 1);
  }
  return value;
}

/**
 * `bit_slice(protocol, start, end)`. The first argument names a header (`ip`, `tcp`, `udp`), and the
 * Network Firewall fields of the same names hold those headers' raw bytes (src/scheme/fields.json). The
 * evaluator therefore passes, as argument #0, the bytes of the field the protocol literal names (not the
 * literal itself); a missing header gives a missing result.
 */
const bitSliceRuntime: FunctionRuntime = {
  prepare:
    ([, startLiteral, endLiteral]) =>
    ([header, startArgument, endArgument]) => {
      const start = startLiteral ?? startArgument;
      const end = endLiteral ?? endArgument;
      return isBytes(header) && isInt(start) && isInt(end) ? bitSlice(header, start, end) : undefined;
    },
};

export const networkRuntimes: ReadonlyMap<string, FunctionRuntime> = new Map([
  ['bit_slice', bitSliceRuntime],
  ['cidr', cidr],
  ['cidr6', cidr6],
]);
