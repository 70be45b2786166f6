import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonRegion } from '../../src/lsp/regions/json-rules.js';
import { escapeJsonString, JsonStringMap } from '../../src/lsp/regions/json-string.js';

// Offsets through a JSON string's escapes, both ways, on strings written with every kind of escape.

const SHORT: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '/': '\\/',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};
const unicodeEscape = (unit: number) => `\\u${unit.toString(16).padStart(4, '0')}`;

/** A string, and one of the many raw JSON texts that write it (each code unit plain, short- or \u-escaped). */
const writtenString = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.string({ unit: 'binary', maxLength: 4 }),
        fc.constantFrom('"', '\\', '/', '\n', '\t', 'é', '😀', '\u0000'),
      ),
      fc.nat(2),
    ),
    { maxLength: 12 },
  )
  .map((parts) => {
    let value = '';
    let raw = '';
    for (const [text, style] of parts)
      for (let i = 0; i < text.length; i++) {
        const unit = text.charCodeAt(i);
        const char = text[i] as string;
        value += char;
        const mustEscape = unit < 0x20 || char === '"' || char === '\\';
        if (style === 2 || (mustEscape && !SHORT[char])) raw += unicodeEscape(unit);
        else if (style === 1 && SHORT[char]) raw += SHORT[char];
        else raw += mustEscape ? (SHORT[char] as string) : char;
      }
    return { value, raw };
  });

describe('JsonStringMap', () => {
  it('maps value offsets to raw offsets and back', () => {
    fc.assert(
      fc.property(writtenString, ({ value, raw }) => {
        expect(JSON.parse(`"${raw}"`)).toBe(value);
        const map = new JsonStringMap(raw);
        expect(map.length).toBe(value.length);
        expect(map.toRaw(value.length)).toBe(raw.length);
        for (let offset = 0; offset <= value.length; offset++) {
          const at = map.toRaw(offset);
          expect(map.toValue(at)).toBe(offset);
          // The raw text before the offset writes exactly the value before it.
          expect(JSON.parse(`"${raw.slice(0, at)}"`)).toBe(value.slice(0, offset));
        }
        for (let at = 0; at <= raw.length; at++) {
          const offset = map.toValue(at);
          // A raw offset inside an escape belongs to the code unit the escape writes.
          expect(map.toRaw(offset)).toBeLessThanOrEqual(at);
          if (offset < value.length) expect(map.toRaw(offset + 1)).toBeGreaterThan(at);
        }
      }),
    );
  });

  it('writes edits back with escapes that read as the text', () => {
    fc.assert(
      fc.property(writtenString, fc.string({ unit: 'binary' }), ({ value, raw }, replacement) => {
        const document = `{"expression": "${raw}"}`;
        const start = document.indexOf('"', 14) + 1;
        const region = jsonRegion(document, start, start + raw.length, 'filter');
        expect(region.text).toBe(value);
        const edited = `${document.slice(0, region.start)}${region.encode(replacement)}${document.slice(region.end)}`;
        expect((JSON.parse(edited) as { expression: string }).expression).toBe(replacement);
        expect(escapeJsonString(value).length).toBeGreaterThanOrEqual(value.length);
      }),
    );
  });

  it('maps the escapes of an example', () => {
    const map = new JsonStringMap('a\\"b\\u00e9c');
    expect([0, 1, 2, 3, 4, 5].map((offset) => map.toRaw(offset))).toEqual([0, 1, 3, 4, 10, 11]);
    expect([0, 1, 2, 3, 4, 5, 6, 9, 10, 11].map((at) => map.toValue(at))).toEqual([
      0, 1, 1, 2, 3, 3, 3, 3, 4, 5,
    ]);
  });
});
