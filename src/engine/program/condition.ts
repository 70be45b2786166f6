import type { TypedExpression } from '../../check/typed-ast.js';
import type { IpRange } from '../../scheme/ip.js';

/**
 * A necessary condition of a rule's expression — "it can only match if …" — in terms an index can answer
 * for many rules at once: a field equal to one of some strings, an address in some ranges, a literal
 * inside a field. A rule matches only if one of its atoms holds (they are alternatives). Expressions
 * whose shape gives no such condition (`not`, `ne`, functions other than starts_with/ends_with, arrays,
 * regexes…) have none: the rule is a candidate for every request.
 */

export type Atom =
  | { kind: 'equals'; field: string; values: readonly string[] }
  | { kind: 'ip'; field: string; ranges: readonly IpRange[] }
  | { kind: 'text'; field: string; literal: string; place: 'anywhere' | 'start' | 'end' };

/** Alternatives, or undefined: no condition (always a candidate). */
export type Condition = readonly Atom[] | undefined;

export function conditionOf(node: TypedExpression): Condition {
  switch (node.kind) {
    case 'logical':
      if (node.op === 'and') return narrowest(node.operands.map(conditionOf));
      if (node.op === 'or') return union(node.operands.map(conditionOf));
      return undefined;
    case 'comparison':
      return comparison(node);
    case 'predicate':
      return predicate(node);
    default:
      return undefined;
  }
}

/** Of the conjuncts' conditions, the one fewest requests meet (any one is necessary). */
function narrowest(conditions: Condition[]): Condition {
  let best: Condition;
  let bestBreadth = Number.POSITIVE_INFINITY;
  for (const condition of conditions) {
    if (!condition) continue;
    const breadth = condition.reduce((sum, atom) => sum + breadthOf(atom), 0);
    if (breadth < bestBreadth) {
      best = condition;
      bestBreadth = breadth;
    }
  }
  return best;
}

/** A rough share of requests an atom lets through: exact values are narrow, short literals broad. */
function breadthOf(atom: Atom): number {
  if (atom.kind === 'equals') return atom.values.length;
  if (atom.kind === 'ip') return 4 * atom.ranges.length;
  return (atom.place === 'anywhere' ? 32 : 16) / atom.literal.length;
}

/** Every disjunct needs a condition, or the disjunction has none. */
function union(conditions: Condition[]): Condition {
  const atoms: Atom[] = [];
  for (const condition of conditions) {
    if (!condition) return undefined;
    atoms.push(...condition);
  }
  return atoms;
}

function comparison(node: Extract<TypedExpression, { kind: 'comparison' }>): Condition {
  const { lhs, rhs, op } = node;
  if (lhs.kind !== 'field') return undefined;
  const field = lhs.name;
  if (lhs.type === 'Bytes') {
    if (op === 'eq' && rhs.kind === 'bytes') return [{ kind: 'equals', field, values: [rhs.value] }];
    if (op === 'in' && rhs.kind === 'bytes-set')
      return [{ kind: 'equals', field, values: rhs.items.map((item) => item.value) }];
    if (op === 'contains' && rhs.kind === 'bytes' && rhs.value !== '')
      return [{ kind: 'text', field, literal: rhs.value, place: 'anywhere' }];
  }
  if (lhs.type === 'Ip') {
    if (op === 'eq' && rhs.kind === 'ip')
      return [{ kind: 'ip', field, ranges: [{ from: rhs.value, to: rhs.value }] }];
    if (op === 'in' && rhs.kind === 'ip-set') return [{ kind: 'ip', field, ranges: rhs.items }];
  }
  return undefined;
}

const PLACES: Record<string, 'start' | 'end'> = { starts_with: 'start', ends_with: 'end' };

/** `starts_with(field, "…")` and `ends_with(field, "…")`. */
function predicate(node: Extract<TypedExpression, { kind: 'predicate' }>): Condition {
  const call = node.value;
  if (call.kind !== 'call') return undefined;
  const place = PLACES[call.name];
  const [source, literal] = call.args;
  if (!place || source?.kind !== 'field' || source.type !== 'Bytes' || literal?.kind !== 'literal')
    return undefined;
  if (typeof literal.value !== 'string' || literal.value === '') return undefined;
  return [{ kind: 'text', field: source.name, literal: literal.value, place }];
}
