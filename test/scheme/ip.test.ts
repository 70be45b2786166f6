// IPv6 addresses as Rust's standard parser reads them (src/scheme/ip.ts), scanned by hand since 2026-11-29.
// The oracle below is the reader it replaced (split at `::` and `:`, a regex per group), kept here to
// check the scanner against it on any text made of an address's characters.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseIpAddress } from '../../src/scheme/ip.js';

function oracleIpv4(text: string): number | undefined {
  const octets = text.split('.');
  if (octets.length !== 4) return undefined;
  let value = 0;
  for (const octet of octets) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(octet) || Number(octet) > 255) return undefined;
    value = value * 256 + Number(octet);
  }
  return value;
}

function oracleIpv6(text: string): bigint | undefined {
  let head = text;
  let tail = '';
  const gap = text.indexOf('::');
  if (gap !== -1) {
    head = text.slice(0, gap);
    tail = text.slice(gap + 2);
    if (tail.includes('::')) return undefined;
  }
  const groups = (part: string, mayEndWithIpv4: boolean): number[] | undefined => {
    if (part === '') return [];
    const out: number[] = [];
    const pieces = part.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i] as string;
      if (mayEndWithIpv4 && i === pieces.length - 1 && piece.includes('.')) {
        const v4 = oracleIpv4(piece);
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
  let value = 0n;
  for (const group of [...before, ...new Array(8 - total).fill(0), ...after])
    value = (value << 16n) | BigInt(group);
  return value;
}

const ipv6 = (text: string) => {
  const address = parseIpAddress(text);
  return address?.family === 6 ? address.value : undefined;
};

describe('IPv6 addresses', () => {
  it('reads the usual forms', () => {
    expect(ipv6('2001:db8::9')).toBe(0x20010db8000000000000000000000009n);
    expect(ipv6('::')).toBe(0n);
    expect(ipv6('::1')).toBe(1n);
    expect(ipv6('1::')).toBe(1n << 112n);
    expect(ipv6('::ffff:192.0.2.1')).toBe(0xffffc0000201n);
    expect(ipv6('1:2:3:4:5:6:7:8')).toBe(0x00010002000300040005000600070008n);
    expect(ipv6('1:2:3:4:5:6:192.0.2.1')).toBe(0x000100020003000400050006c0000201n);
    expect(ipv6('FFFF::aBcD')).toBe(0xffff000000000000000000000000abcdn);
  });

  it('refuses what Rust refuses', () => {
    for (const text of [
      ':',
      ':::',
      '1:::2',
      '1::2::3',
      ':1::',
      '1:2:3:4:5:6:7:',
      '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:7',
      '1:2:3:4:5:6:7::8',
      '12345::',
      '::g',
      '1.2.3.4::',
      '::1.2.3.4:5',
      '1:2:3:4:5:6:7:1.2.3.4',
      '::01.2.3.4',
      '::1.2.3',
    ])
      expect(ipv6(text), text).toBeUndefined();
  });

  it('agrees with the split-and-regex reader on any text of hex digits, colons and dots', () => {
    const piece = fc.oneof(
      fc.constantFrom(':', '::', '.', '0', '00', '1', 'f', 'FFFF', '12345', 'g', '255', '256', '01'),
      fc.stringMatching(/^[0-9a-fA-F]{1,4}$/),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (pieces) => {
        const text = pieces.join('');
        if (!text.includes(':')) return;
        expect(ipv6(text)).toBe(oracleIpv6(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with it on real addresses, compressed and written in full', () => {
    const group = fc.integer({ min: 0, max: 0xffff });
    fc.assert(
      fc.property(
        fc.array(group, { minLength: 8, maxLength: 8 }),
        fc.nat(7),
        fc.nat(8),
        (groups, at, length) => {
          const hex = groups.map((g) => g.toString(16));
          const full = hex.join(':');
          const cut = Math.min(length, 8 - at);
          const compressed = `${hex.slice(0, at).join(':')}::${hex.slice(at + cut).join(':')}`;
          expect(ipv6(full)).toBe(oracleIpv6(full));
          expect(ipv6(compressed)).toBe(oracleIpv6(compressed));
        },
      ),
    );
  });
});
