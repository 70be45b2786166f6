import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_EXPRESSION_LENGTH,
  type ValidateOptions,
  type ValidateResult,
  validate,
} from '../../src/check/validate.js';
import type { Expression } from '../../src/lang/ast.js';
import { formatDiagnostic } from '../../src/lang/diagnostics.js';
import { type FormatOptions, formatExpression } from '../../src/lang/format.js';
import { spanOf } from '../../src/lang/position.js';
import { PHASES, PLANS } from '../../src/scheme/profile.js';
import { cloudflareScheme } from '../../src/scheme/scheme.js';
import { lexerPieces } from './arbitraries.js';
import { CALLS, typedFilter } from './typed-arbitraries.js';

const TYPED_RUNS = 1500;
const FUZZ_RUNS = 2000;

/** The number of `matches` comparisons, which Cloudflare limits per rule. */
function countRegexes(node: Expression): number {
  switch (node.kind) {
    case 'logical':
      return node.operands.reduce((sum, operand) => sum + countRegexes(operand), 0);
    case 'not':
    case 'quantifier':
      return countRegexes(node.operand);
    case 'comparison':
      return node.op === 'matches' ? 1 : 0;
    case 'predicate':
      return 0;
  }
}

function describeResult(source: string, result: ValidateResult): string {
  return [source, ...result.diagnostics.map((d) => `${d.code}: ${formatDiagnostic(source, d)}`)].join('\n');
}

/** `source` is valid: no error, only warnings (lints), and without lints no diagnostic at all. */
function expectValid(source: string, options: ValidateOptions = {}): void {
  const result = validate(source, options);
  const context = describeResult(source, result);
  expect(
    result.diagnostics.filter((d) => d.severity === 'error'),
    context,
  ).toEqual([]);
  expect(result.ok, context).toBe(true);
  expect(result.ast, context).toBeDefined();
  const quiet = validate(source, { ...options, lints: false });
  expect(quiet.diagnostics, describeResult(source, quiet)).toEqual([]);
}

describe.each<NonNullable<FormatOptions['operators']>>(['words', 'symbols'])(
  'validate on printed random well-typed expressions (%s)',
  (operators) => {
    it('accepts every one', () => {
      fc.assert(
        fc.property(typedFilter, (ast) => {
          const source = formatExpression(ast, { operators });
          const tooLong = [...source].length > MAX_EXPRESSION_LENGTH;
          const regexes = countRegexes(ast);
          if (!tooLong && regexes <= 64) {
            expectValid(source);
            return;
          }
          // Valid but over one of Cloudflare's per-rule limits: that limit, and nothing else, is reported.
          const result = validate(source);
          expect(result.ok, describeResult(source, result)).toBe(false);
          expect(result.diagnostics[0]?.code).toBe(tooLong ? 'expression-too-long' : 'regex-limit');
          if (tooLong && regexes <= 64) expectValid(source, { maxLength: Number.POSITIVE_INFINITY });
        }),
        { numRuns: TYPED_RUNS },
      );
    });
  },
);

describe('the typed expression generator', () => {
  const samples = fc.sample(typedFilter, { numRuns: 3000, seed: 42 }).map((ast) => formatExpression(ast));

  it('covers every function a filter may use', () => {
    const generated = new Set(CALLS.map((spec) => spec.name));
    // Managed rules' own functions are covered by test/props/waf-functions.test.ts.
    const filterFunctions = [...cloudflareScheme.functions.values()].filter(
      (fn) => !fn.rewriteOnly && !fn.managedOnly,
    );
    expect(filterFunctions.map((fn) => fn.name).filter((name) => !generated.has(name))).toEqual([]);
    const missing = [...generated].filter((name) => !samples.some((source) => source.includes(`${name}(`)));
    expect(missing).toEqual([]);
  });

  it('reaches the constructs the property is about', () => {
    const constructs: Record<string, RegExp> = {
      'any over [*]': /any\([^)]*\[\*\]/,
      'all over [*]': /all\([^)]*\[\*\]/,
      'a call mapped over [*]': /\(\w[\w.]*\[\*\][^)]*\)\[\*\]/,
      'nested [*][*]': /\[\*\]\[\*\]/,
      'an array index': /\[\d+\]/,
      'a map key': /\["[^"]*"\]/,
      matches: / matches /,
      wildcard: / wildcard "/,
      'strict wildcard': / strict wildcard /,
      contains: / contains /,
      bitwise_and: / bitwise_and /,
      'an Int set range': /in \{[^}]*-?\d+\.\.-?\d/,
      'an IP CIDR': /in \{[^}]*[\d:a-fA-F]\/\d+/,
      'an IPv6 address': / (eq|ne|lt|le|gt|ge) [0-9a-fA-F]*::/,
      'an embedded IPv4': /:\d+\.\d+\.\d+\.\d+/,
      'a managed list': /in \$cf\./,
      'an account list': /in \$(?!cf\.)/,
      'a hex integer': / 0x[0-9a-fA-F]+/,
      'an octal integer': / 0[0-7]+\b/,
      'the i64 minimum': /-9223372036854775808/,
      'hex bytes': / (eq|ne|lt|le|gt|ge|contains) [0-9a-fA-F]{2}[:.-][0-9a-fA-F]{2}/,
      'a raw string': /r#*"/,
      'an escaped byte': /\\x[0-9a-f]{2}/,
      'a non-ASCII character': /[\u0080-\u{10ffff}]/u,
      'a Bool predicate': /(^|\(|and |or |xor |not )(ssl|cf\.client\.bot)\b/,
      not: /not /,
      xor: / xor /,
    };
    const missing = Object.entries(constructs)
      .filter(([, pattern]) => !samples.some((source) => pattern.test(source)))
      .map(([name]) => name);
    expect(missing).toEqual([]);
  });
});

// ---- validate never throws, and its diagnostics point into the input ----

const options: fc.Arbitrary<ValidateOptions> = fc.record(
  {
    plan: fc.constantFrom(...PLANS),
    phase: fc.constantFrom(...PHASES),
    expression: fc.constantFrom('filter' as const, 'rewrite' as const),
    lints: fc.constantFrom(false as const, {}),
  },
  { requiredKeys: [] },
);

function checkDiagnostics(source: string, result: ValidateResult): void {
  const context = describeResult(source, result);
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  expect(result.ok, context).toBe(errors.length === 0);
  if (result.ok) expect(result.ast, context).toBeDefined();
  for (const d of result.diagnostics) {
    expect(['error', 'warning', 'info'], context).toContain(d.severity);
    expect(d.code, context).toMatch(/\S/);
    expect(d.message, context).toMatch(/\S/);
    expect(d.span.start, context).toBeGreaterThanOrEqual(0);
    expect(d.span.end, context).toBeGreaterThanOrEqual(d.span.start);
    expect(d.span.end, context).toBeLessThanOrEqual(source.length);
    // Line and column must describe the start offset (a span copied from another node would not).
    const { line, column } = spanOf(source, d.span.start, d.span.end);
    expect({ line: d.span.line, column: d.span.column }, context).toEqual({ line, column });
    expect(formatDiagnostic(source, d)).toMatch(/^Filter (parsing error|warning|note) \(\d+:\d+\):\n/);
  }
}

function neverThrows(source: string, opts: ValidateOptions = {}): void {
  let result: ValidateResult | undefined;
  expect(() => {
    result = validate(source, opts);
  }, JSON.stringify(source)).not.toThrow();
  checkDiagnostics(source, result as ValidateResult);
}

/** Pieces that matter to the lexer and the checker, so that random text reaches deep into both. */
const piece = fc.constantFrom(
  ...lexerPieces,
  ' xor ',
  'all(',
  ' eq ',
  ' == ',
  ' in {',
  ' in $cf.vpn',
  ' matches ',
  ' wildcard ',
  ' strict wildcard ',
  ' contains ',
  '[*]',
  '["host"]',
  '[0]',
  'http.host',
  'ip.src',
  'ssl',
  'tcp.dstport',
  'http.request.headers',
  'http.request.headers.names',
  'lower(',
  'concat(',
  'substring(',
  'len(',
  'cidr(',
  'starts_with(',
  'has_key(',
  'regex_replace(',
  '10.0.0.0/8',
  '2001:db8::1',
  '..',
  '0x7f',
  '-9223372036854775809',
  'é',
  '😀',
);

describe('validate never throws', () => {
  it('on random text of any characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), options, (source, opts) =>
        neverThrows(source, opts),
      ),
      { numRuns: FUZZ_RUNS },
    );
  });

  it('on random sequences of lexically significant pieces', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), options, (pieces, opts) =>
        neverThrows(pieces.join(''), opts),
      ),
      { numRuns: FUZZ_RUNS },
    );
  });

  it('on mutations of valid typed expressions', () => {
    const mutation = fc.record({
      ast: typedFilter,
      at: fc.nat(),
      length: fc.nat({ max: 8 }),
      insert: fc.array(piece, { maxLength: 3 }).map((pieces) => pieces.join('')),
    });
    fc.assert(
      fc.property(mutation, options, ({ ast, at, length, insert }, opts) => {
        const valid = formatExpression(ast);
        const start = at % (valid.length + 1);
        neverThrows(valid.slice(0, start) + insert + valid.slice(start + length), opts);
      }),
      { numRuns: FUZZ_RUNS },
    );
  });

  it('on valid typed expressions under any plan, phase and expression kind', () => {
    fc.assert(
      fc.property(typedFilter, options, (ast, opts) => neverThrows(formatExpression(ast), opts)),
      { numRuns: FUZZ_RUNS },
    );
  });

  it('on inputs over the length limit', () => {
    neverThrows('ssl or '.repeat(700));
    neverThrows(`http.host eq "${'😀'.repeat(MAX_EXPRESSION_LENGTH)}"`);
  });
});
