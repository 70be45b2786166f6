import { describe, expect, it } from 'vitest';
import { wordAlternation } from '../../../src/engine/managed/owasp/rules/alternation.js';

describe('wordAlternation', () => {
  it('factors common prefixes, words that are prefixes of others included', () => {
    expect(wordAlternation(['base64_decode', 'base64_encode', 'bzopen'])).toBe(
      'b(?:ase64_(?:decode|encode)|zopen)',
    );
    expect(wordAlternation(['ftp', 'ftps'])).toBe('ftps?');
    expect(wordAlternation(['ssh', 'ssh2', 'ssh2.exec'])).toBe('ssh(?:2(?:\\.exec)?)?');
  });

  it('matches exactly the words of the list, metacharacters taken literally', () => {
    const words = ['a.b', 'a+b', 'ab', 'abc', 'abd', 'x', 'x(y)', 'svn+ssh'];
    const regex = new RegExp(`^(?:${wordAlternation(words)})$`);
    for (const word of words) expect(regex.test(word), word).toBe(true);
    for (const other of ['a', 'axb', 'aab', 'abcd', 'ab+', 'xy', 'x(y', 'svnssh', ''])
      expect(regex.test(other), other).toBe(false);
  });
});
