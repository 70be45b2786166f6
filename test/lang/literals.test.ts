import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanQuotedString, toBinary } from '../../src/lang/literals.js';

/** A string's content written as an expression writes it: `\` and `"` escaped. */
const quoted = (content: string): string => `"${content.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

describe('scanQuotedString', () => {
  it('reads back any content, with escapes or without, and ends after the closing quote', () => {
    // Backslashes and quotes are frequent in the generated content, so that both the plain run (no escape)
    // and the escape-by-escape reading are exercised.
    const content = fc.string({
      unit: fc.oneof(
        fc.constantFrom('\\', '"', 'a', '/', 'é', '😀'),
        fc.string({ minLength: 1, maxLength: 1 }),
      ),
      maxLength: 20,
    });
    fc.assert(
      fc.property(content, fc.constantFrom('', ' and x eq "y"', ' "'), (text, tail) => {
        const literal = quoted(text);
        const source = `${literal}${tail}`;
        expect(scanQuotedString(source, 0, source.length)).toEqual({
          ok: true,
          value: toBinary(text),
          end: literal.length,
        });
      }),
    );
  });

  it('does not read past the end it is given, nor take a quote after it as the closing one', () => {
    const source = '"abc" "';
    expect(scanQuotedString(source, 6, source.length)).toMatchObject({ ok: false });
    expect(scanQuotedString('"abc"', 0, 3)).toMatchObject({ ok: false });
  });
});
