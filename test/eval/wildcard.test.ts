import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchWildcard } from '../../src/eval/wildcard.js';
import { parseWildcard, type WildcardPart } from '../../src/lang/wildcard.js';

/** Parses a pattern that must be valid. */
function parts(pattern: string): WildcardPart[] {
  const parsed = parseWildcard(pattern);
  if (!parsed.ok) throw new Error(parsed.message.text);
  return parsed.parts;
}

const matches = (pattern: string, value: string, caseSensitive = false) =>
  matchWildcard(parts(pattern), value, caseSensitive);

describe('matchWildcard', () => {
  it('follows the documentation examples', () => {
    const pattern = 'https://example.com/a/*';
    expect(matches(pattern, 'https://example.com/a/')).toBe(true);
    expect(matches(pattern, 'https://example.com/a/page.html')).toBe(true);
    expect(matches(pattern, 'https://example.com/a/sub/folder/?name=value')).toBe(true);
    expect(matches(pattern, 'https://example.com/ab/')).toBe(false);
    expect(matches(pattern, 'https://sub.example.com/a/')).toBe(false);

    const page = '*.example.com/*/page.html';
    expect(matches(page, 'https://www.example.com/a/page.html')).toBe(true);
    expect(matches(page, 'https://example.com/a/page.html')).toBe(false);
    expect(matches(page, 'https://www.example.com/a/page.html?x=1')).toBe(false);
  });

  it('matches the whole value; * matches any run, including none', () => {
    expect(matches('', '')).toBe(true);
    expect(matches('', 'a')).toBe(false);
    expect(matches('*', '')).toBe(true);
    expect(matches('*', 'anything at all')).toBe(true);
    expect(matches('a*', 'a')).toBe(true);
    expect(matches('a*a', 'a')).toBe(false);
    expect(matches('a*a', 'aa')).toBe(true);
    expect(matches('*ab*ab*', 'abab')).toBe(true);
    expect(matches('*ab*ab*', 'aba')).toBe(false);
    expect(matches('a*b*c', 'a-c-b-c')).toBe(true);
    expect(matches('/foo', '/foo/bar')).toBe(false);
  });

  it('treats ? and escaped stars literally', () => {
    expect(matches('/search?q=*', '/search?q=cats')).toBe(true);
    expect(matches('/search?q=*', '/searchXq=cats')).toBe(false);
    expect(matches('a\\*b', 'a*b')).toBe(true);
    expect(matches('a\\*b', 'axb')).toBe(false);
    expect(matches('C:\\\\*', 'C:\\Windows')).toBe(true);
  });

  it('folds ASCII case only, and only for wildcard (not strict wildcard)', () => {
    expect(matches('*.EXAMPLE.com', 'www.example.COM')).toBe(true);
    expect(matches('*.EXAMPLE.com', 'www.example.COM', true)).toBe(false);
    expect(matches('*.example.com', 'www.example.com', true)).toBe(true);
    // É and é as UTF-8 bytes differ in a byte that ASCII folding leaves alone.
    expect(matches('caf\xc3\xa9', 'caf\xc3\x89')).toBe(false);
    expect(matches('CAF\xc3\xa9', 'caf\xc3\xa9')).toBe(true);
  });

  it('agrees with a regular expression built from the parts', () => {
    const symbol = fc.constantFrom('a', 'A', 'b', '*', '\\*', '\\\\', '?', '.', '\xe9', '\xc9');
    const pattern = fc
      .array(symbol, { maxLength: 8 })
      .map((symbols) => symbols.join(''))
      .filter((p) => parseWildcard(p).ok);
    const text = fc.array(fc.constantFrom('a', 'A', 'b', 'B', '*', '\\', '?', '.', '\xe9', '\xc9'), {
      maxLength: 10,
    });
    fc.assert(
      fc.property(
        pattern,
        fc.boolean(),
        text,
        fc.array(text, { maxLength: 8 }),
        (p, caseSensitive, other, fills) => {
          const wildcard = parts(p);
          // Values both random and built from the pattern, so that matches are common.
          let fill = 0;
          const built = wildcard
            .map((part) => (part.kind === 'star' ? (fills[fill++] ?? []).join('') : part.bytes))
            .join('');
          for (const value of [other.join(''), built]) {
            expect(matchWildcard(wildcard, value, caseSensitive)).toBe(
              referenceMatch(wildcard, value, caseSensitive),
            );
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});

/** An independent reading: an anchored regex, with ASCII-only folding done by hand on both sides. */
function referenceMatch(wildcard: WildcardPart[], value: string, caseSensitive: boolean): boolean {
  const fold = (s: string) => (caseSensitive ? s : s.replace(/[A-Z]/g, (c) => c.toLowerCase()));
  const source = wildcard
    .map((part) =>
      part.kind === 'star' ? '[\\s\\S]*' : fold(part.bytes).replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${source}$`).test(fold(value));
}
