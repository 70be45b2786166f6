import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TextScanner } from '../../src/eval/text-scan.js';

/** Every (literal, end) occurrence, found the slow way. */
function naive(literals: readonly string[], text: string, ignoreCase = false): string[] {
  const haystack = ignoreCase ? text.replace(/[A-Z]/g, (c) => c.toLowerCase()) : text;
  const found: string[] = [];
  for (let end = 1; end <= text.length; end++)
    literals.forEach((literal, id) => {
      if (literal !== '' && haystack.slice(0, end).endsWith(literal)) found.push(`${id}@${end}`);
    });
  return found.sort();
}

function scanned(literals: readonly string[], text: string, ignoreCase = false): string[] {
  const scanner = new TextScanner(ignoreCase);
  for (const literal of literals) scanner.add(literal);
  scanner.build();
  const found: string[] = [];
  scanner.scan(text, (id, end) => found.push(`${id}@${end}`));
  return found.sort();
}

describe('TextScanner (Aho–Corasick)', () => {
  it('finds overlapping and nested literals, with where each ends', () => {
    expect(scanned(['he', 'she', 'his', 'hers'], 'ushers')).toEqual(['0@4', '1@4', '3@6']);
    expect(scanned(['a', 'aa'], 'aaa')).toEqual(['0@1', '0@2', '0@3', '1@2', '1@3']);
  });

  it('ignores ASCII case of the text for lower-case literals when asked', () => {
    expect(scanned(['union select'], 'x UNION Select y', true)).toEqual(['0@14']);
    expect(scanned(['union select'], 'x UNION Select y')).toEqual([]);
    // Bytes above ASCII keep their case: É (0xC9) is not é (0xE9).
    expect(scanned(['\xe9t\xe9'], '\xc9T\xc9', true)).toEqual([]);
  });

  it('says whether any literal occurs, stopping at the first', () => {
    const scanner = new TextScanner(true);
    for (const phrase of ['/etc/passwd', 'boot.ini']) scanner.add(phrase);
    scanner.build();
    expect(scanner.findsAny('GET /ETC/PASSWD')).toBe(true);
    expect(scanner.findsAny('c:\\BOOT.INI')).toBe(true);
    expect(scanner.findsAny('/etc/password-reset')).toBe(false);
    expect(scanner.findsAny('')).toBe(false);
  });

  it('agrees with a naive search (property: random literals × random texts)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'B', 'c', '\xff', '\x00'), maxLength: 30 });
    const literals = fc.array(
      fc.string({ unit: fc.constantFrom('a', 'b', 'c', '\xff'), minLength: 1, maxLength: 4 }),
      {
        minLength: 1,
        maxLength: 8,
      },
    );
    fc.assert(
      fc.property(literals, text, fc.boolean(), (list, input, ignoreCase) => {
        expect(scanned(list, input, ignoreCase)).toEqual(naive(list, input, ignoreCase));
      }),
      { numRuns: 500 },
    );
  });

  // The automaton is worked out as scans reach its states: one scanner over several texts must give each
  // text's answer, whatever the earlier texts worked out.
  it('agrees with a naive search text after text on one scanner (property)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'c', '\xff'), maxLength: 24 });
    const literals = fc.array(
      fc.string({ unit: fc.constantFrom('a', 'b', 'c'), minLength: 1, maxLength: 5 }),
      {
        minLength: 1,
        maxLength: 12,
      },
    );
    fc.assert(
      fc.property(
        literals,
        fc.array(text, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (list, inputs, ignoreCase) => {
          const scanner = new TextScanner(ignoreCase);
          for (const literal of list) scanner.add(literal);
          scanner.build();
          for (const input of inputs) {
            const expected = naive(list, input, ignoreCase);
            expect(scanner.findsAny(input)).toBe(expected.length > 0);
            const found: string[] = [];
            scanner.scan(input, (id, end) => found.push(`${id}@${end}`));
            expect(found.sort()).toEqual(expected);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('takes literals tens of thousands of bytes long', () => {
    const long = 'ab'.repeat(20_000);
    const text = `x${long}ab`;
    expect(scanned([long, 'ba'], text)).toEqual(naive([long, 'ba'], text).slice(0).sort());
  });
});
