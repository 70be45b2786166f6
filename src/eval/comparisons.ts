import type { TypedComparison } from '../check/typed-ast.js';
import {
  type ComparableType,
  type ComparisonOperator,
  comparisonOperator,
  type LiteralOf,
  type Relation,
  type ValueOf,
} from '../lang/operators.js';
import type { IpAddress, Value } from '../scheme/values.js';

/**
 * The operators that compare a value with one literal, run as the operator table (lang/operators.ts) says:
 * a relation by what it means for each type, a test by the entry's own functions. Both tiers read this
 * module, so an operator cannot mean one thing in closures and another in generated code.
 */

export type Check = (value: Value) => boolean;

/** A right-hand side of one value, as the checker typed it. */
export type ValueRhs = Extract<TypedComparison['rhs'], { kind: 'bytes' | 'int' | 'ip' }>;

const TYPE_OF: Record<ValueRhs['kind'], ComparableType> = { bytes: 'Bytes', int: 'Int', ip: 'Ip' };

// The operator table restates the literals' and values' shapes (lang imports nothing of ours): this stops
// type-checking if they drift apart from the checker's and the evaluator's.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type RhsLiteral<K extends ValueRhs['kind']> = Extract<ValueRhs, { kind: K }>['value'];
const shapesAgree: Same<LiteralOf['Bytes'], RhsLiteral<'bytes'>> &
  Same<LiteralOf['Int'], RhsLiteral<'int'>> &
  Same<LiteralOf['Ip'], RhsLiteral<'ip'>> &
  Same<ValueOf['Ip'], IpAddress> &
  Same<ValueOf['Bytes'] | ValueOf['Int'], Extract<Value, string | number>> = true;
void shapesAgree;

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A literal Int that a JS number holds exactly, as a number; undefined beyond ±2^53. */
export const safeInt = (literal: bigint): number | undefined =>
  literal >= -MAX_SAFE && literal <= MAX_SAFE ? Number(literal) : undefined;

/**
 * What each relation means per type, as closures specialised for the literal. Keyed by Relation, so
 * TypeScript fails here if a relation is added without its meaning.
 */
const RELATIONS: { [K in ComparableType]: Record<Relation, (literal: LiteralOf[K]) => Check> } = {
  // Binary strings compare byte by byte with JS's relational operators.
  Bytes: {
    '===': (literal) => (value) => value === literal,
    '!==': (literal) => (value) => value !== literal,
    '<': (literal) => (value) => (value as string) < literal,
    '<=': (literal) => (value) => (value as string) <= literal,
    '>': (literal) => (value) => (value as string) > literal,
    '>=': (literal) => (value) => (value as string) >= literal,
  },
  // Values are numbers; a literal beyond ±2^53 equals none of them, and numbers and bigints order exactly.
  Int: {
    '===': (literal) => {
      const n = safeInt(literal);
      return n === undefined ? () => false : (value) => value === n;
    },
    '!==': (literal) => {
      const n = safeInt(literal);
      return n === undefined ? () => true : (value) => value !== n;
    },
    '<': (literal) => {
      const n = safeInt(literal);
      return n === undefined ? (value) => (value as number) < literal : (value) => (value as number) < n;
    },
    '<=': (literal) => {
      const n = safeInt(literal);
      return n === undefined ? (value) => (value as number) <= literal : (value) => (value as number) <= n;
    },
    '>': (literal) => {
      const n = safeInt(literal);
      return n === undefined ? (value) => (value as number) > literal : (value) => (value as number) > n;
    },
    '>=': (literal) => {
      const n = safeInt(literal);
      return n === undefined ? (value) => (value as number) >= literal : (value) => (value as number) >= n;
    },
  },
  // IPv4 and IPv6 never compare: only `!==` is true between them.
  Ip: {
    '===': (literal) => (value) => same(value, literal) && v(value) === literal.value,
    '!==': (literal) => (value) => !same(value, literal) || v(value) !== literal.value,
    '<': (literal) => (value) => same(value, literal) && v(value) < literal.value,
    '<=': (literal) => (value) => same(value, literal) && v(value) <= literal.value,
    '>': (literal) => (value) => same(value, literal) && v(value) > literal.value,
    '>=': (literal) => (value) => same(value, literal) && v(value) >= literal.value,
  },
};

const same = (value: Value, literal: IpAddress): boolean => (value as IpAddress).family === literal.family;
const v = (value: Value): number | bigint => (value as IpAddress).value;

/** The test of one value against a one-value right-hand side, specialised by operator and literal. */
export function valueCheck(op: ComparisonOperator, rhs: ValueRhs): Check {
  const type = TYPE_OF[rhs.kind];
  const entry = comparisonOperator(op);
  if (entry.rhs === 'value') {
    if ('relation' in entry)
      return (RELATIONS[type][entry.relation] as (literal: unknown) => Check)(rhs.value);
    const test = entry.test[type];
    if (test) return (test.check as (literal: unknown) => Check)(rhs.value);
  }
  throw new Error(`compile: ${op} on ${type}`);
}

/**
 * The same test as JavaScript source over `a` (a value or `M`, the missing marker), for the generated tier;
 * undefined where the generated code should call the closure instead (large Int literals, IP orderings,
 * tests without a `code` form). Literals reach the source only as JSON strings and decimal numbers.
 */
export function valueCode(op: ComparisonOperator, rhs: ValueRhs): string | undefined {
  const entry = comparisonOperator(op);
  if (entry.rhs !== 'value') return undefined;
  const present = 'a !== M';
  if (rhs.kind === 'ip') {
    if (!('relation' in entry) || entry.relation !== '===') return undefined;
    const { family, value } = rhs.value;
    return `${present} && a.family === ${family} && a.value === ${numberLiteral(value)}`;
  }
  let source: string;
  if (rhs.kind === 'bytes') {
    source = JSON.stringify(rhs.value);
  } else {
    const n = safeInt(rhs.value);
    if (n === undefined) return undefined;
    source = `(${n})`;
  }
  if ('relation' in entry) {
    // M equals no literal, so equality needs no presence test.
    return entry.relation === '===' ? `a === ${source}` : `${present} && a ${entry.relation} ${source}`;
  }
  const code = (entry.test[TYPE_OF[rhs.kind]]?.code as ((...args: unknown[]) => string) | undefined)?.(
    'a',
    source,
    rhs.value,
  );
  return code === undefined ? undefined : code === 'true' ? present : `${present} && ${code}`;
}

export const numberLiteral = (value: number | bigint): string =>
  typeof value === 'bigint' ? `${value}n` : `(${value})`;
