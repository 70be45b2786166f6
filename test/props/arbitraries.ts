/**
 * fast-check arbitraries for random, syntactically valid ASTs: every tree generated here has a source text
 * (the canonical format) that parses back to it, modulo spans.
 */
import fc from 'fast-check';
import type {
  Argument,
  BareLiteral,
  ComparisonExpression,
  ComparisonOperator,
  Expression,
  FieldReference,
  FunctionCall,
  IndexAccess,
  IndexSelector,
  ListReference,
  LogicalExpression,
  NotExpression,
  PredicateExpression,
  QuantifierExpression,
  RegexLiteral,
  SetLiteral,
  Span,
  StringLiteral,
  ValueExpression,
} from '../../src/lang/ast.js';
import { comparisonOperator, comparisonOperatorNames } from '../../src/lang/operators.js';

/** Spans are not part of what the properties compare, so every node shares this one. */
export const span: Span = { start: 0, end: 0, line: 1, column: 1 };

/** Characters and words that matter to the lexer, so that random text reaches deep into it. */
export const lexerPieces: readonly string[] = [
  ...'()[]{},$*"#\\r .:-/!=<>~&|^\t\n0123456789abcdefxz_A'.split(''),
  'and ',
  ' or ',
  'not ',
  'any(',
];

/** Words the lexer treats as operators or keywords somewhere; no name segment equals one of them. */
const KEYWORDS = new Set([
  'and',
  'or',
  'xor',
  'not',
  'eq',
  'ne',
  'lt',
  'le',
  'gt',
  'ge',
  'contains',
  'matches',
  'wildcard',
  'strict',
  'in',
  'bitwise_and',
  'any',
  'all',
  'true',
  'false',
]);

/**
 * One name segment. It must hold a letter g–z or `_`, because in argument position a word made only of hex
 * digits is read as a bare literal (`cafe`, `abc`).
 */
const segment = fc
  .stringMatching(/^[a-z][a-z0-9_]{0,7}$/)
  .filter((s) => /[g-z_]/.test(s) && !KEYWORDS.has(s));

/** A leading segment: `not`, `any` and `all` match as keyword prefixes at the start of an expression. */
const leadingSegment = segment.filter((s) => !/^(not|any|all)/.test(s));

export const fieldName: fc.Arbitrary<string> = fc
  .tuple(leadingSegment, fc.array(segment, { maxLength: 2 }))
  .map(([first, rest]) => [first, ...rest].join('.'));

export const functionName: fc.Arbitrary<string> = leadingSegment;

// ---- literals ----

/** Binary string (one char per byte) of the UTF-8 encoding of `text`. */
export function utf8Binary(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

const byteChar = fc.integer({ min: 0, max: 255 }).map((b) => String.fromCharCode(b));
const codePointText = fc.string({ unit: 'binary', minLength: 1, maxLength: 1 });

/** Any bytes, biased towards the ones the printer must escape and towards valid multi-byte UTF-8. */
export const anyBytes: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      byteChar,
      fc.constantFrom('"', '\\', '#', ' ', 'a', 'x', '0', '7', '\n', '\x7f', '\x80', '\xff'),
      codePointText.map(utf8Binary),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

/**
 * Valid UTF-8 text (as bytes), with quotes and hashes frequent enough to exercise the raw-string fence and
 * control characters frequent enough to exercise escapes.
 */
export const utf8Bytes: fc.Arbitrary<string> = fc
  .array(fc.oneof(codePointText, fc.constantFrom('"', '#', '"#', '"##', '\\', 'r', ' ', '\n', '\x00', 'é')), {
    maxLength: 10,
  })
  .map((parts) => utf8Binary(parts.join('')));

export const stringLiteral: fc.Arbitrary<StringLiteral> = fc.oneof(
  anyBytes.map((value): StringLiteral => ({ kind: 'string', value, raw: false, span })),
  utf8Bytes.map((value): StringLiteral => ({ kind: 'string', value, raw: true, span })),
);

/**
 * A pattern the quoted-regex lexer can produce: anything but `\"` outside a class, a trailing lone `\` or
 * an unclosed class. A bare `"` outside a class is fine (it is written `\"`).
 */
const regexPlain = fc.oneof(
  fc.constantFrom(...'az.*+?^$()| "]#é\t', '{2}'),
  codePointText.filter((c) => !'\\"[]'.includes(c)),
);
const regexEscape = fc.constantFrom('\\\\', '\\.', '\\d', '\\[', '\\]', '\\x41', '\\n', '\\/', '\\é');
const regexClassItem = fc.constantFrom('a', '-', 'z', '"', '\\"', '\\]', '[', '\\\\', '^', 'é');
const regexClass = fc.array(regexClassItem, { maxLength: 4 }).map((items) => `[${items.join('')}]`);
export const quotedRegexPattern: fc.Arbitrary<string> = fc
  .array(fc.oneof(regexPlain, regexEscape, regexClass), { maxLength: 8 })
  .map((parts) => utf8Binary(parts.join('')));

export const regexLiteral: fc.Arbitrary<RegexLiteral> = fc.oneof(
  quotedRegexPattern.map((pattern): RegexLiteral => ({ kind: 'regex', pattern, raw: false, span })),
  utf8Bytes.map((pattern): RegexLiteral => ({ kind: 'regex', pattern, raw: true, span })),
);

/** Realistic unquoted literals: integers, ranges, IPs, CIDRs, byte strings. */
export const bareText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '80',
    '-12',
    '0',
    '0x1f',
    '017',
    '80..90',
    '10.0.0.0/8',
    '192.0.2.1',
    '10.0.0.1..10.0.0.255',
    '2001:db8::1',
    '2001:db8::/32',
    '::1',
    '01:02:03',
    'ab:cd:ef',
    'ab-cd-ef',
    'ab.cd.ef',
  ),
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
);

export const bareLiteral: fc.Arbitrary<BareLiteral> = bareText.map((text) => ({ kind: 'bare', text, span }));

export const setLiteral: fc.Arbitrary<SetLiteral> = fc
  .array(fc.oneof(stringLiteral, bareLiteral), { maxLength: 4 })
  .map((items) => ({ kind: 'set', items, span }));

export const listReference: fc.Arbitrary<ListReference> = fc
  .tuple(fc.boolean(), fc.stringMatching(/^[a-z0-9_]{1,10}$/))
  .map(([cf, name]) => ({ kind: 'list', name: cf ? `cf.${name}` : name, span }));

const indexSelector: fc.Arbitrary<IndexSelector> = fc.oneof(
  fc.integer({ min: 0, max: 0xffffffff }).map((index): IndexSelector => ({ kind: 'array-index', index })),
  // Map keys must be UTF-8: the lexer rejects other bytes there.
  utf8Bytes.map((key): IndexSelector => ({ kind: 'map-key', key })),
  fc.constant<IndexSelector>({ kind: 'map-each' }),
);

// ---- values and expressions ----

const COMPARISON_OPERATORS: ComparisonOperator[] = comparisonOperatorNames;

function rhsFor(op: ComparisonOperator): fc.Arbitrary<ComparisonExpression['rhs']> {
  switch (comparisonOperator(op).rhs) {
    case 'set':
      return fc.oneof(setLiteral, listReference);
    case 'regex':
      return regexLiteral;
    case 'wildcard':
      return stringLiteral;
    case 'value':
      return fc.oneof(stringLiteral, bareLiteral);
  }
}

const field: fc.Arbitrary<FieldReference> = fieldName.map((name) => ({ kind: 'field', name, span }));

/**
 * Arbitraries per remaining depth budget. Every recursive step spends one unit, so trees stay small; the
 * tables are memoised because building an arbitrary for depth d builds the ones for d − 1 many times over.
 */
const values = new Map<number, fc.Arbitrary<ValueExpression>>();
const expressions = new Map<number, fc.Arbitrary<Expression>>();

export function valueExpression(depth: number): fc.Arbitrary<ValueExpression> {
  let arb = values.get(depth);
  if (arb) return arb;
  if (depth <= 0) {
    arb = fc.oneof(
      { arbitrary: field, weight: 4 },
      {
        arbitrary: functionName.map((name): FunctionCall => ({ kind: 'call', name, args: [], span })),
        weight: 1,
      },
    );
  } else {
    const call = fc
      .tuple(functionName, fc.array(argument(depth - 1), { maxLength: 3 }))
      .map(([name, args]): FunctionCall => ({ kind: 'call', name, args, span }));
    const index = fc
      .tuple(valueExpression(depth - 1), indexSelector)
      .map(([target, selector]): IndexAccess => ({ kind: 'index', target, index: selector, span }));
    arb = fc.oneof(
      { arbitrary: field, weight: 3 },
      { arbitrary: call, weight: 2 },
      { arbitrary: index, weight: 2 },
    );
  }
  values.set(depth, arb);
  return arb;
}

export function argument(depth: number): fc.Arbitrary<Argument> {
  return fc.oneof(
    { arbitrary: valueExpression(depth), weight: 4 },
    { arbitrary: stringLiteral, weight: 2 },
    { arbitrary: bareLiteral, weight: 2 },
    { arbitrary: expression(depth), weight: 2 },
  );
}

export function comparison(depth: number): fc.Arbitrary<ComparisonExpression> {
  return fc
    .constantFrom(...COMPARISON_OPERATORS)
    .chain((op) =>
      fc
        .tuple(valueExpression(depth), rhsFor(op))
        .map(([lhs, rhs]): ComparisonExpression => ({ kind: 'comparison', lhs, op, rhs, span })),
    );
}

export function expression(depth: number): fc.Arbitrary<Expression> {
  let arb = expressions.get(depth);
  if (arb) return arb;
  const predicate = valueExpression(depth).map(
    (value): PredicateExpression => ({ kind: 'predicate', value, span }),
  );
  const leaves = [
    { arbitrary: comparison(depth) as fc.Arbitrary<Expression>, weight: 3 },
    { arbitrary: predicate as fc.Arbitrary<Expression>, weight: 2 },
  ];
  if (depth <= 0) {
    arb = fc.oneof(...leaves);
  } else {
    const inner = expression(depth - 1);
    const logical = fc
      .tuple(
        fc.constantFrom('and', 'xor', 'or') as fc.Arbitrary<LogicalExpression['op']>,
        fc.array(inner, { minLength: 2, maxLength: 4 }),
      )
      .map(([op, operands]): LogicalExpression => ({ kind: 'logical', op, operands, span }));
    const not = inner.map((operand): NotExpression => ({ kind: 'not', operand, span }));
    const quantifier = fc
      .tuple(fc.constantFrom('any', 'all') as fc.Arbitrary<'any' | 'all'>, inner)
      .map(
        ([quantifier, operand]): QuantifierExpression => ({ kind: 'quantifier', quantifier, operand, span }),
      );
    arb = fc.oneof(
      ...leaves,
      { arbitrary: logical, weight: 3 },
      { arbitrary: not, weight: 1 },
      { arbitrary: quantifier, weight: 1 },
    );
  }
  expressions.set(depth, arb);
  return arb;
}

/** Random expressions of bounded size. */
export const anyExpression: fc.Arbitrary<Expression> = expression(3);

/** A deep copy of `node` without any `span` property, for comparing trees modulo positions. */
export function stripSpans<T>(node: T): T {
  if (Array.isArray(node)) return node.map(stripSpans) as T;
  if (node === null || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'span') copy[key] = stripSpans(value);
  }
  return copy as T;
}
