import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type {
  Argument,
  ComparisonExpression,
  ComparisonOperator,
  Expression,
  LogicalOperator,
  RightHandSide,
  Span,
  StringLiteral,
  ValueExpression,
} from '../../src/lang/ast.js';
import { formatExpression } from '../../src/lang/format.js';
import { parse } from '../../src/lang/parse.js';
import { stripSpans } from '../props/arbitraries.js';

// ---- tiny AST builders ----

const span: Span = { start: 0, end: 0, line: 1, column: 1 };
const field = (name: string): ValueExpression => ({ kind: 'field', name, span });
const pred = (name: string): Expression => ({ kind: 'predicate', value: field(name), span });
const logical = (op: LogicalOperator, ...operands: Expression[]): Expression => ({
  kind: 'logical',
  op,
  operands,
  span,
});
const and = (...operands: Expression[]) => logical('and', ...operands);
const or = (...operands: Expression[]) => logical('or', ...operands);
const xor = (...operands: Expression[]) => logical('xor', ...operands);
const not = (operand: Expression): Expression => ({ kind: 'not', operand, span });
const any = (operand: Expression): Expression => ({ kind: 'quantifier', quantifier: 'any', operand, span });
const call = (name: string, ...args: Argument[]): ValueExpression => ({ kind: 'call', name, args, span });
const bare = (text: string): RightHandSide & Argument => ({ kind: 'bare', text, span });
const str = (value: string, raw = false): StringLiteral => ({ kind: 'string', value, raw, span });
const regex = (pattern: string, raw = false): RightHandSide => ({ kind: 'regex', pattern, raw, span });
const cmp = (
  lhs: ValueExpression | string,
  op: ComparisonOperator,
  rhs: RightHandSide,
): ComparisonExpression => ({
  kind: 'comparison',
  lhs: typeof lhs === 'string' ? field(lhs) : lhs,
  op,
  rhs,
  span,
});
const eq = (name: string, value: string) => cmp(name, 'eq', bare(value));

const a = pred('a');
const b = pred('b');
const c = pred('c');

/** How a string literal prints on the right of `eq`. */
const printString = (value: string, raw = false) =>
  formatExpression(cmp('x', 'eq', str(value, raw))).slice(5);
const printRegex = (pattern: string, raw = false) =>
  formatExpression(cmp('x', 'matches', regex(pattern, raw))).slice(10);

describe('parentheses', () => {
  it('adds none where precedence already groups the tree', () => {
    expect(formatExpression(or(and(a, b), c))).toBe('a and b or c');
    expect(formatExpression(xor(and(a, b), c))).toBe('a and b xor c');
    expect(formatExpression(or(xor(a, b), c))).toBe('a xor b or c');
    expect(formatExpression(and(not(a), b))).toBe('not a and b');
    expect(formatExpression(and(a, b, c))).toBe('a and b and c');
  });

  it('keeps a weaker operand grouped', () => {
    expect(formatExpression(and(a, or(b, c)))).toBe('a and (b or c)');
    expect(formatExpression(xor(or(a, b), c))).toBe('(a or b) xor c');
  });

  it('keeps an operand of the same operator grouped, since the parser would flatten it', () => {
    expect(formatExpression(or(a, or(b, c)))).toBe('a or (b or c)');
    expect(formatExpression(and(and(a, b), c))).toBe('(a and b) and c');
  });

  it('groups a logical operand of not, and nothing else', () => {
    expect(formatExpression(not(and(a, b)))).toBe('not (a and b)');
    expect(formatExpression(not(not(a)))).toBe('not not a');
    expect(formatExpression(not(eq('a', '1')))).toBe('not a eq 1');
    expect(formatExpression(not(any(eq('a', '1'))))).toBe('not any(a eq 1)');
  });

  it('needs none inside a quantifier', () => {
    expect(formatExpression(any(or(a, b)))).toBe('any(a or b)');
  });
});

describe('symbols mode', () => {
  const symbols = { operators: 'symbols' } as const;

  it('prints the logical symbols, with ! attached to its operand', () => {
    expect(formatExpression(or(and(a, not(b)), xor(a, c)), symbols)).toBe('a && !b || a ^^ c');
    expect(formatExpression(not(not(a)), symbols)).toBe('!!a');
    expect(formatExpression(not(or(a, b)), symbols)).toBe('!(a || b)');
  });

  it('prints comparison symbols where they exist', () => {
    const ops: [ComparisonOperator, string][] = [
      ['eq', '=='],
      ['ne', '!='],
      ['lt', '<'],
      ['le', '<='],
      ['gt', '>'],
      ['ge', '>='],
      ['bitwise_and', '&'],
      ['contains', 'contains'],
    ];
    for (const [op, symbol] of ops) {
      expect(formatExpression(cmp('x', op, bare('1')), symbols)).toBe(`x ${symbol} 1`);
    }
    expect(formatExpression(cmp('x', 'matches', regex('a')), symbols)).toBe('x ~ "a"');
    expect(formatExpression(cmp('x', 'wildcard', str('*')), symbols)).toBe('x wildcard "*"');
    expect(formatExpression(cmp('x', 'strict wildcard', str('*')), symbols)).toBe('x strict wildcard "*"');
    expect(formatExpression(cmp('x', 'in', { kind: 'list', name: 'l', span }), symbols)).toBe('x in $l');
  });

  it('defaults to words', () => {
    expect(formatExpression(and(a, cmp('x', 'bitwise_and', bare('3'))))).toBe('a and x bitwise_and 3');
  });
});

describe('quoted strings', () => {
  it('escapes quotes and backslashes', () => {
    expect(printString('say "hi"')).toBe('"say \\"hi\\""');
    expect(printString('C:\\dir')).toBe('"C:\\\\dir"');
  });

  it('escapes control bytes and DEL as \\xHH', () => {
    expect(printString('a\nb\x00\x1f\x7f')).toBe('"a\\x0ab\\x00\\x1f\\x7f"');
  });

  it('writes valid UTF-8 as the text it encodes', () => {
    expect(printString('caf\xc3\xa9')).toBe('"café"');
    expect(printString('\xf0\x9f\x98\x80')).toBe('"😀"');
    expect(printString('\xe2\x82\xac')).toBe('"€"');
  });

  it('escapes bytes that are not valid UTF-8', () => {
    expect(printString('\xff')).toBe('"\\xff"');
    expect(printString('\xc3')).toBe('"\\xc3"'); // truncated sequence
    expect(printString('\xc3(')).toBe('"\\xc3("');
    expect(printString('\xc0\xaf')).toBe('"\\xc0\\xaf"'); // overlong
    expect(printString('\xed\xa0\x80')).toBe('"\\xed\\xa0\\x80"'); // UTF-16 surrogate
    expect(printString('\xf4\x90\x80\x80')).toBe('"\\xf4\\x90\\x80\\x80"'); // beyond U+10FFFF
    expect(printString('\x80\xc3\xa9')).toBe('"\\x80é"');
  });
});

describe('raw strings', () => {
  it('uses no hashes when the content has no quote', () => {
    expect(printString('a\\b#', true)).toBe('r"a\\b#"');
    expect(printString('', true)).toBe('r""');
  });

  it('uses one more hash than the longest run after a quote', () => {
    expect(printString('a"b', true)).toBe('r#"a"b"#');
    expect(printString('"#', true)).toBe('r##""#"##');
    expect(printString('x"##y"#', true)).toBe('r###"x"##y"#"###');
    expect(printString('#"', true)).toBe('r#"#""#');
  });

  it('decodes UTF-8 content', () => {
    expect(printString('\xc3\xa9"', true)).toBe('r#"é""#');
  });

  it('falls back to a quoted string for bytes that are not UTF-8', () => {
    expect(printString('\xff', true)).toBe('"\\xff"');
  });
});

describe('regex literals', () => {
  it('copies escapes for the regex engine', () => {
    expect(printRegex('^\\d+\\.\\\\$')).toBe('"^\\d+\\.\\\\$"');
  });

  it('escapes a quote outside a character class only', () => {
    expect(printRegex('say "hi"')).toBe('"say \\"hi\\""');
    expect(printRegex('["]x')).toBe('"["]x"');
    expect(printRegex('[\\"]')).toBe('"[\\"]"');
    expect(printRegex('[[]"')).toBe('"[[]\\""');
    expect(printRegex('\\["')).toBe('"\\[\\""');
  });

  it('writes non-ASCII text as text', () => {
    expect(printRegex('\xc3\xa9+')).toBe('"é+"');
  });

  it('falls back to a raw string for patterns the quoted form cannot hold', () => {
    expect(printRegex('a\\"b')).toBe('r#"a\\"b"#'); // `\"` outside a class would read back as `"`
    expect(printRegex('a\\')).toBe('r"a\\"'); // a trailing backslash would escape the closing quote
    expect(printRegex('[a')).toBe('r"[a"'); // inside a class, the closing quote would not close
  });

  it('prints raw patterns raw', () => {
    expect(printRegex('\\d"', true)).toBe('r#"\\d""#');
  });

  it('does its best with bytes that are not UTF-8', () => {
    expect(printRegex('\xff"')).toBe('"\\xff\\""');
    expect(printRegex('\xff', true)).toBe('"\\xff"');
  });
});

describe('other right-hand sides and values', () => {
  it('prints sets on one line', () => {
    const set: RightHandSide = { kind: 'set', items: [bare('80'), bare('443'), str('a b')], span };
    expect(formatExpression(cmp('port', 'in', set))).toBe('port in {80 443 "a b"}');
  });

  it('prints list references', () => {
    expect(formatExpression(cmp('ip.src', 'in', { kind: 'list', name: 'cf.open_proxies', span }))).toBe(
      'ip.src in $cf.open_proxies',
    );
  });

  it('prints bare literals verbatim', () => {
    expect(
      formatExpression(cmp('ip.src', 'in', { kind: 'set', items: [bare('10.0.0.0/8'), bare('::1')], span })),
    ).toBe('ip.src in {10.0.0.0/8 ::1}');
    expect(formatExpression(eq('x', '0x1f'))).toBe('x eq 0x1f');
  });

  it('prints index chains', () => {
    const headers = field('http.request.headers');
    const first: ValueExpression = {
      kind: 'index',
      target: { kind: 'index', target: headers, index: { kind: 'map-key', key: 'x-"a"' }, span },
      index: { kind: 'array-index', index: 0 },
      span,
    };
    const each: ValueExpression = { kind: 'index', target: first, index: { kind: 'map-each' }, span };
    expect(formatExpression({ kind: 'predicate', value: each, span })).toBe(
      'http.request.headers["x-\\"a\\""][0][*]',
    );
  });

  it('separates arguments with a comma and a space', () => {
    const lower = call('lower', field('http.host'));
    expect(formatExpression(cmp(call('concat', lower, str('.'), bare('1')), 'eq', str('x')))).toBe(
      'concat(lower(http.host), ".", 1) eq "x"',
    );
    expect(formatExpression({ kind: 'predicate', value: call('f'), span })).toBe('f()');
  });

  it('parenthesises logical and predicate arguments only', () => {
    const f = (...args: Argument[]) =>
      formatExpression({ kind: 'predicate', value: call('f', ...args), span });
    expect(f(and(a, b))).toBe('f((a and b))');
    expect(f(pred('ssl'))).toBe('f((ssl))');
    expect(f(field('ssl'))).toBe('f(ssl)');
    expect(f(not(a), any(b))).toBe('f(not a, any(b))');
    expect(f(eq('x', '1'))).toBe('f(x eq 1)');
    // `a eq 1` would read back as the literal `a` followed by text: it keeps parentheses.
    expect(f(eq('a', '1'))).toBe('f((a eq 1))');
  });
});

describe('formatting parsed sources', () => {
  const canonical = (source: string, operators?: 'words' | 'symbols') => {
    const { ast, diagnostics } = parse(source);
    expect(diagnostics, source).toEqual([]);
    return formatExpression(ast as Expression, { operators });
  };

  it('removes redundant parentheses and keeps the needed ones', () => {
    expect(canonical('(a and b) or c')).toBe('a and b or c');
    expect(canonical('a and (b or c)')).toBe('a and (b or c)');
    expect(canonical('not (a and b)')).toBe('not (a and b)');
    expect(canonical('a or (b or c)')).toBe('a or (b or c)');
    expect(canonical('((a))')).toBe('a');
  });

  it('normalises spacing and operator spelling', () => {
    expect(canonical('http.host  ==  "x"&&ssl')).toBe('http.host eq "x" and ssl');
    expect(canonical('ip.src in {10.0.0.0/8   192.0.2.1}')).toBe('ip.src in {10.0.0.0/8 192.0.2.1}');
    expect(canonical('not ssl and port eq 80', 'symbols')).toBe('!ssl && port == 80');
    expect(canonical('lower( http.host )  eq "x"')).toBe('lower(http.host) eq "x"');
  });

  it('canonicalises string escapes', () => {
    expect(canonical('x eq "\\101\\x62"')).toBe('x eq "Ab"');
    expect(canonical('x eq "\\xc3\\xa9"')).toBe('x eq "é"');
    expect(canonical('x eq r##"a"b"##')).toBe('x eq r#"a"b"#');
  });

  it('keeps regex escapes', () => {
    expect(canonical('x matches "a\\"b[\\"]\\d"')).toBe('x matches "a\\"b[\\"]\\d"');
    expect(canonical('x ~ "[\\"]"', 'symbols')).toBe('x ~ "[\\"]"');
  });
});

describe('round trip over the corpus', () => {
  const corpus: { expr: string }[] = JSON.parse(
    readFileSync(new URL('./corpus.json', import.meta.url), 'utf8'),
  );
  const parsed = corpus.flatMap(({ expr }) => {
    const { ast } = parse(expr);
    return ast ? [{ expr, ast }] : [];
  });

  it.each(['words', 'symbols'] as const)('reprints every expression that parses (%s)', (operators) => {
    expect(parsed.length).toBeGreaterThan(0);
    for (const { expr, ast } of parsed) {
      const printed = formatExpression(ast, { operators });
      const again = parse(printed);
      expect(again.diagnostics, `${expr} → ${printed}`).toEqual([]);
      expect(stripSpans(again.ast), `${expr} → ${printed}`).toEqual(stripSpans(ast));
    }
  });
});

describe('arguments that would read back differently', () => {
  it('keeps the parentheses of a comparison on an all-hex field name', () => {
    // Found by the mutation fuzzer: without them, `a gt b` as an argument reads back as the literal `a`.
    const once = formatExpression(parse('f((a > b), c) eq 1').ast as Expression);
    expect(once).toBe('f((a gt b), c) eq 1');
    expect(formatExpression(parse(once).ast as Expression)).toBe(once);
  });
});
