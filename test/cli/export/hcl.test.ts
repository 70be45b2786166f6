// biome-ignore-all lint/suspicious/noTemplateCurlyInString: HCL template sequences in plain strings are what these tests are about
// The HCL string writer: every string reads back exactly through HashiCorp's parser.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hclString, isNfc, quoted, writeHcl } from '../../../src/cli/export/hcl.js';
import { nastyDescriptions, nastyExpressions, notNfc } from './nasty.js';
import { readHcl } from './read-hcl.js';

/** Writes each string as an attribute of one document, parses it once, and returns the values read. */
async function roundTrip(strings: readonly string[]): Promise<string[]> {
  const text = writeHcl([{ type: 'test', body: strings.map((value, i) => ({ name: `s${i}`, value })) }]);
  const body = (await readHcl(text)).test[0];
  return strings.map((_, i) => body[`s${i}`]);
}

describe('HCL strings', () => {
  it('escapes template sequences, quotes, backslashes and line breaks', () => {
    expect(quoted('${a}')).toBe('"$${a}"');
    expect(quoted('%{if}')).toBe('"%%{if}"');
    expect(quoted('$${')).toBe('"$$${"');
    expect(quoted('$$ %% $ % a$')).toBe('"$$ %% $ % a$"');
    expect(quoted('say "hi" \\')).toBe('"say \\"hi\\" \\\\"');
    expect(quoted('a\nb\r\tc')).toBe('"a\\nb\\r\\tc"');
  });

  it('shows controls and bidirectional overrides as \\u escapes, and other text as it is', () => {
    expect(quoted('\u0000\u001b\u007f\u0085\u202e')).toBe('"\\u0000\\u001b\\u007f\\u0085\\u202e"');
    expect(quoted('café 日本 😀')).toBe('"café 日本 😀"');
  });

  it('writes a heredoc only for text that ends with a line break and needs no escape but templates', () => {
    expect(hclString('a\n${b}\n')).toBe('<<EOT\na\n$${b}\nEOT');
    expect(hclString('a\nb')).toBe('"a\\nb"'); // a heredoc would add a line break
    expect(hclString('a\r\n')).toBe('"a\\r\\n"');
    expect(hclString('x\u0001\n')).toBe('"x\\u0001\\n"');
    expect(hclString('EOT\nEOT1\n')).toBe('<<EOT2\nEOT\nEOT1\nEOT2');
  });

  it('reads back every nasty expression and description byte for byte', async () => {
    const strings = [...nastyExpressions, ...nastyDescriptions];
    expect(await roundTrip(strings)).toEqual(strings);
  });

  it('reads back any mix of the characters that matter', async () => {
    const alphabet = [
      '$',
      '%',
      '{',
      '}',
      '~',
      '\\',
      '"',
      '\n',
      '\r',
      '\t',
      '\u0000',
      '\u001b',
      'é',
      '😀',
      'E',
      'O',
      'T',
      ' ',
      'x',
    ];
    const texts = fc.sample(
      fc.array(fc.constantFrom(...alphabet), { maxLength: 24 }).map((chars) => chars.join('')),
      {
        numRuns: 300,
        seed: 11,
      },
    );
    expect(await roundTrip(texts)).toEqual(texts);
  });

  it('cannot keep text that is not in NFC: HCL normalizes it (the export warns)', async () => {
    expect(isNfc(notNfc)).toBe(false);
    expect(await roundTrip([notNfc])).toEqual([notNfc.normalize('NFC')]);
  });

  it('lays blocks out as terraform fmt does', () => {
    const text = writeHcl([
      {
        type: 'resource',
        labels: ['t', 'n'],
        comments: ['a comment'],
        body: [
          { name: 'id', value: 'x' },
          { name: 'enabled', value: true },
          {
            type: 'inner',
            body: [
              { name: 'list', value: ['a', '${b}'] },
              { name: 'map', value: { kind: 'map', entries: { k: 'v' } } },
            ],
          },
          { type: 'empty', body: [] },
        ],
      },
    ]);
    expect(text).toBe(
      '# a comment\nresource "t" "n" {\n  id      = "x"\n  enabled = true\n\n  inner {\n    list = ["a", "$${b}"]\n    map  = {\n      "k" = "v"\n    }\n  }\n\n  empty {\n  }\n}\n',
    );
  });
});
