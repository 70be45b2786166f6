import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchWildcard, parseWildcard, type WildcardPart } from '../../src/check/wildcard.js';

/** Parses a pattern that must be valid. */
function parts(pattern: string): WildcardPart[] {
  const parsed = parseWildcard(pattern);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.parts;
}

const matches = (pattern: string, value: string, caseSensitive = false) =>
  matchWildcard(parts(pattern), value, caseSensitive);

describe('parseWildcard', () => {
  it('splits a pattern into literal runs and stars', () => {
    expect(parts('*.example.com/*')).toEqual([
      { kind: 'star' },
      { kind: 'literal', bytes: '.example.com/' },
      { kind: 'star' },
    ]);
    expect(parts('')).toEqual([]);
  });

  it('reads \\* as a literal star and \\\\ as a literal backslash; ? is literal', () => {
    expect(parts('a\\*b\\\\c?')).toEqual([{ kind: 'literal', bytes: 'a*b\\c?' }]);
    expect(parts('*\\**')).toEqual([{ kind: 'star' }, { kind: 'literal', bytes: '*' }, { kind: 'star' }]);
  });

  it('reports other escapes at the offset of their backslash', () => {
    expect(parseWildcard('*foo\\bar*')).toEqual({
      ok: false,
      message: 'invalid wildcard: wildcard syntax error at position 4: invalid escape sequence',
    });
    // `?` is not a metasymbol, so it cannot be escaped either.
    expect(parseWildcard('\\?')).toEqual({
      ok: false,
      message: 'invalid wildcard: wildcard syntax error at position 0: invalid escape sequence',
    });
  });

  it('reports a trailing lone backslash', () => {
    expect(parseWildcard('abc\\')).toEqual({
      ok: false,
      message:
        'invalid wildcard: wildcard syntax error at position 3: incomplete escape sequence at the end of the wildcard',
    });
    expect(parseWildcard('a\\\\\\')).toMatchObject({
      ok: false,
      message: expect.stringContaining('position 3'),
    });
  });

  it('rejects two unescaped stars in a row', () => {
    expect(parseWildcard('*foo**bar*')).toEqual({ ok: false, message: 'wildcard contains a double star' });
    expect(parseWildcard('***')).toEqual({ ok: false, message: 'wildcard contains a double star' });
  });

  it('enforces a star limit only when one is given, before the double-star check', () => {
    expect(parseWildcard('*_*_*', 3).ok).toBe(true);
    expect(parseWildcard('*_*_*_*', 3)).toEqual({
      ok: false,
      message: 'wildcard has 4 star metacharacters, but the limit is 3',
    });
    expect(parseWildcard('****', 1)).toEqual({
      ok: false,
      message: 'wildcard has 4 star metacharacters, but the limit is 1',
    });
    expect(parseWildcard('\\*\\*', 1).ok).toBe(true);
    expect(parseWildcard('*a'.repeat(5000)).ok).toBe(true);
  });

  it('reports a bad escape before anything else', () => {
    expect(parseWildcard('**\\x', 0)).toMatchObject({ message: expect.stringContaining('position 2') });
  });
});

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
