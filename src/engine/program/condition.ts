import type { TypedArgument, TypedExpression, TypedValue } from '../../check/typed-ast.js';
import { valueKey } from '../../eval/value-key.js';
import { type Prefilter, regexPrefilter } from '../../regex/index.js';
import type { FunctionDefinition } from '../../scheme/functions.js';
import type { IpRange } from '../../scheme/ip.js';
import { asciiLower } from '../../scheme/values.js';
import { WAF_PHRASE_LISTS } from '../../scheme/waf-functions.js';

/**
 * A necessary condition of a rule's expression — "it can only match if …" — in terms an index can answer
 * for many rules at once: a value equal to one of some strings, an address in some ranges, a literal
 * inside a value. A rule matches only if one of its atoms holds (they are alternatives). Expressions
 * whose shape gives no such condition (`not`, `ne`, functions other than starts_with/ends_with, arrays,
 * regexes…) have none: the rule is a candidate for every request.
 */

export type Atom =
  | { kind: 'equals'; value: Tested; values: readonly string[] }
  | { kind: 'ip'; value: Tested; ranges: readonly IpRange[] }
  | {
      kind: 'text';
      value: Tested;
      literal: string;
      place: 'anywhere' | 'start' | 'end';
      /** Compare with the value lower-cased (a regex's `(?i)` literal). */
      folded?: boolean;
      /** The values scanned for the literal, when known already (piecesOf otherwise). */
      pieces?: readonly Tested[];
    };

/**
 * What an atom tests: a field, or a value computed from fields without `[*]` (`lower(http.user_agent)`,
 * `http.request.headers["x-api-key"][0]`), named by a key that is the same for the same computation, so
 * that the program computes it once per request however many rules test it. With `each`, the value is an
 * array and the atom holds when it holds of one of its elements: `any(X[*] contains "…")`, the shape of
 * the managed rules (`any(waf_transform(…)[*] matches …)`).
 */
export interface Tested {
  key: string;
  node: TypedValue;
  each?: boolean;
}

/** The key of a value, or undefined for values an index cannot use (mapped, or with expression arguments). */
export function testedOf(node: TypedValue): Tested | undefined {
  const key = valueKey(node);
  return key === undefined ? undefined : { key, node };
}

/**
 * The values an index scans for the literals of a tested value: the value itself, or, when its elements
 * are those of smaller computations (a function's `elements`, src/scheme/functions.ts), those. The managed
 * rules list the same targets (every argument, every cookie…) under the same transformations in many
 * different combinations; scanned piece by piece, each target so transformed is scanned once.
 */
export function piecesOf(tested: Tested): Tested[] {
  const { node } = tested;
  if (node.kind !== 'call') return [tested];
  const suffix = tested.each ? '[*]' : '';
  const piece = (of: TypedValue): Tested[] => {
    const key = valueKey(of);
    return key === undefined ? [tested] : piecesOf({ key: `${key}${suffix}`, node: of, each: tested.each });
  };
  const [first, ...rest] = node.args;
  if (node.definition.elements === 'subset-of-first' && isValue(first)) return piece(first);
  if (node.definition.elements === 'each-target' && first && rest.length > 1 && rest.every(isValue))
    return rest.flatMap((target) => piece({ ...node, args: [first, target] }));
  return [tested];
}

const isValue = (arg: TypedArgument | undefined): arg is TypedValue =>
  arg?.kind === 'field' || arg?.kind === 'index' || arg?.kind === 'call';

/** `X[*]` with X a value an index can compute: X, tested element by element. */
function eachOf(node: TypedValue | TypedArgument | undefined): Tested | undefined {
  if (node?.kind !== 'index' || node.index.kind !== 'map-each' || node.target.mapped) return undefined;
  const tested = testedOf(node.target);
  return tested && { key: `${tested.key}[*]`, node: node.target, each: true };
}

/**
 * `lower(X[*])[*]` with X a value an index can compute: X, tested element by element. The managed rules
 * compare header names so (`any(lower(http.request.headers.names[*])[*] eq "x-middleware-subrequest")`),
 * and `lower(X[*])` has no key of its own (a mapped argument).
 */
function loweredEachOf(node: TypedValue | TypedArgument): Tested | undefined {
  if (node.kind !== 'index' || node.index.kind !== 'map-each') return undefined;
  const call = node.target;
  if (call.kind !== 'call' || call.name !== 'lower' || !call.perElement || call.args.length !== 1)
    return undefined;
  return eachOf(call.args[0]);
}

/**
 * `lower(e) eq "v"` (or `in {…}`): `lower` changes ASCII letters only, so e is v but for the case of its
 * letters, and the automaton, which looks for every literal in any case, finds v at e's start. A value with
 * an upper-case letter is never equal to a lower-cased one, so it needs nothing looked for.
 */
function loweredEqualsAtoms(
  value: Tested,
  op: Extract<TypedExpression, { kind: 'comparison' }>['op'],
  rhs: Extract<TypedExpression, { kind: 'comparison' }>['rhs'],
): Condition {
  const wanted = exactBytes(op, rhs);
  if (!wanted) return undefined;
  // "" would need no literal: no condition then (nor when no value can be equal, a rule that never matches).
  if (wanted.includes('')) return undefined;
  const reachable = wanted.filter((text) => asciiLower(text) === text);
  if (reachable.length === 0) return undefined;
  return reachable.map((literal) => ({ kind: 'text' as const, value, literal, place: 'start' as const }));
}

/** Alternatives, or undefined: no condition (always a candidate). */
export type Condition = readonly Atom[] | undefined;

/**
 * How many rules of the zone test each value of a value (`equals|http.host|example.com` → 83): a value
 * many rules test is one many requests have, so a condition on it narrows little.
 */
export type Popularity = ReadonlyMap<string, number>;

const popularityKeys = (atom: Atom): string[] => {
  if (atom.kind === 'equals') return atom.values.map((value) => `equals|${atom.value.key}|${value}`);
  if (atom.kind === 'text') return [`text|${atom.value.key}|${atom.literal}`];
  return [];
};

/** Counts, over every rule, the values its comparisons test (conditionOf's `popularity`). */
export function countTestedValues(nodes: readonly TypedExpression[]): Popularity {
  const counts = new Map<string, number>();
  const visit = (node: TypedExpression): void => {
    if (node.kind === 'logical') node.operands.forEach(visit);
    else if (node.kind === 'not' || node.kind === 'quantifier') visit(node.operand);
    else
      for (const atom of (node.kind === 'comparison' ? comparison(node) : predicate(node)) ?? [])
        for (const key of popularityKeys(atom)) counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  nodes.forEach(visit);
  return counts;
}

export function conditionOf(node: TypedExpression, popularity: Popularity = new Map()): Condition {
  switch (node.kind) {
    case 'logical':
      if (node.op === 'and')
        return narrowest(
          node.operands.map((operand) => conditionOf(operand, popularity)),
          popularity,
        );
      if (node.op === 'or') return union(node.operands.map((operand) => conditionOf(operand, popularity)));
      return undefined;
    case 'comparison':
      return comparison(node);
    case 'predicate':
      return predicate(node);
    case 'quantifier':
      // any(…[*] …): the test must hold of one element. (all(…) holds of an empty array: no condition.)
      return node.quantifier === 'any' ? conditionOfElements(node.operand, popularity) : undefined;
    default:
      return undefined;
  }
}

/** The condition of an `any` operand: comparisons and predicates over `X[*]`, and their and/or. */
function conditionOfElements(node: TypedExpression, popularity: Popularity): Condition {
  if (node.kind === 'logical' && node.op !== 'xor') {
    const conditions = node.operands.map((operand) => conditionOfElements(operand, popularity));
    return node.op === 'and' ? narrowest(conditions, popularity) : union(conditions);
  }
  if (node.kind === 'comparison') {
    const value = eachOf(node.lhs);
    if (value) return comparisonAtoms(value, node.lhs.type, node.op, node.rhs);
    const lowered = loweredEachOf(node.lhs);
    return lowered && loweredEqualsAtoms(lowered, node.op, node.rhs);
  }
  if (node.kind === 'predicate' && node.value.kind === 'call' && node.value.perElement) {
    const call = node.value;
    const value = eachOf(call.args[0]);
    if (!value) return undefined;
    const literal = call.args[1];
    if (literal?.kind !== 'literal' || typeof literal.value !== 'string') return undefined;
    const needed = call.definition.trueOnlyWith;
    if (needed) return neededAtoms(value, needed, literal.value);
    const place = PLACES[call.name];
    return place && literal.value !== ''
      ? [{ kind: 'text', value, literal: literal.value, place }]
      : undefined;
  }
  return undefined;
}

/** What a call true only with something in its value (a function's `trueOnlyWith`) needs, as atoms. */
function neededAtoms(
  value: Tested,
  needed: NonNullable<FunctionDefinition['trueOnlyWith']>,
  literal: string,
): Condition {
  if (needed === 'call') return [{ kind: 'text', value, literal: '(', place: 'anywhere' }];
  if (needed === 'match') return regexLiterals(value, literal);
  const phrases = WAF_PHRASE_LISTS[literal] ?? [];
  if (phrases.length === 0 || phrases.includes('')) return undefined;
  return phrases.map((phrase) => ({
    kind: 'text' as const,
    value,
    literal: asciiLower(phrase),
    place: 'anywhere' as const,
    folded: true,
  }));
}

/** Of the conjuncts' conditions, the one fewest requests meet (any one is necessary). */
function narrowest(conditions: Condition[], popularity: Popularity): Condition {
  let best: Condition;
  let bestBreadth = Number.POSITIVE_INFINITY;
  for (const condition of conditions) {
    if (!condition) continue;
    const breadth = condition.reduce((sum, atom) => sum + breadthOf(atom, popularity), 0);
    if (breadth < bestBreadth) {
      best = condition;
      bestBreadth = breadth;
    }
  }
  return best;
}

/**
 * A rough share of requests an atom lets through: exact values are narrow, short literals broad, and a
 * value many rules test (the zone's own host) broad too.
 */
function breadthOf(atom: Atom, popularity: Popularity): number {
  if (holdsAlmostAlways(atom)) return Number.POSITIVE_INFINITY;
  const popular = (key: string) => popularity.get(key) ?? 1;
  if (atom.kind === 'equals')
    return atom.values.reduce((sum, value) => sum + popular(`equals|${atom.value.key}|${value}`), 0);
  if (atom.kind === 'ip') return 4 * atom.ranges.length;
  return (
    ((atom.place === 'anywhere' ? 32 : 16) / atom.literal.length) *
    popular(`text|${atom.value.key}|${atom.literal}`)
  );
}

/**
 * A literal of one letter or digit anywhere in a value (a regex's needles can come down to that:
 * `\b(?:a|d…)`): nearly every request has one, so indexing it costs a look-up per occurrence and spares
 * no rule. A conjunction looks for a narrower condition among its other operands.
 */
export const holdsAlmostAlways = (atom: Atom): boolean =>
  atom.kind === 'text' &&
  atom.place === 'anywhere' &&
  atom.literal.length === 1 &&
  isAsciiAlphanumeric(atom.literal.charCodeAt(0));

// A comparison, not a regex: a zone's index asks this of each of its atoms (the managed rulesets' some
// 20,000) once per process, mostly before V8 has optimised anything, where a regex search costs far more.
const isAsciiAlphanumeric = (code: number): boolean =>
  (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);

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
  const value = testedOf(node.lhs);
  return value && comparisonAtoms(value, node.lhs.type, node.op, node.rhs);
}

function comparisonAtoms(
  value: Tested,
  type: TypedValue['type'],
  op: Extract<TypedExpression, { kind: 'comparison' }>['op'],
  rhs: Extract<TypedExpression, { kind: 'comparison' }>['rhs'],
): Condition {
  if (type === 'Bytes') {
    const values = exactBytes(op, rhs);
    if (values) return [{ kind: 'equals', value, values }];
    if (op === 'contains' && rhs.kind === 'bytes' && rhs.value !== '')
      return [{ kind: 'text', value, literal: rhs.value, place: 'anywhere' }];
    if (op === 'matches' && rhs.kind === 'regex') return regexLiterals(value, rhs.pattern);
  }
  if (type === 'Ip') {
    if (op === 'eq' && rhs.kind === 'ip')
      return [{ kind: 'ip', value, ranges: [{ from: rhs.value, to: rhs.value }] }];
    if (op === 'in' && rhs.kind === 'ip-set') return [{ kind: 'ip', value, ranges: rhs.items }];
  }
  return undefined;
}

/** The strings a Bytes value must be one of for `eq` or `in` to hold; undefined for other comparisons. */
function exactBytes(
  op: Extract<TypedExpression, { kind: 'comparison' }>['op'],
  rhs: Extract<TypedExpression, { kind: 'comparison' }>['rhs'],
): string[] | undefined {
  if (op === 'eq' && rhs.kind === 'bytes') return [rhs.value];
  if (op === 'in' && rhs.kind === 'bytes-set') return rhs.items.map((item) => item.value);
  return undefined;
}

const PLACES: Record<string, 'start' | 'end'> = { starts_with: 'start', ends_with: 'end' };

/** `starts_with(value, "…")` and `ends_with(value, "…")`. */
function predicate(node: Extract<TypedExpression, { kind: 'predicate' }>): Condition {
  const call = node.value;
  if (call.kind !== 'call') return undefined;
  const place = PLACES[call.name];
  const [source, literal] = call.args;
  if (!place || literal?.kind !== 'literal' || typeof literal.value !== 'string' || literal.value === '')
    return undefined;
  if (source?.kind !== 'field' && source?.kind !== 'index' && source?.kind !== 'call') return undefined;
  const value = source.type === 'Bytes' ? testedOf(source) : undefined;
  return value && [{ kind: 'text', value, literal: literal.value, place }];
}

/**
 * A regex's literal prefilter (src/regex/prefilter.ts) as text atoms: every match holds one of the needles
 * of its first check at the check's place (a whole-input literal is in particular at the start).
 */
function regexLiterals(value: Tested, pattern: string): Condition {
  let check: Prefilter['checks'][number] | undefined;
  try {
    check = regexPrefilter(pattern).checks[0];
  } catch {
    return undefined;
  }
  if (!check || check.needles.length === 0 || check.needles.some((needle) => needle.text === ''))
    return undefined;
  const place = check.place === 'whole' ? 'start' : check.place;
  return check.needles.map((needle) => ({
    kind: 'text' as const,
    value,
    literal: needle.text,
    place,
    ...(needle.folded ? { folded: true } : {}),
  }));
}
