import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Expression } from '../../src/lang/ast.js';
import { type FormatOptions, formatExpression } from '../../src/lang/format.js';
import { parse } from '../../src/lang/parse.js';
import { anyExpression, stripSpans } from './arbitraries.js';

const RUNS = 300;

/** Parses `source`, failing with the source text and the diagnostics if it does not parse cleanly. */
function reparse(source: string): Expression {
  const result = parse(source);
  expect(result.diagnostics, source).toEqual([]);
  expect(result.ast, source).toBeDefined();
  return result.ast as Expression;
}

describe.each<FormatOptions['operators']>(['words', 'symbols'])('formatExpression (%s)', (operators) => {
  it('prints text that parses back to the same tree', () => {
    fc.assert(
      fc.property(anyExpression, (ast) => {
        const source = formatExpression(ast, { operators });
        expect(stripSpans(reparse(source)), source).toEqual(stripSpans(ast));
      }),
      { numRuns: RUNS },
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(anyExpression, (ast) => {
        const source = formatExpression(ast, { operators });
        expect(formatExpression(reparse(source), { operators })).toBe(source);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('hexadecimal arguments', () => {
  it('reads a hexadecimal integer argument as a literal, not a name', () => {
    const ast = reparse('f(0x1f)');
    expect(stripSpans(ast)).toEqual({
      kind: 'predicate',
      value: { kind: 'call', name: 'f', args: [{ kind: 'bare', text: '0x1f' }] },
    });
  });
});
