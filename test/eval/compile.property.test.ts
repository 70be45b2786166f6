import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TypedExpression } from '../../src/check/typed-ast.js';
import { validate } from '../../src/check/validate.js';
import { walkTyped } from '../../src/check/walk.js';
import { compile } from '../../src/eval/compile.js';
import { formatExpression } from '../../src/lang/format.js';
import type { Type } from '../../src/scheme/types.js';
import type { IpAddress, Value } from '../../src/scheme/values.js';
import { typedFilter } from '../props/typed-arbitraries.js';
import { type Fields, interpret } from './interpreter.js';

/**
 * The compiled filter and the reference interpreter give the same answer on random typed expressions ×
 * random field values (at least 10,000 pairs per run). Field values are drawn partly from the literals of
 * the expression itself, so that equalities, set memberships and ranges are hit as well as missed.
 */

/** The literals and map keys of an expression, to build values that meet them. */
function harvest(ast: TypedExpression) {
  const bytes = new Set<string>(['', 'a', 'A']);
  const ints = new Set<number>([0, 1, -1]);
  const ips: IpAddress[] = [
    { family: 4, value: 0x0a000001 },
    { family: 6, value: 1n },
  ];
  const keys = new Set<string>(['a']);
  const fields = new Map<string, Type>();
  walkTyped(ast, (node) => {
    if (node.kind === 'field') fields.set(node.name, node.type);
    if (node.kind === 'index' && node.index.kind === 'map-key') keys.add(node.index.key);
    if (node.kind === 'literal') {
      if (node.type === 'Bytes') bytes.add(node.value as string);
      if (node.type === 'Int') ints.add(Number(node.value));
    }
    if (node.kind !== 'comparison') return;
    const { rhs } = node;
    if (rhs.kind === 'bytes') bytes.add(rhs.value);
    if (rhs.kind === 'int') for (const d of [-1, 0, 1]) ints.add(Number(rhs.value) + d);
    if (rhs.kind === 'ip') ips.push(rhs.value);
    if (rhs.kind === 'bytes-set') for (const item of rhs.items) bytes.add(item.value);
    if (rhs.kind === 'int-set')
      for (const item of rhs.items)
        for (const v of [item.from - 1n, item.from, item.to, item.to + 1n]) ints.add(Number(v));
    if (rhs.kind === 'ip-set') for (const item of rhs.items) ips.push(item.from, item.to);
  });
  const safeInts = [...ints].filter(Number.isSafeInteger);
  return { bytes: [...bytes], ints: safeInts, ips, keys: [...keys], fields };
}

type Pools = ReturnType<typeof harvest>;

function valueArbitrary(type: Type, pools: Pools, depth = 0): fc.Arbitrary<Value> {
  if (type === 'Bytes')
    return fc.oneof(
      fc.constantFrom(...pools.bytes),
      fc.string({ maxLength: 6 }),
      fc.constantFrom(...pools.bytes).map((b) => `x${b}y`),
    );
  if (type === 'Int') return fc.oneof(fc.constantFrom(...pools.ints), fc.integer({ min: -1000, max: 70000 }));
  if (type === 'Bool') return fc.boolean();
  if (type === 'Ip')
    return fc.oneof(
      fc.constantFrom(...pools.ips),
      fc.nat({ max: 0xffffffff }).map((value): IpAddress => ({ family: 4, value })),
      fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }).map((value): IpAddress => ({ family: 6, value })),
    );
  const element = 'array' in type ? type.array : type.map;
  const item = depth > 2 ? fc.constant(null) : valueArbitrary(element, pools, depth + 1);
  if ('array' in type) return fc.array(item, { maxLength: 4 }) as fc.Arbitrary<Value>;
  return fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...pools.keys), fc.string({ maxLength: 3 })), item), {
      maxLength: 4,
    })
    .map((entries) => new Map(entries) as Value);
}

/** An expression that validates, with generators of field values for it. */
const case_ = typedFilter
  .map((untyped) => {
    const source = formatExpression(untyped);
    return { source, ast: validate(source, { lints: false, maxLength: Number.POSITIVE_INFINITY }).ast };
  })
  .filter((c): c is { source: string; ast: TypedExpression } => c.ast !== undefined)
  .chain(({ source, ast }) => {
    const pools = harvest(ast);
    const entries = [...pools.fields].map(([name, type]) =>
      fc
        .option(valueArbitrary(type, pools), { freq: 6, nil: undefined })
        .map((value) => [name, value] as const),
    );
    const fields = fc
      .tuple(...entries)
      .map(
        (pairs) => new Map(pairs.filter((pair): pair is [string, Value] => pair[1] !== undefined)) as Fields,
      );
    return fc.tuple(fc.constant({ source, ast }), fc.array(fields, { minLength: 4, maxLength: 4 }));
  });

const lists = { office_ips: () => false };

describe('compiled filters agree with the reference interpreter', () => {
  // Both tiers: generated code (the default) and closures alone.
  it.each([
    ['generated code', true],
    ['closures', false],
  ])(
    '%s: on 2,500 random expressions × 4 random requests (10,000 pairs)',
    { timeout: 120_000 },
    (_, generateCode) => {
      fc.assert(
        fc.property(case_, ([{ source, ast }, requests]) => {
          const compiled = compile(ast, { generateCode });
          if (!compiled.ok) throw new Error('a typed tree always compiles');
          for (const fields of requests) {
            const expected = interpret(ast, fields, lists);
            const context = compiled.filter.context(fields);
            expect(compiled.filter.match(context), source).toBe(expected);
            // A fresh input (not a context) takes the other way in: same answer.
            expect(compiled.filter.match(fields), source).toBe(expected);
          }
        }),
        { numRuns: 2500 },
      );
    },
  );
});
