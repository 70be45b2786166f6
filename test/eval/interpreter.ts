/**
 * A small reference interpreter, used only to test the compiler: it walks the typed tree for every
 * evaluation, with the plainest possible code (linear scans, no specialisation, no caching), so that a
 * property test can compare its answers with the compiled filter's. It shares only the leaf engines that
 * have tests of their own (regex, wildcard matching, function implementations).
 */
import type {
  TypedArgument,
  TypedComparison,
  TypedExpression,
  TypedRhs,
  TypedValue,
} from '../../src/check/typed-ast.js';
import { functionRuntimes } from '../../src/eval/functions.js';
import { matchWildcard } from '../../src/eval/wildcard.js';
import { type ComparisonOperator, comparisonOperator, type Relation } from '../../src/lang/operators.js';
import { parseWildcard } from '../../src/lang/wildcard.js';
import { re2RegexEngine } from '../../src/regex/index.js';
import { elementType, type Type } from '../../src/scheme/types.js';
import type { IpAddress, Value } from '../../src/scheme/values.js';

export type Fields = ReadonlyMap<string, Value>;

/** A Bool result, an Array<Bool> result, or missing. */
type Result = boolean | boolean[] | undefined;

export function interpret(
  node: TypedExpression,
  fields: Fields,
  lists: Record<string, (v: Value) => boolean> = {},
): Result {
  switch (node.kind) {
    case 'comparison': {
      if (node.lhs.mapped) return elementsOf(node.lhs, fields, lists).map((v) => compare(node, v, lists));
      const value = readValue(node.lhs, fields, lists);
      return value === undefined ? false : compare(node, value, lists);
    }
    case 'predicate': {
      if (node.value.mapped) return elementsOf(node.value, fields, lists).map((v) => v === true);
      const value = readValue(node.value, fields, lists);
      if (node.type === 'Bool') return value === true;
      return Array.isArray(value) ? value.map((v) => v === true) : undefined;
    }
    case 'not': {
      const operand = interpret(node.operand, fields, lists);
      if (Array.isArray(operand)) return operand.map((v) => !v);
      return operand === undefined ? undefined : !operand;
    }
    case 'quantifier': {
      const operand = interpret(node.operand, fields, lists);
      if (!Array.isArray(operand)) return false;
      let result = node.quantifier === 'all';
      for (const item of operand) result = node.quantifier === 'any' ? result || item : result && item;
      return result;
    }
    case 'logical': {
      const results = node.operands.map((operand) => interpret(operand, fields, lists));
      const apply = (a: boolean, b: boolean) =>
        node.op === 'and' ? a && b : node.op === 'or' ? a || b : a !== b;
      if (node.type === 'Bool') {
        let result = results[0] as boolean;
        for (const r of results.slice(1)) result = apply(result, r as boolean);
        return result;
      }
      const arrays = results.map((r) => (Array.isArray(r) ? r : []));
      let length = Number.POSITIVE_INFINITY;
      for (const a of arrays) length = Math.min(length, a.length);
      const out: boolean[] = [];
      for (let i = 0; i < length; i++) {
        let result = (arrays[0] as boolean[])[i] as boolean;
        for (const a of arrays.slice(1)) result = apply(result, a[i] as boolean);
        out.push(result);
      }
      return out;
    }
  }
}

function readValue(
  node: TypedValue,
  fields: Fields,
  lists: Record<string, (v: Value) => boolean>,
): Value | undefined {
  switch (node.kind) {
    case 'field':
      // `true` ("match everything") is a constant of Cloudflare's scheme.
      return node.name === 'true' ? true : fields.get(node.name);
    case 'index': {
      const target = readValue(node.target, fields, lists);
      return target === undefined ? undefined : select(target, node.index);
    }
    case 'call': {
      const runtime = functionRuntimes.get(node.name);
      if (!runtime) throw new Error(`no function ${node.name}`);
      const literals = node.args.map((arg) => (arg.kind === 'literal' ? literalOf(arg) : undefined));
      const returnType = node.perElement ? (elementType(node.type) as Type) : node.type;
      const implementation = runtime.prepare(literals, { returnType });
      if (node.perElement) {
        const rest = node.args.slice(1).map((arg) => argumentOf(arg, fields, lists));
        const out: Value[] = [];
        for (const item of elementsOf(node.args[0] as TypedValue, fields, lists)) {
          const result = implementation([item, ...rest]);
          if (result !== undefined) out.push(result);
        }
        return out;
      }
      const args = node.args.map((arg) => argumentOf(arg, fields, lists));
      // bit_slice reads the bytes of the header it names, from the field of that name.
      if (node.name === 'bit_slice') args[0] = fields.get(String(args[0]));
      return implementation(args);
    }
  }
}

function elementsOf(node: TypedValue, fields: Fields, lists: Record<string, (v: Value) => boolean>): Value[] {
  if (!node.mapped) {
    const value = readValue(node, fields, lists);
    return value === undefined ? [] : [value];
  }
  if (node.kind !== 'index') throw new Error('only an index can be mapped');
  const sources = node.target.mapped
    ? elementsOf(node.target, fields, lists)
    : [readValue(node.target, fields, lists)].filter((v): v is Value => v !== undefined);
  const out: Value[] = [];
  for (const source of sources) {
    if (node.index.kind === 'map-each') {
      if (Array.isArray(source)) out.push(...source);
      else if (source instanceof Map)
        for (const key of [...source.keys()].sort()) out.push(source.get(key) as Value);
    } else {
      const selected = select(source, node.index);
      if (selected !== undefined) out.push(selected);
    }
  }
  return out;
}

function select(value: Value, index: Extract<TypedValue, { kind: 'index' }>['index']): Value | undefined {
  if (index.kind === 'array-index') return Array.isArray(value) ? value[index.index] : undefined;
  if (index.kind === 'map-key') return value instanceof Map ? value.get(index.key) : undefined;
  return value;
}

function argumentOf(
  arg: TypedArgument,
  fields: Fields,
  lists: Record<string, (v: Value) => boolean>,
): Value | undefined {
  if (arg.kind === 'literal') return literalOf(arg);
  if (arg.kind === 'field' || arg.kind === 'index' || arg.kind === 'call')
    return readValue(arg, fields, lists);
  return interpret(arg, fields, lists);
}

function literalOf(arg: Extract<TypedArgument, { kind: 'literal' }>): Value {
  if (arg.type === 'Ip') return arg.address as IpAddress;
  if (arg.type === 'Int') return Number(arg.value);
  return arg.value as string;
}

function compare(node: TypedComparison, value: Value, lists: Record<string, (v: Value) => boolean>): boolean {
  const { op, rhs } = node;
  switch (rhs.kind) {
    case 'bytes':
    case 'int':
    case 'ip':
      return ordered(op, value, rhs);
    case 'regex':
      return re2RegexEngine.compile(rhs.pattern).test(value as string);
    case 'wildcard': {
      const parsed = parseWildcard(rhs.pattern);
      return parsed.ok && matchWildcard(parsed.parts, value as string, rhs.strict);
    }
    case 'bytes-set':
      return rhs.items.some((item) => item.value === value);
    case 'int-set':
      return rhs.items.some(
        (item) => BigInt(value as number) >= item.from && BigInt(value as number) <= item.to,
      );
    case 'ip-set': {
      const ip = value as IpAddress;
      return rhs.items.some(
        (item) =>
          item.from.family === ip.family &&
          BigInt(ip.value) >= BigInt(item.from.value) &&
          BigInt(ip.value) <= BigInt(item.to.value),
      );
    }
    case 'list':
      return Object.hasOwn(lists, rhs.name) ? (lists[rhs.name] as (v: Value) => boolean)(value) : false;
  }
}

/**
 * Independent definitions of the table's test operators, so that the property tests check the compiler's
 * use of them. An operator without one here runs by its table entry's own `check` (its unit tests check
 * that).
 */
const REFERENCE_TESTS: Partial<Record<ComparisonOperator, (value: Value, rhs: ValueRhs) => boolean>> = {
  contains: (value, rhs) => (value as string).indexOf(rhs.value as string) !== -1,
  bitwise_and: (value, rhs) => (BigInt(value as number) & (rhs.value as bigint)) !== 0n,
};

type ValueRhs = Extract<TypedRhs, { kind: 'bytes' | 'int' | 'ip' }>;

const TYPE_OF = { bytes: 'Bytes', int: 'Int', ip: 'Ip' } as const;

/** A one-value operator: a relation by comparing with a three-way order, a test by its definition. */
function ordered(op: TypedComparison['op'], value: Value, rhs: ValueRhs): boolean {
  const entry = comparisonOperator(op);
  if (entry.rhs !== 'value') throw new Error(`${op} takes no single value`);
  if (!('relation' in entry)) {
    const reference = REFERENCE_TESTS[op];
    if (reference) return reference(value, rhs);
    const test = entry.test[TYPE_OF[rhs.kind]] as { check(literal: unknown): (value: unknown) => boolean };
    return test.check(rhs.value)(value);
  }
  let order: number;
  if (rhs.kind === 'ip') {
    const ip = value as IpAddress;
    if (ip.family !== rhs.value.family) return entry.relation === '!==';
    order =
      BigInt(ip.value) < BigInt(rhs.value.value) ? -1 : BigInt(ip.value) > BigInt(rhs.value.value) ? 1 : 0;
  } else if (rhs.kind === 'int') {
    const v = BigInt(value as number);
    order = v < rhs.value ? -1 : v > rhs.value ? 1 : 0;
  } else {
    const a = value as string;
    order = a < rhs.value ? -1 : a > rhs.value ? 1 : 0;
  }
  const results: Record<Relation, boolean> = {
    '===': order === 0,
    '!==': order !== 0,
    '<': order < 0,
    '<=': order <= 0,
    '>': order > 0,
    '>=': order >= 0,
  };
  return results[entry.relation];
}
