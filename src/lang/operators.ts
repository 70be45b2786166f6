import { containsSearch, hasWrittenSearch } from './byte-search.js';

/**
 * The operators of the language, stated once. The lexer matches their spellings, the token labels (and so
 * the syntax diagrams) and grammar/rules.ebnf list them, the parser combines the logical ones by their
 * precedence, the formatter prints them, the checker reads which left types each comparison accepts, and
 * the evaluator's two tiers (src/eval/comparisons.ts) run them. A new comparison operator that tests the
 * left value against one literal is one entry here plus its tests (test/lang/operators.test.ts shows the
 * contract; `npm run grammar` rewrites the ebnf's operator productions).
 *
 * The semantics live here, in `lang`, because a test of a value against a literal is plain JavaScript over
 * the run-time values of scheme/values.ts; `lang` imports nothing of ours, so those value shapes are
 * restated below (src/eval/comparisons.ts stops type-checking if they drift from the evaluator's).
 */

/** The types a comparison's left side may have (the names of scheme/types.ts). */
export type ComparableType = 'Bytes' | 'Int' | 'Ip';

/** An IP address as the checker reads it and the evaluator holds it (scheme/ip.ts). */
type IpValue = { family: 4; value: number } | { family: 6; value: bigint };

/** A right-hand literal, by the left side's type, as the checker reads it (check/typed-ast.ts). */
export interface LiteralOf {
  Bytes: string;
  Int: bigint;
  Ip: IpValue;
}

/**
 * A left value at run time (scheme/values.ts): Bytes a binary string (one character per byte), Int a
 * number, Ip as above. Missing values never reach an operator: the comparison is false before.
 */
export interface ValueOf {
  Bytes: string;
  Int: number;
  Ip: IpValue;
}

/**
 * The orderings, as JavaScript's relational operators: both tiers of the evaluator and the test
 * interpreter know what each means for every comparable type (Bytes byte-wise, Int numerically, Ip within
 * one family, where addresses of different families are only `!==`).
 */
export type Relation = '===' | '!==' | '<' | '<=' | '>' | '>=';

/** A test of a left value of type K against one literal. */
export interface LiteralTest<K extends ComparableType> {
  /** Prepares the test once per comparison (the literal is known), for every value it then sees. */
  check(literal: LiteralOf[K]): (value: ValueOf[K]) => boolean;
  /**
   * The same test as JavaScript source for the generated-code tier, over the value `a` (present) and the
   * literal's source text (`literal` itself is for choosing the form). Without it (or when it answers
   * undefined), the generated code calls `check`'s function.
   */
  code?(a: string, source: string, literal: LiteralOf[K]): string | undefined;
}

/** The tests of an operator, by the left types it accepts. */
export type LiteralTests = { [K in ComparableType]?: LiteralTest<K> };

/**
 * What follows the operator: one literal read by the left side's type, a regex string (kept for the regex
 * engine), a wildcard string, or a set or list name.
 */
export type RhsKind = 'value' | 'regex' | 'wildcard' | 'set';

interface EntryBase {
  /** The symbolic spelling (`==`), printed in the formatter's symbols mode; the word is the entry's key. */
  symbol?: string;
  /** The left types the operator accepts; the checker reports any other as an unsupported operation. */
  types: readonly ComparableType[];
}

/**
 * One comparison operator. A `value` operator's meaning is a relation (an ordering, defined for every
 * comparable type) or a test per accepted type; the other right-hand sides are matched by the evaluator's
 * regex, wildcard and set engines, so their entries only say which.
 */
export type ComparisonEntry = EntryBase &
  (
    | { rhs: 'value'; relation: Relation }
    | { rhs: 'value'; test: LiteralTests }
    | { rhs: 'regex' | 'set' }
    | { rhs: 'wildcard'; strict: boolean }
  );

const ORDERED = ['Bytes', 'Int', 'Ip'] as const;

/**
 * The comparison operators, by word. Their order is that of the token labels, the ebnf and the syntax
 * property tests' choices; it changes no meaning, since spellings are matched longest first whatever it is.
 */
export const COMPARISON_OPERATORS = {
  eq: { symbol: '==', rhs: 'value', types: ORDERED, relation: '===' },
  ne: { symbol: '!=', rhs: 'value', types: ORDERED, relation: '!==' },
  lt: { symbol: '<', rhs: 'value', types: ORDERED, relation: '<' },
  le: { symbol: '<=', rhs: 'value', types: ORDERED, relation: '<=' },
  gt: { symbol: '>', rhs: 'value', types: ORDERED, relation: '>' },
  ge: { symbol: '>=', rhs: 'value', types: ORDERED, relation: '>=' },
  contains: {
    rhs: 'value',
    types: ['Bytes'],
    test: {
      Bytes: {
        // Every value contains the empty string; no need to search.
        check: (literal) => (literal === '' ? () => true : containsSearch(literal)),
        // The generated code calls the written search (check's), and inlines `includes` where it is the search.
        code: (a, source, literal) =>
          literal === '' ? 'true' : hasWrittenSearch(literal) ? undefined : `${a}.includes(${source})`,
      },
    },
  },
  matches: { symbol: '~', rhs: 'regex', types: ['Bytes'] },
  wildcard: { rhs: 'wildcard', strict: false, types: ['Bytes'] },
  'strict wildcard': { rhs: 'wildcard', strict: true, types: ['Bytes'] },
  in: { rhs: 'set', types: ORDERED },
  bitwise_and: {
    symbol: '&',
    rhs: 'value',
    types: ['Int'],
    test: {
      Int: {
        check(literal) {
          // JS `&` works on 32 bits; use it only when both sides fit in 31.
          const n = Number(literal);
          if (literal >= 0n && literal < 2n ** 31n)
            return (v) => (v >= 0 && v < 2 ** 31 ? (v & n) !== 0 : (BigInt(v) & literal) !== 0n);
          return (v) => (BigInt(v) & literal) !== 0n;
        },
      },
    },
  },
} as const satisfies Record<string, ComparisonEntry>;

export type ComparisonOperator = keyof typeof COMPARISON_OPERATORS;

/** The entry of an operator, as the common shape (the constant's own type is each entry's literal type). */
export const comparisonOperator = (op: ComparisonOperator): ComparisonEntry => COMPARISON_OPERATORS[op];

export const comparisonOperatorNames = Object.keys(COMPARISON_OPERATORS) as ComparisonOperator[];

/** The logical operators from the loosest to the tightest: `a or b xor c and d` is `a or (b xor (c and d))`. */
export const LOGICAL_OPERATORS = [
  { op: 'or', symbol: '||' },
  { op: 'xor', symbol: '^^' },
  { op: 'and', symbol: '&&' },
] as const;

export type LogicalOperator = (typeof LOGICAL_OPERATORS)[number]['op'];

/** Binding strength: higher binds tighter (`not` binds tighter than all of them). */
export const LOGICAL_PRECEDENCE = Object.fromEntries(
  LOGICAL_OPERATORS.map(({ op }, i) => [op, i + 1]),
) as Record<LogicalOperator, number>;

/** The symbol of each logical operator (its word is its name), for the formatter's symbols mode. */
export const LOGICAL_SYMBOLS = Object.fromEntries(
  LOGICAL_OPERATORS.map(({ op, symbol }) => [op, symbol]),
) as Record<LogicalOperator, string>;

// ---- spellings ----

/** A comparison operator's spelling, as the lexer matches it. */
export interface ComparisonSpelling {
  readonly kind: 'comparison';
  readonly text: string;
  readonly op: ComparisonOperator;
  readonly rhs: RhsKind;
}

export interface LogicalSpelling {
  readonly kind: 'logical';
  readonly text: string;
  readonly op: LogicalOperator;
}

/** Word first, then symbol: the order of the token labels and the ebnf. */
export function spellingsOf(op: ComparisonOperator): string[] {
  const { symbol } = comparisonOperator(op);
  return symbol === undefined ? [op] : [op, symbol];
}

const comparisonSpellings: ComparisonSpelling[] = comparisonOperatorNames.flatMap((op) =>
  spellingsOf(op).map((text) => ({ kind: 'comparison' as const, text, op, rhs: comparisonOperator(op).rhs })),
);

const logicalSpellings: LogicalSpelling[] = LOGICAL_OPERATORS.flatMap(({ op, symbol }) =>
  [op, symbol].map((text) => ({ kind: 'logical' as const, text, op })),
);

/**
 * Spellings by their first UTF-16 unit, longest first, so that `<=` is tried before `<`. Matching is by
 * prefix with no word boundary, as in the reference engine (`lte` is `lt` then `e`).
 */
function byFirstUnit<S extends { text: string }>(spellings: readonly S[]): (S[] | undefined)[] {
  const table: (S[] | undefined)[] = [];
  for (const spelling of spellings) {
    const unit = spelling.text.charCodeAt(0);
    const list = table[unit] ?? [];
    list.push(spelling);
    list.sort((a, b) => b.text.length - a.text.length);
    table[unit] = list;
  }
  return table;
}

// Comparison matching also sees the logical spellings: where a longer logical one matches (`&&`), the
// text is that logical operator, not a comparison (`&`) followed by more text.
const comparisonCandidates = byFirstUnit<ComparisonSpelling | LogicalSpelling>([
  ...comparisonSpellings,
  ...logicalSpellings,
]);
const logicalCandidates = byFirstUnit(logicalSpellings);

/** The comparison operator spelled at `pos`, by prefix. */
export function matchComparison(text: string, pos: number): ComparisonSpelling | undefined {
  const candidates = comparisonCandidates[text.charCodeAt(pos)];
  if (candidates === undefined) return undefined;
  for (const spelling of candidates)
    if (text.startsWith(spelling.text, pos)) return spelling.kind === 'comparison' ? spelling : undefined;
  return undefined;
}

/** The logical operator spelled at `pos`, by prefix. */
export function matchLogical(text: string, pos: number): LogicalSpelling | undefined {
  const candidates = logicalCandidates[text.charCodeAt(pos)];
  if (candidates === undefined) return undefined;
  for (const spelling of candidates) if (text.startsWith(spelling.text, pos)) return spelling;
  return undefined;
}

/** `word symbol | word …` for the operators taking `rhs`: the token labels the syntax diagrams show. */
export function comparisonLabel(...rhs: RhsKind[]): string {
  return comparisonOperatorNames
    .filter((op) => rhs.includes(comparisonOperator(op).rhs))
    .map((op) => spellingsOf(op).join(' '))
    .join(' | ');
}

/** `and && | xor ^^ | or ||`: tightest first, as the logical token's label has always read. */
export const logicalLabel = [...LOGICAL_OPERATORS]
  .reverse()
  .map(({ op, symbol }) => `${op} ${symbol}`)
  .join(' | ');
