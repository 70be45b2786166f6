import { describe, expect, it } from 'vitest';
import { validate } from '../../src/check/validate.js';
import type { ComparisonExpression, Expression } from '../../src/lang/ast.js';
import { message } from '../../src/lang/catalogue.js';
import type { LiteralPlace, ParseHooks } from '../../src/lang/hooks.js';
import { parse } from '../../src/lang/parse.js';

/** Hooks that record every call, and read a literal as the two characters at its start. */
function recordingHooks() {
  const calls: string[] = [];
  const places: { place: LiteralPlace; start: number }[] = [];
  const hooks: ParseHooks = {
    value: (value) => {
      calls.push(`value ${value.span.start}`);
      return undefined;
    },
    operator: (_lhs, op) => {
      calls.push(`operator ${op}`);
      return undefined;
    },
    literal: (place, start) => {
      calls.push(`literal ${place.kind} ${start}`);
      places.push({ place, start });
      return { value: `read@${start}`, end: start + 2 };
    },
    comparison: (comparison) => {
      calls.push(`comparison ${comparison.span.start}`);
      return undefined;
    },
  };
  return { hooks, calls, places };
}

describe('literals read by type while the text is lexed', () => {
  it('asks the literal hook once per literal, after the operator, with what the literal is compared with', () => {
    const { hooks, calls, places } = recordingHooks();
    const result = parse('x eq 0102 or y in {01 02}', { hooks });
    // The reading ends the first literal after two characters: `02` is then leftover text.
    expect(result.diagnostics[0]?.message).toBe('unrecognised input');
    expect(calls).toEqual(['value 0', 'operator eq', 'literal rhs 5', 'comparison 0']);
    expect(places[0]?.place).toMatchObject({ kind: 'rhs', op: 'eq', lhs: { kind: 'field', name: 'x' } });
  });

  it('keeps the value and the extent of the reading on the node; the text is parsed once', () => {
    const { hooks, calls } = recordingHooks();
    const result = parse('x eq 01and y in {02 03}', { hooks });
    expect(result.diagnostics).toEqual([]);
    const [first, second] = (result.ast as Extract<Expression, { kind: 'logical' }>).operands as [
      ComparisonExpression,
      ComparisonExpression,
    ];
    expect(first.rhs).toMatchObject({
      kind: 'bare',
      text: '01',
      value: 'read@5',
      span: { start: 5, end: 7 },
    });
    const set = second.rhs as Extract<ComparisonExpression['rhs'], { kind: 'set' }>;
    expect(set.items.map((item) => item.kind === 'bare' && item.value)).toEqual(['read@17', 'read@20']);
    // Every hook was called once: no second lexing or parsing of the text.
    expect(calls).toEqual([
      'value 0',
      'operator eq',
      'literal rhs 5',
      'comparison 0',
      'value 11',
      'operator in',
      'literal set-item 17',
      'literal set-item 20',
      'comparison 11',
    ]);
  });

  it('reports the problem a reading returns, at its position, with its code', () => {
    const hooks: ParseHooks = {
      literal: (_place, start) => ({
        problem: { code: 'invalid-integer', message: message('expectedDigit'), start },
      }),
    };
    const [diagnostic] = parse('x eq zz', { hooks }).diagnostics;
    expect(diagnostic).toMatchObject({ code: 'invalid-integer', message: 'expected digit' });
    expect(diagnostic?.span.start).toBe(5);
  });

  it('reads function arguments as arguments, and leaves literals neutral when the hook declines', () => {
    const places: string[] = [];
    const hooks: ParseHooks = {
      literal: (place) => {
        places.push(place.kind);
        return undefined;
      },
    };
    const result = parse('f(0a:0b, 3) eq 10.0.0.1', { hooks });
    expect(result.diagnostics).toEqual([]);
    expect(places).toEqual(['argument', 'argument', 'rhs']);
    const comparison = result.ast as ComparisonExpression;
    expect(comparison.rhs).toEqual({ kind: 'bare', text: '10.0.0.1', span: expect.anything() });
  });

  it('validate: a Bytes literal ends where hex bytes end, an Int argument where the integer ends', () => {
    expect(validate('http.host eq 01:02and ssl').ok).toBe(true);
    const [diagnostic] = validate('substring(http.host, 1.5) eq ""').diagnostics;
    expect(diagnostic?.message).toBe('expected literal ","');
    expect(diagnostic?.span.column).toBe(23);
  });
});
