import { describe, expect, it } from 'vitest';
import { parseWildcard, type WildcardPart } from '../../src/lang/wildcard.js';

/** Parses a pattern that must be valid. */
function parts(pattern: string): WildcardPart[] {
  const parsed = parseWildcard(pattern);
  if (!parsed.ok) throw new Error(parsed.message.text);
  return parsed.parts;
}

/** The reader's message for a pattern that must be invalid. */
function failure(pattern: string, starLimit?: number): string | undefined {
  const parsed = parseWildcard(pattern, starLimit);
  return parsed.ok ? undefined : parsed.message.text;
}

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
    expect(failure('*foo\\bar*')).toBe(
      'invalid wildcard: wildcard syntax error at position 4: invalid escape sequence',
    );
    // `?` is not a metasymbol, so it cannot be escaped either.
    expect(failure('\\?')).toBe(
      'invalid wildcard: wildcard syntax error at position 0: invalid escape sequence',
    );
  });

  it('reports a trailing lone backslash', () => {
    expect(failure('abc\\')).toBe(
      'invalid wildcard: wildcard syntax error at position 3: incomplete escape sequence at the end of the wildcard',
    );
    expect(failure('a\\\\\\')).toContain('position 3');
  });

  it('rejects two unescaped stars in a row', () => {
    expect(failure('*foo**bar*')).toBe('wildcard contains a double star');
    expect(failure('***')).toBe('wildcard contains a double star');
  });

  it('enforces a star limit only when one is given, before the double-star check', () => {
    expect(parseWildcard('*_*_*', 3).ok).toBe(true);
    expect(failure('*_*_*_*', 3)).toBe('wildcard has 4 star metacharacters, but the limit is 3');
    expect(failure('****', 1)).toBe('wildcard has 4 star metacharacters, but the limit is 1');
    expect(parseWildcard('\\*\\*', 1).ok).toBe(true);
    expect(parseWildcard('*a'.repeat(5000)).ok).toBe(true);
  });

  it('reports a bad escape before anything else', () => {
    expect(failure('**\\x', 0)).toContain('position 2');
  });
});
