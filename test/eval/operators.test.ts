import { describe, expect, it } from 'vitest';
import type { TypedExpression } from '../../src/check/typed-ast.js';
import { validate } from '../../src/check/validate.js';
import { compile } from '../../src/eval/compile.js';
import {
  type ComparableType,
  comparisonOperator,
  comparisonOperatorNames,
} from '../../src/lang/operators.js';
import { parseIpAddress } from '../../src/scheme/ip.js';
import { defineScheme } from '../../src/scheme/scheme.js';
import type { Value } from '../../src/scheme/values.js';
import { interpret } from './interpreter.js';

// What the checker and the evaluator read from the operator table: the left types an operator accepts,
// and the meaning of a one-value operator, the same in both tiers (the generated code's form of an
// entry against its closure) and in the test interpreter.

const scheme = defineScheme({ fields: { host: 'Bytes', port: 'Int', addr: 'Ip' } });
const FIELD: Record<ComparableType, string> = { Bytes: 'host', Int: 'port', Ip: 'addr' };

const ip = (text: string): Value => parseIpAddress(text) as Value;

/** Literals (source text) and values around them, edges included: empty bytes, beyond ±2^53, both families. */
const SAMPLES: { [K in ComparableType]: { literals: string[]; values: Value[] } } = {
  Bytes: { literals: ['""', '"b"', '"ab"', '"\\xff"'], values: ['', 'a', 'ab', 'b', 'abc', 'xaby', '\xff'] },
  Int: {
    literals: ['0', '1', '80', '-1', '9007199254740993', '-9007199254740993', '2147483648'],
    values: [0, 1, 80, 81, -1, 65535, 2 ** 31, Number.MAX_SAFE_INTEGER],
  },
  Ip: {
    literals: ['10.0.0.1', '::1', '10.0.0.0'],
    values: [ip('10.0.0.1'), ip('10.0.0.2'), ip('9.255.255.255'), ip('::1'), ip('::')],
  },
};

describe('every one-value operator of the table', () => {
  for (const op of comparisonOperatorNames) {
    const entry = comparisonOperator(op);
    if (entry.rhs !== 'value') continue;
    for (const type of entry.types) {
      it(`${op} on ${type}: closures, generated code and the interpreter agree`, () => {
        const { literals, values } = SAMPLES[type];
        for (const literal of literals) {
          const source = `${FIELD[type]} ${op} ${literal}`;
          const checked = validate(source, { scheme });
          expect(
            checked.diagnostics.filter((d) => d.severity === 'error'),
            source,
          ).toEqual([]);
          const generated = compile(source, { scheme, generateCode: true });
          const closures = compile(source, { scheme, generateCode: false });
          if (!generated.ok || !closures.ok) throw new Error(`${source} does not compile`);
          for (const value of values) {
            const fields = new Map([[FIELD[type], value]]);
            const expected = interpret(checked.ast as TypedExpression, fields);
            expect(generated.filter.match(fields), `${source} on ${String(value)}`).toBe(expected);
            expect(closures.filter.match(fields), `${source} on ${String(value)}`).toBe(expected);
          }
          // A missing value makes every comparison false, in both tiers.
          expect(generated.filter.match(new Map())).toBe(false);
          expect(closures.filter.match(new Map())).toBe(false);
        }
      });
    }
  }
});

describe('the checker', () => {
  it('refuses an operator on a left type the table does not list for it', () => {
    for (const op of comparisonOperatorNames) {
      const accepted: readonly string[] = comparisonOperator(op).types;
      for (const type of ['Bytes', 'Int', 'Ip'] as const) {
        const source = `${FIELD[type]} ${op} "a"`;
        const codes = validate(source, { scheme }).diagnostics.map((d) => d.code);
        if (accepted.includes(type)) expect(codes, source).not.toContain('unsupported-operation');
        else expect(codes, source).toEqual(['unsupported-operation']);
      }
    }
  });
});
