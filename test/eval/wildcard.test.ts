import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchWildcard, wildcardMatcher, writtenWildcard } from '../../src/eval/wildcard.js';
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
          // What filters run (the function written for the pattern) and the fallbacks behind it.
          const written = writtenWildcard(wildcard, caseSensitive);
          expect(written).toBeDefined();
          const matcher = wildcardMatcher(wildcard, caseSensitive);
          for (const value of [other.join(''), built]) {
            const expected = referenceMatch(wildcard, value, caseSensitive);
            expect(matchWildcard(wildcard, value, caseSensitive)).toBe(expected);
            expect(written?.(value)).toBe(expected);
            expect(matcher(value)).toBe(expected);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('writtenWildcard', () => {
  it('leaves long literals between stars to the linear-time matchers, and long patterns unwritten', () => {
    expect(writtenWildcard(parts(`*${'a'.repeat(16)}*`), false)).toBeDefined();
    expect(writtenWildcard(parts(`*${'a'.repeat(17)}*`), false)).toBeUndefined();
    expect(writtenWildcard(parts(`${'a'.repeat(300)}*${'b'.repeat(300)}`), false)).toBeUndefined();
    // Long prefixes and suffixes are compared once, so they may be written out.
    const long = writtenWildcard(parts(`${'a'.repeat(200)}*${'b'.repeat(200)}`), true);
    expect(long?.(`${'a'.repeat(200)}xyz${'b'.repeat(200)}`)).toBe(true);
    expect(long?.(`${'a'.repeat(200)}${'b'.repeat(199)}`)).toBe(false);
    // The fallbacks answer the same.
    const value = `x${'a'.repeat(17)}y`;
    expect(wildcardMatcher(parts(`*${'A'.repeat(17)}*`), false)(value)).toBe(true);
    expect(wildcardMatcher(parts(`*${'A'.repeat(17)}*`), true)(value)).toBe(false);
  });

  it('folds ASCII letters only: never Latin-1 letters, nor the punctuation one bit away', () => {
    const at = writtenWildcard(parts('*a@*'), false);
    expect(at?.('xA@y')).toBe(true);
    expect(at?.('xa`y')).toBe(false);
    expect(writtenWildcard(parts('\xe9*'), false)?.('\xc9x')).toBe(false);
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
