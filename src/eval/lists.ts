import { scanIpSetItem } from '../check/typed-literals.js';
import type { ListKind } from '../scheme/scheme.js';
import type { IpAddress, Value } from '../scheme/values.js';
import { IpSet } from './sets.js';

/**
 * The contents of named lists (`in $name`), given by the caller: IP addresses and CIDRs for IP lists,
 * hostnames (optionally `*.` for every subdomain) for hostname lists, AS numbers for ASN lists. Cloudflare's
 * managed lists are not published, so they are empty unless the caller supplies them.
 */
export type ListItems = readonly (string | number)[];

export class ListError extends Error {
  override name = 'ListError';
}

/** A test of a value against a list's items, built once. Throws ListError for an item of the wrong form. */
export function listMatcher(kind: ListKind, items: ListItems, name = 'list'): (value: Value) => boolean {
  if (kind === 'ip') {
    const ranges = items.map((item) => {
      const text = String(item);
      const read = scanIpSetItem(text, 0, text.length);
      if (!read.ok || read.end !== text.length)
        throw new ListError(`$${name}: ${JSON.stringify(text)} is not an IP address or CIDR`);
      return read.value;
    });
    const set = new IpSet(ranges);
    return (value) => set.has(value as IpAddress);
  }
  if (kind === 'asn') {
    const numbers = new Set(
      items.map((item) => {
        const n = typeof item === 'number' ? item : Number(item);
        if (!Number.isSafeInteger(n) || n < 0)
          throw new ListError(`$${name}: ${JSON.stringify(item)} is not an AS number`);
        return n;
      }),
    );
    return (value) => numbers.has(value as number);
  }
  const exact = new Set<string>();
  const suffixes: string[] = [];
  for (const item of items) {
    const host = String(item).toLowerCase();
    if (!/^(\*\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/.test(host))
      throw new ListError(`$${name}: ${JSON.stringify(item)} is not a hostname`);
    if (host.startsWith('*.')) suffixes.push(host.slice(1));
    else exact.add(host);
  }
  return (value) => {
    const host = (value as string).toLowerCase();
    return exact.has(host) || suffixes.some((suffix) => host.endsWith(suffix));
  };
}
