// Errors about expressions stay small whatever the size of the expression (docs/api.md §3): an expression
// over the length limit is refused with its length and the limit, without repeating it; every code frame
// shows at most FRAME_WIDTH characters of its line, around the caret.
import { describe, expect, it } from 'vitest';
import { type Diagnostic, FRAME_WIDTH, formatDiagnostic } from '../../src/lang/diagnostics.js';
import { freshHarnessPerTest, type Harness, ZONES, zonePath } from './harness.js';

let h: Harness;
freshHarnessPerTest((fresh) => {
  h = fresh;
});

/** 3 MB of expression: under the 8 MiB body limit, 750 times the length limit. */
const huge = `http.host eq "${'a'.repeat(3_000_000)}"`;
const MAX_ERROR_BYTES = 10 * 1024;

describe('an expression over the length limit', () => {
  const calls: [string, string, unknown][] = [
    ['a filter', zonePath(ZONES.enterprise, '/filters'), [{ expression: huge }]],
    ['validate-expr', '/client/v4/filters/validate-expr', { expression: huge }],
    [
      'an inline filter of a firewall rule',
      zonePath(ZONES.enterprise, '/firewall/rules'),
      [{ action: 'block', filter: { expression: huge } }],
    ],
    [
      'a ruleset rule',
      zonePath(ZONES.enterprise, '/rulesets'),
      {
        name: 'custom',
        kind: 'zone',
        phase: 'http_request_firewall_custom',
        rules: [{ action: 'block', expression: huge }],
      },
    ],
  ];
  for (const [what, url, payload] of calls) {
    it(`is refused in a small error that says its length and the limit: ${what}`, async () => {
      const response = await h.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${'T'.repeat(40)}`, 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
      expect(response.statusCode).toBe(400);
      expect(response.body.length).toBeLessThan(MAX_ERROR_BYTES);
      const message = response.json().errors[0].message as string;
      expect(message).toContain(`expression is too long: ${huge.length} characters, the limit is 4096`);
      expect(message).not.toContain('^');
    });
  }
});

describe('code frames', () => {
  // One line just under the limit, with the error at its end.
  const hosts = Array.from({ length: 250 }, (_, i) => `"h${i}.example"`).join(' ');
  const long = `http.host in {${hosts}} and bogus`;

  it('show the part of a long line around the caret, with … where it is cut, carets in place', async () => {
    expect(long.length).toBeGreaterThan(FRAME_WIDTH * 10);
    expect(long.length).toBeLessThan(4096);
    const { status, body } = await h.call({
      method: 'POST',
      url: zonePath(ZONES.enterprise, '/filters'),
      payload: [{ expression: long }],
    });
    expect(status).toBe(400);
    const [header, line = '', carets = ''] = String(body.errors[0]?.message).split('\n');
    expect(header).toBe(`Filter parsing error (1:${long.indexOf('bogus') + 1}):`);
    expect(line.startsWith('…')).toBe(true);
    expect(line.endsWith('and bogus')).toBe(true);
    expect(line.length).toBe(FRAME_WIDTH + 1);
    const caret = carets.indexOf('^');
    expect(line.slice(caret, caret + 5)).toBe('bogus');
    expect(carets.slice(caret)).toBe('^^^^^ unknown identifier');
  });

  it("cut validate-expr's one-line rendering the same way", async () => {
    const { status, body } = await h.call({
      method: 'POST',
      url: '/client/v4/filters/validate-expr',
      payload: { expression: long },
    });
    expect(status).toBe(400);
    const [header, line = '', carets = ''] = String(body.errors[0]?.message).split('\n');
    expect(header).toBe('Filter parsing error:');
    expect(line.startsWith('`…')).toBe(true);
    expect(line.endsWith('and bogus`')).toBe(true);
    // Cloudflare's carets, one column right of the text (the backtick is the other), kept.
    const caret = carets.indexOf('^');
    expect(line.slice(caret - 1, caret + 4)).toBe('bogus');
  });

  it('are cut on both sides in the middle of a line, never inside a surrogate pair', () => {
    const emoji = '😀'.repeat(300);
    const source = `http.host eq "${emoji}" and bogus and http.host eq "${emoji}"`;
    const start = source.indexOf('bogus');
    const diagnostic: Diagnostic = {
      severity: 'error',
      code: 'unknown-identifier',
      message: 'unknown identifier',
      span: { start, end: start + 5, line: 1, column: start + 1 },
    };
    for (const width of [FRAME_WIDTH, FRAME_WIDTH + 1, 51]) {
      const [, line = '', carets = ''] = formatDiagnostic(source, diagnostic, { maxWidth: width }).split(
        '\n',
      );
      expect(line.startsWith('…') && line.endsWith('…')).toBe(true);
      expect(line.length).toBeLessThanOrEqual(width + 2);
      expect(line).not.toMatch(/\p{Cs}/u); // no lone surrogate
      expect(carets).toMatch(/\^{5} unknown identifier$/);
    }
    // Without the option (or on a line that fits), Cloudflare's text as before.
    expect(formatDiagnostic(source, diagnostic).split('\n')[1]).toBe(source);
  });
});
