import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { containsSearch, hasWrittenSearch } from '../../src/lang/byte-search.js';

describe('containsSearch', () => {
  it('answers as includes, for needles with and without a written search, on short and long values', () => {
    // A small alphabet (with Latin-1 and a character above a byte) so that partial and whole matches are common.
    const text = (maxLength: number) =>
      fc
        .array(fc.constantFrom('a', 'b', '/', 'A', '\xe9', '\xff', '\u0161'), { maxLength })
        .map((s) => s.join(''));
    fc.assert(
      fc.property(text(20), text(48), text(8), (needle, value, insert) => {
        fc.pre(needle.length > 0);
        const search = containsSearch(needle);
        for (const v of [value, `${insert}${needle}${value}`, `${value}${needle}`, value.slice(0, 30)])
          expect(search(v)).toBe(v.includes(needle));
      }),
      { numRuns: 3000 },
    );
  });

  it('writes a search for needles of 2 to 16 bytes, and reuses it', () => {
    expect(hasWrittenSearch('a')).toBe(false);
    expect(hasWrittenSearch('/admin')).toBe(true);
    expect(hasWrittenSearch('x'.repeat(16))).toBe(true);
    expect(hasWrittenSearch('x'.repeat(17))).toBe(false);
    expect(containsSearch('/admin')).toBe(containsSearch('/admin'));
    expect(containsSearch('/admin')('/wp-admin/x')).toBe(false);
    expect(containsSearch('/admin')('/x/admin')).toBe(true);
  });
});
