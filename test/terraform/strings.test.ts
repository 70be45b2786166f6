// biome-ignore-all lint/suspicious/noTemplateCurlyInString: HCL template sequences in plain strings are what these tests are about
// HCL string literals read and written by src/terraform/strings.ts: values round-trip, offsets map both ways,
// and what is read agrees with HashiCorp's own parser.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeHeredoc,
  decodeQuoted,
  HclStringError,
  heredocBody,
  quoted,
  quotedBody,
} from '../../src/terraform/strings.js';
import { readHcl } from '../cli/export/read-hcl.js';

/** Text with what HCL strings make interesting: quotes, backslashes, template sequences, controls, non-ASCII. */
const tricky = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '"',
        '\\',
        '$',
        '%',
        '{',
        '}',
        '${',
        '%{',
        '$${',
        '\n',
        '\t',
        '\r',
        'é',
        '😀',
        '\u0000',
        ' ',
      ),
      fc.string({ maxLength: 4 }),
      fc.string({ unit: 'binary', maxLength: 3 }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

/** The raw text of a quoted string's content, built from the pieces HCL reads. */
const rawQuoted = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '\\n',
        '\\r',
        '\\t',
        '\\"',
        '\\\\',
        '\\u00e9',
        '\\u0041',
        '\\U0001F600',
        '$${',
        '%%{',
        '$$',
        '%',
      ),
      fc.constantFrom('$', '$a', '%b', '{', '}', 'a', 'http.host eq ', '日本', ' '),
    ),
    { maxLength: 10 },
  )
  .map((parts) => parts.join(''));

describe('quoted strings', () => {
  it('decode what they encode, for any text', () => {
    fc.assert(
      fc.property(tricky, (value) => {
        const body = quotedBody(value);
        expect(decodeQuoted(body).value).toBe(value);
      }),
      { numRuns: 2000 },
    );
  });

  it('map offsets both ways: each code unit of the value to where it is written, and back', () => {
    fc.assert(
      fc.property(tricky, fc.string({ maxLength: 5 }), (value, before) => {
        // The literal sits inside a longer text, as in a file.
        const text = `${before}"${quotedBody(value)}" # after`;
        const from = before.length + 1;
        const to = text.length - '" # after'.length;
        const { value: decoded, map } = decodeQuoted(text, from, to);
        expect(decoded).toBe(value);
        let previous = from - 1;
        for (let i = 0; i <= value.length; i++) {
          const raw = map.toRaw(i);
          expect(raw).toBeGreaterThan(previous); // increasing, one-to-one
          expect(map.toValue(raw)).toBe(i);
          previous = raw;
        }
        expect(map.toRaw(value.length)).toBe(to);
        // Every raw offset inside the literal maps to the code unit whose writing covers it.
        for (let raw = from; raw < to; raw++) {
          const i = map.toValue(raw);
          expect(map.toRaw(i)).toBeLessThanOrEqual(raw);
          expect(map.toRaw(i + 1)).toBeGreaterThan(raw);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("read raw literals as HashiCorp's HCL parser reads them", async () => {
    // Only literals: a `${` or `%{` that the pieces happen to form is an interpolation, not a literal.
    const literal = (raw: string) => {
      try {
        decodeQuoted(raw);
        return true;
      } catch {
        return false;
      }
    };
    const samples = fc.sample(rawQuoted, { numRuns: 300, seed: 25 }).filter(literal);
    expect(samples.length).toBeGreaterThan(100);
    const document = samples.map((raw, i) => `s${i} = "${raw}"`).join('\n');
    const values = (await readHcl(`${document}\n`)) as Record<string, string>;
    for (const [i, raw] of samples.entries()) expect(decodeQuoted(raw).value, raw).toBe(values[`s${i}`]);
  });

  it('point at the escape that HCL refuses', () => {
    const text = 'x = "ip.src eq 1 and \\d"';
    const error = (() => {
      try {
        decodeQuoted(text, 5, text.length - 1);
      } catch (caught) {
        return caught as HclStringError;
      }
    })();
    expect(error).toBeInstanceOf(HclStringError);
    expect(error?.offset).toBe(text.indexOf('\\d'));
    expect(error?.message).toMatch(/invalid escape sequence \\d/);
    expect(() => decodeQuoted('\\u12')).toThrowError(/takes 4 hexadecimal digits/);
    expect(() => decodeQuoted('a ${var.x}')).toThrowError(/template sequence/);
  });

  it('undo the template escapes left to right, as HCL scans them', () => {
    expect(decodeQuoted('$${a} %%{b} $$ %% $').value).toBe('${a} %{b} $$ %% $');
    expect(decodeQuoted('$$${').value).toBe('$${');
    expect(quoted('$${')).toBe('"$$${"');
  });
});

describe('heredocs', () => {
  // Lines that do not start with whitespace: the indentation is then exactly what `<<-` adds.
  const lines = fc
    .array(
      fc.stringMatching(/^[a-z "${}%\\\t().]{0,12}$/).filter((line) => !/EOT|^[ \t]/.test(line)),
      { minLength: 1, maxLength: 6 },
    )
    .filter((parts) => parts.some((line) => line.trim() !== ''));

  it('decode what they encode, indented or not, and map offsets both ways', () => {
    fc.assert(
      fc.property(lines, fc.constantFrom('', '  ', '\t', '    '), fc.boolean(), (parts, indent, flush) => {
        const value = `${parts.join('\n')}\n`;
        const body = heredocBody(value, flush ? indent : '');
        const text = `x = <<${flush ? '-' : ''}EOT\n${body}EOT\n`;
        const from = text.indexOf('\n') + 1;
        const to = text.length - 'EOT\n'.length;
        const decoded = decodeHeredoc(text, from, to, flush);
        expect(decoded.value).toBe(value);
        for (let i = 0; i <= value.length; i++) expect(decoded.map.toValue(decoded.map.toRaw(i))).toBe(i);
        // Each code unit is where the file has it (the `{` of a doubled template sequence aside).
        for (let i = 0; i < value.length; i++) {
          const char = value[i];
          if (char !== '{') expect(text[decoded.map.toRaw(i)]).toBe(char);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('take the smallest indentation off every line of <<- (blank lines aside, a tab counts one)', () => {
    const text = '    Foo\n      Bar\n\n    Baz\n';
    expect(decodeHeredoc(text, 0, text.length, true).value).toBe('Foo\n  Bar\n\nBaz\n');
    expect(decodeHeredoc(text, 0, text.length, false).value).toBe(text);
    const tabs = '\tFoo\n  Bar\n';
    expect(decodeHeredoc(tabs, 0, tabs.length, true).value).toBe('Foo\n Bar\n');
    expect(decodeHeredoc(text, 0, text.length, true).indent).toBe('    ');
  });

  it("read as HashiCorp's HCL parser reads them", async () => {
    const text =
      'a = <<-EOT\n    x $${y} %%{z}\n      and "q" \\n\n    EOT\nb = <<EOT\n  keep  \n\nEOT\nc = <<-EOT\n\tt\n  u\n  EOT\n';
    const values = (await readHcl(text)) as Record<string, string>;
    const read = (name: string, indented: boolean) => {
      const start = text.indexOf('\n', text.indexOf(`${name} = <<`)) + 1;
      const end = text.indexOf('EOT\n', start);
      const lineStart = text.lastIndexOf('\n', end - 1) + 1;
      return decodeHeredoc(text, start, lineStart, indented).value;
    };
    expect(read('a', true)).toBe(values.a);
    expect(read('b', false)).toBe(values.b);
    expect(read('c', true)).toBe(values.c);
  });
});
