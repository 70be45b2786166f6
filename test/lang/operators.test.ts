import { describe, expect, it } from 'vitest';
import type { Expression, LogicalExpression } from '../../src/lang/ast.js';
import { formatExpression } from '../../src/lang/format.js';
import { tokenize } from '../../src/lang/lexer.js';
import {
  type ComparableType,
  comparisonOperator,
  comparisonOperatorNames,
  LOGICAL_OPERATORS,
  LOGICAL_PRECEDENCE,
  type LogicalOperator,
  matchComparison,
  matchLogical,
  type RhsKind,
  spellingsOf,
} from '../../src/lang/operators.js';
import { parse } from '../../src/lang/parse.js';
import * as T from '../../src/lang/tokens.js';

// The operator table is read by the lexer, the parser and the formatter: every entry, whatever it is, must
// come out of all three as what it says.

/** A right-hand side of each kind, as source text, and the node kind the parser makes of it. */
const RHS: Record<RhsKind, { text: string; node: string; token: unknown }> = {
  value: { text: '1', node: 'bare', token: T.ValueOp },
  regex: { text: '"a"', node: 'regex', token: T.PatternOp },
  wildcard: { text: '"a"', node: 'string', token: T.PatternOp },
  set: { text: '{1}', node: 'set', token: T.In },
};

const logicalSpellings: string[] = LOGICAL_OPERATORS.flatMap(({ op, symbol }) => [op, symbol]);
const allSpellings = [...comparisonOperatorNames.flatMap(spellingsOf), ...logicalSpellings];

describe('every comparison operator of the table', () => {
  for (const op of comparisonOperatorNames) {
    const entry = comparisonOperator(op);
    const rhs = RHS[entry.rhs];
    for (const spelling of spellingsOf(op)) {
      it(`${op}: \`${spelling}\` lexes, parses and formats back`, () => {
        const source = `x ${spelling} ${rhs.text}`;
        const operator = tokenize(source).tokens[1];
        expect(operator?.tokenType).toBe(rhs.token);
        expect(operator?.payload).toBe(op);
        const { ast, diagnostics } = parse(source);
        expect(diagnostics).toEqual([]);
        expect(ast).toMatchObject({ kind: 'comparison', op, rhs: { kind: rhs.node } });
        const tree = ast as Expression;
        expect(formatExpression(tree)).toBe(`x ${op} ${rhs.text}`);
        expect(formatExpression(tree, { operators: 'symbols' })).toBe(`x ${entry.symbol ?? op} ${rhs.text}`);
      });
    }
  }
});

describe('spellings', () => {
  it('are distinct and have no white space at their ends', () => {
    expect(new Set(allSpellings).size).toBe(allSpellings.length);
    for (const spelling of allSpellings) expect(spelling).toBe(spelling.trim());
  });

  it('match by prefix, the longest first: a spelling is not read as a shorter one it starts with', () => {
    let pairs = 0;
    for (const longer of allSpellings)
      for (const shorter of allSpellings) {
        if (longer === shorter || !longer.startsWith(shorter)) continue;
        pairs++;
        const asComparison = matchComparison(`${longer} x`, 0);
        // A logical spelling ends the comparison search: `a && b` is no `&`.
        expect(asComparison?.text).toBe(logicalSpellings.includes(longer) ? undefined : longer);
      }
    expect(pairs).toBeGreaterThanOrEqual(3); // `<` in `<=`, `>` in `>=`, `&` in `&&`
  });

  it('need no word boundary, as in the reference engine', () => {
    for (const op of comparisonOperatorNames)
      for (const spelling of spellingsOf(op)) expect(matchComparison(`${spelling}z`, 0)?.op).toBe(op);
    for (const { op, symbol } of LOGICAL_OPERATORS) {
      expect(matchLogical(`${op}z`, 0)?.op).toBe(op);
      expect(matchLogical(`${symbol}z`, 0)?.op).toBe(op);
    }
    expect(matchComparison('a', 0)).toBeUndefined();
    expect(matchLogical('&', 0)).toBeUndefined();
  });
});

describe('logical operators', () => {
  const pred = (name: string): Expression => ({ kind: 'predicate', value: { kind: 'field', name } }) as never;
  const shape = (node: Expression): unknown =>
    node.kind === 'logical'
      ? { [node.op]: (node as LogicalExpression).operands.map(shape) }
      : node.kind === 'predicate' && node.value.kind === 'field'
        ? node.value.name
        : node.kind;

  for (const outer of LOGICAL_OPERATORS)
    for (const inner of LOGICAL_OPERATORS) {
      const [p, q] = [outer.op, inner.op] as [LogicalOperator, LogicalOperator];
      it(`${p} then ${q}: bound by the table's precedence, and formatted back`, () => {
        for (const [first, second] of [
          [p, q],
          [outer.symbol, inner.symbol],
        ]) {
          const source = `a ${first} b ${second} c`;
          const { ast } = parse(source);
          const expected =
            p === q
              ? { [p]: ['a', 'b', 'c'] }
              : LOGICAL_PRECEDENCE[p] > LOGICAL_PRECEDENCE[q]
                ? { [q]: [{ [p]: ['a', 'b'] }, 'c'] }
                : { [p]: ['a', { [q]: ['b', 'c'] }] };
          expect(shape(ast as Expression)).toEqual(expected);
          expect(formatExpression(ast as Expression)).toBe(`a ${p} b ${q} c`);
          expect(formatExpression(ast as Expression, { operators: 'symbols' })).toBe(
            `a ${outer.symbol} b ${inner.symbol} c`,
          );
        }
        // A group the precedence would not make keeps its parentheses.
        const grouped: Expression = {
          kind: 'logical',
          op: p,
          operands: [pred('a'), { kind: 'logical', op: q, operands: [pred('b'), pred('c')] } as never],
        } as never;
        const text = formatExpression(grouped);
        expect(shape(parse(text).ast as Expression)).toEqual(shape(grouped));
      });
    }
});

describe('the table', () => {
  const types: ComparableType[] = ['Bytes', 'Int', 'Ip'];

  it('gives every one-value operator a meaning for each type it accepts, and for no other', () => {
    for (const op of comparisonOperatorNames) {
      const entry = comparisonOperator(op);
      expect(entry.types.length, op).toBeGreaterThan(0);
      if (entry.rhs !== 'value') continue;
      // A relation means something for every comparable type; a test only for the types it lists.
      if ('relation' in entry) expect([...entry.types].sort(), op).toEqual([...types].sort());
      else expect(Object.keys(entry.test).sort(), op).toEqual([...entry.types].sort());
    }
  });
});
