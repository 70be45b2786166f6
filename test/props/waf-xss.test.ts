import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectXss } from '../../src/eval/functions/waf/xss.js';

/** Pieces that matter to the tokenizer, so that random values reach every state. */
const pieces = fc.constantFrom(
  '<',
  '>',
  '</',
  '<!',
  '<!--',
  '-->',
  '--!>',
  '<?',
  '<%',
  '%>',
  '<![CDATA[',
  ']]>',
  '=',
  '"',
  "'",
  '`',
  '/',
  ' ',
  '\t',
  '\n',
  '\0',
  '&',
  '&#',
  '&#x',
  ';',
  '&colon;',
  '\\',
  '/*',
  '*/',
  'script',
  'svg',
  'iframe',
  'img',
  'a',
  'b',
  'x:',
  'on',
  'onerror',
  'onfoo',
  'href',
  'src',
  'style',
  'srcdoc',
  'attributeName',
  'xmlns',
  'javascript:',
  'java',
  'data:',
  'image/',
  'url(',
  'expression(',
  'doctype',
  'xml',
  '[if',
  '\xa0',
  '\xff',
);

const binary = fc.string({ unit: 'binary', maxLength: 300 });
const markup = fc.array(pieces, { maxLength: 60 }).map((p) => p.join(''));

describe('detectXss properties', () => {
  it('never throws and answers a boolean, on arbitrary binary strings', () => {
    fc.assert(
      fc.property(binary, (s) => {
        expect(typeof detectXss(s)).toBe('boolean');
      }),
      { numRuns: 3000 },
    );
  });

  it('never throws on random markup-like values, nor on any Unicode text', () => {
    fc.assert(
      fc.property(fc.oneof(markup, fc.string({ unit: 'grapheme', maxLength: 100 })), (s) => {
        expect(typeof detectXss(s)).toBe('boolean');
      }),
      { numRuns: 3000 },
    );
  });

  it('is deterministic: the same value gets the same verdict, whatever was judged in between', () => {
    fc.assert(
      fc.property(fc.oneof(markup, binary), fc.oneof(markup, binary), (s, other) => {
        const first = detectXss(s);
        detectXss(other);
        expect(detectXss(`${s}`)).toBe(first);
        expect(detectXss(s.split('').join(''))).toBe(first);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps flagging an attack that follows text ending in a closed tag', () => {
    const attacks = fc.constantFrom(
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      '<a href="javascript:alert(1)">x</a>',
      '<svg onload=alert(1)>',
    );
    const text = fc.string({ unit: 'binary', maxLength: 40 }).filter((t) => !/[<>"'`=&]/.test(t));
    fc.assert(
      fc.property(text, attacks, (t, a) => {
        expect(detectXss(`${t}<b>${a}`)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
