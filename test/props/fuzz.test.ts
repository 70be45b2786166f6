import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/lang/diagnostics.js';
import { formatExpression } from '../../src/lang/format.js';
import { parse } from '../../src/lang/parse.js';
import { lexerPieces, stripSpans } from './arbitraries.js';

const workload = JSON.parse(readFileSync(new URL('../../bench/workload.json', import.meta.url), 'utf8'));

/** Valid expressions to mutate: the benchmark workload plus shapes that exercise every token kind. */
const seeds: string[] = [
  ...workload.expressions.map((e: { expr: string }) => e.expr).filter((e: string) => e.length < 2000),
  'not (ssl or tcp.dstport in {80 443 8000..8080}) && ip.src in $cf.open_proxies',
  'http.request.headers["x-a"][0] ~ r#"^a"b"# xor lower(http.host) strict wildcard "*.EXAMPLE.com"',
  'all(http.request.headers.names[*] != "x") or len(http.request.body.raw) ge 0x10',
  'f("a\\x41\\101", 10.0.0.1, ab:cd, (a and b), not c) & 3 || http.host eq 01:02-03.04',
];

/** Characters that matter to the lexer, so that random text reaches deep into it. */
const alphabet = fc.constantFrom(...lexerPieces, 'eq', 'in {', 'matches ', 'é', '😀');

function checkNeverThrows(source: string): void {
  const result = parse(source);
  if (result.ast) {
    expect(result.diagnostics).toEqual([]);
    return;
  }
  expect(result.diagnostics).toHaveLength(1);
  const [d] = result.diagnostics;
  if (!d) return;
  expect(d.span.start).toBeGreaterThanOrEqual(0);
  expect(d.span.start).toBeLessThanOrEqual(source.length);
  expect(d.span.end).toBeGreaterThanOrEqual(d.span.start);
  expect(d.span.line).toBeGreaterThanOrEqual(1);
  expect(d.span.column).toBeGreaterThanOrEqual(1);
  expect(d.message.length).toBeGreaterThan(0);
  expect(formatDiagnostic(source, d)).toMatch(/^Filter parsing error \(\d+:\d+\):\n/);
}

/** Whatever parses must survive formatting: same tree when re-parsed. */
function checkFormatRoundTrip(source: string): void {
  const { ast } = parse(source);
  if (!ast) return;
  const formatted = formatExpression(ast);
  const again = parse(formatted);
  expect(again.diagnostics, `format(${JSON.stringify(source)}) = ${JSON.stringify(formatted)}`).toEqual([]);
  expect(stripSpans(again.ast)).toEqual(stripSpans(ast));
}

describe('parser fuzzing', () => {
  it('never throws on random text of any characters', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), checkNeverThrows), {
      numRuns: 2000,
    });
  });

  it('never throws on random sequences of lexically significant pieces', () => {
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 60 }), (pieces) => {
        const source = pieces.join('');
        checkNeverThrows(source);
        checkFormatRoundTrip(source);
      }),
      { numRuns: 3000 },
    );
  });

  it('never throws on mutations of valid expressions, and keeps what still parses formattable', () => {
    const mutation = fc.record({
      seed: fc.constantFrom(...seeds),
      at: fc.nat(),
      length: fc.nat({ max: 8 }),
      insert: fc.string({ unit: alphabet, maxLength: 4 }),
    });
    fc.assert(
      fc.property(mutation, ({ seed, at, length, insert }) => {
        const start = at % (seed.length + 1);
        const source = seed.slice(0, start) + insert + seed.slice(start + length);
        checkNeverThrows(source);
        checkFormatRoundTrip(source);
      }),
      { numRuns: 3000 },
    );
  });
});
