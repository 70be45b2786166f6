// Required bytes (src/regex/required-bytes.ts): the punctuation an index looks for when a pattern's literals
// are single letters, and the guarantee it rests on — every match holds one of them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRegexWithoutPrefilter, regexPrefilter } from '../../src/regex/compile.js';
import { requiredBytes } from '../../src/regex/required-bytes.js';
import { parsedPattern } from '../../src/regex/syntax/parser.js';

const bytesOf = (pattern: string): string | undefined =>
  requiredBytes(parsedPattern(pattern))
    ?.map((byte) => String.fromCharCode(byte))
    .join('');

describe('requiredBytes', () => {
  it('reads a command pattern whose words may hold quotes: the separators around them', () => {
    expect(bytesOf(String.raw`(?:[;|&]|\$\(|\bc["'\\]*a["'\\]*t[\s<>])`)).toBe('\t\n\v\f\r $&;<>|');
  });

  it('takes the most useful part of a sequence, and every branch of an alternation', () => {
    expect(bytesOf(String.raw`a+b;c`)).toBe(';');
    expect(bytesOf(String.raw`(?:x=|y:)`)).toBe(':=');
    expect(bytesOf(String.raw`(?i)select\s+\*`)).toBe('*');
  });

  it('gives nothing when a match may lack every byte of the set, or the set is of no use', () => {
    expect(bytesOf('abc')).toBeUndefined(); // letters: in every value
    expect(bytesOf('a;?')).toBeUndefined(); // optional
    expect(bytesOf('(?:;|b)')).toBeUndefined(); // a branch with a letter only
    expect(bytesOf('[^a]')).toBeUndefined(); // too many bytes
    expect(bytesOf('x.y')).toBeUndefined(); // any byte
    expect(bytesOf('(?u)\\s')).toBeUndefined(); // Unicode white space is more than bytes
  });

  it('holds: a value the pattern matches contains a required byte', () => {
    const patterns = [
      String.raw`(?:[;|&]|\$\(|\bc["'\\]*a["'\\]*t[\s<>])`,
      String.raw`\b(?:e["'\\]*v["'\\]*a["'\\]*l|w["'\\]*g["'\\]*e["'\\]*t)\s*[(\x60]`,
      String.raw`(?i)(?:union\s+select|sleep\s*\()`,
      String.raw`[{}]{2}|<\?`,
    ];
    // Values made of the patterns' words, quotes and punctuation, so that many of them match.
    const token = fc.constantFrom(
      ...['cat', 'c"a\'t', 'eval', 'e\\val', 'wget', 'union', 'UNION', 'select', 'sleep', 'x', '1'],
      ...[' ', '\t', ';', '|', '&', '$(', '(', ')', '{', '}', '<', '>', '?', '`', '=', '"', "'"],
    );
    const values = fc.array(token, { maxLength: 8 }).map((tokens) => tokens.join(''));
    for (const pattern of patterns) {
      const required = bytesOf(pattern);
      expect(required, pattern).toBeDefined();
      const regex = compileRegexWithoutPrefilter(pattern);
      let matched = 0;
      fc.assert(
        fc.property(values, (value) => {
          if (!regex.test(value)) return;
          matched++;
          expect([...value].some((ch) => required?.includes(ch))).toBe(true);
        }),
        { numRuns: 3000 },
      );
      // The values must have reached the interesting case.
      expect(matched, pattern).toBeGreaterThan(5);
    }
  });
});

describe('regexPrefilter for an index', () => {
  it('puts the required bytes first when the best literals are single letters', () => {
    const [first] = regexPrefilter(String.raw`\b(?:c["']*a["']*t|l["']*s)[\s;|]`).checks;
    expect(first?.needles.map((needle) => needle.text).join('')).toBe('\t\n\v\f\r ;|');
  });

  it('keeps literals that are longer than a letter', () => {
    const [first] = regexPrefilter(String.raw`(?:passwd|shadow)[;\s]`).checks;
    expect(first?.needles.map((needle) => needle.text)).toEqual(['passwd', 'shadow']);
  });
});
