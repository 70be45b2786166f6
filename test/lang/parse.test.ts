import { describe, expect, it } from 'vitest';
import type { Argument, Expression, Node } from '../../src/lang/ast.js';
import { formatDiagnostic } from '../../src/lang/diagnostics.js';
import { parse } from '../../src/lang/parse.js';

/** A compact rendering of the tree, e.g. `and(cmp(x eq "a"), pred(ssl))`. */
function shape(node: Node | Argument): string {
  switch (node.kind) {
    case 'logical':
      return `${node.op}(${node.operands.map(shape).join(', ')})`;
    case 'not':
      return `not(${shape(node.operand)})`;
    case 'quantifier':
      return `${node.quantifier}(${shape(node.operand)})`;
    case 'comparison':
      return `cmp(${shape(node.lhs)} ${node.op} ${shape(node.rhs)})`;
    case 'predicate':
      return `pred(${shape(node.value)})`;
    case 'field':
      return node.name;
    case 'call':
      return `${node.name}<${node.args.map(shape).join(', ')}>`;
    case 'index': {
      const i = node.index;
      const key =
        i.kind === 'map-each' ? '*' : i.kind === 'map-key' ? JSON.stringify(i.key) : String(i.index);
      return `${shape(node.target)}[${key}]`;
    }
    case 'string':
      return `${node.raw ? 'r' : ''}${JSON.stringify(node.value)}`;
    case 'regex':
      return `/${node.pattern}/${node.raw ? 'r' : ''}`;
    case 'bare':
      return `#${node.text}`;
    case 'set':
      return `{${node.items.map(shape).join(' ')}}`;
    case 'list':
      return `$${node.name}`;
  }
}

function tree(source: string): string {
  const result = parse(source);
  expect(result.diagnostics, `unexpected error for ${JSON.stringify(source)}`).toEqual([]);
  return shape(result.ast as Expression);
}

/** The error exactly as Cloudflare prints it. */
function error(source: string): string {
  const result = parse(source);
  expect(result.ast, `expected an error for ${JSON.stringify(source)}`).toBeUndefined();
  expect(result.diagnostics).toHaveLength(1);
  return formatDiagnostic(source, result.diagnostics[0] as (typeof result.diagnostics)[0]);
}

/** Just the message and the position. */
function problem(source: string): string {
  const [d] = parse(source).diagnostics;
  return d ? `${d.span.line}:${d.span.column} ${d.message}` : 'ok';
}

describe('operators and precedence', () => {
  it('flattens runs of one operator and orders and > xor > or', () => {
    expect(tree('t or t && t and t or t ^^ t and t || t')).toBe(
      'or(pred(t), and(pred(t), pred(t), pred(t)), xor(pred(t), and(pred(t), pred(t))), pred(t))',
    );
  });

  it('binds not to the next simple expression', () => {
    expect(tree('not t && f')).toBe('and(not(pred(t)), pred(f))');
    expect(tree('not http.host == "a" and ssl')).toBe('and(not(cmp(http.host eq "a")), pred(ssl))');
    expect(tree('!(a or b)')).toBe('not(or(pred(a), pred(b)))');
    expect(tree('not not x')).toBe('not(not(pred(x)))');
  });

  it('keeps parenthesised runs as separate nodes', () => {
    expect(tree('a and (b and c)')).toBe('and(pred(a), and(pred(b), pred(c)))');
    expect(tree('((a))')).toBe('pred(a)');
  });

  it('reads every comparison operator in both spellings', () => {
    const pairs: [string, string][] = [
      ['eq', '=='],
      ['ne', '!='],
      ['lt', '<'],
      ['le', '<='],
      ['gt', '>'],
      ['ge', '>='],
      ['bitwise_and', '&'],
    ];
    for (const [word, symbol] of pairs) {
      const op = word;
      expect(tree(`tcp.dstport ${word} 80`)).toBe(`cmp(tcp.dstport ${op} #80)`);
      expect(tree(`tcp.dstport ${symbol} 80`)).toBe(`cmp(tcp.dstport ${op} #80)`);
    }
    expect(tree('x matches "a.*"')).toBe('cmp(x matches /a.*/)');
    expect(tree('x ~ "a.*"')).toBe('cmp(x matches /a.*/)');
    expect(tree('x contains "a"')).toBe('cmp(x contains "a")');
    expect(tree('x wildcard "*.a"')).toBe('cmp(x wildcard "*.a")');
    expect(tree('x strict wildcard "*.A"')).toBe('cmp(x strict wildcard "*.A")');
    expect(tree('x in {1 2}')).toBe('cmp(x in {#1 #2})');
    expect(tree('ip.src in $cf.open_proxies')).toBe('cmp(ip.src in $cf.open_proxies)');
    expect(tree('a && b || c ^^ d')).toBe('or(and(pred(a), pred(b)), xor(pred(c), pred(d)))');
  });

  it('accepts the whole expression `true`, a bare Bool field or function', () => {
    expect(tree('true')).toBe('pred(true)');
    expect(tree('ssl')).toBe('pred(ssl)');
    expect(tree('starts_with(http.request.uri.path, "/api")')).toBe(
      'pred(starts_with<http.request.uri.path, "/api">)',
    );
  });
});

describe('values, calls and indexes', () => {
  it('reads indexes of every kind, chained, on fields and calls', () => {
    expect(tree('http.request.headers["user-agent"][0] eq "x"')).toBe(
      'cmp(http.request.headers["user-agent"][0] eq "x")',
    );
    expect(tree('any(lower(http.request.headers.values[*])[*] contains "x")')).toBe(
      'any(cmp(lower<http.request.headers.values[*]>[*] contains "x"))',
    );
    expect(tree('x[ "k" ] == 1')).toBe('cmp(x["k"] eq #1)');
    expect(tree('x[0x10] == 1 and x[010] == 1')).toBe('and(cmp(x[16] eq #1), cmp(x[8] eq #1))');
  });

  it('reads function arguments as literals, values, comparisons or logical expressions', () => {
    expect(tree('f("a", r"b", 10, 10.0.0.1, -3, ab:cd)')).toBe(
      'pred(f<"a", r"b", #10, #10.0.0.1, #-3, #ab:cd>)',
    );
    expect(tree('f(cf.edge.server_port, x == 1, (a and b), not c, any(d[*]))')).toBe(
      'pred(f<cf.edge.server_port, cmp(x eq #1), and(pred(a), pred(b)), not(pred(c)), any(pred(d[*]))>)',
    );
    expect(tree('lower (http.host) == "a"')).toBe('cmp(lower<http.host> eq "a")');
    expect(tree('f() == 1')).toBe('cmp(f<> eq #1)');
    expect(tree('f(ab(x), ab[0], ab)')).toBe('pred(f<ab<x>, ab[0], #ab>)');
    expect(problem('x eq')).toBe('1:5 expected value');
    expect(problem('x matches')).toBe('1:10 unrecognised input');
    expect(problem('x in')).toBe('1:5 expected literal "{"');
  });

  it('allows a space before a call parenthesis but not before an index', () => {
    expect(error('http.request.headers ["host"] == "a"')).toBe(
      'Filter parsing error (1:22):\nhttp.request.headers ["host"] == "a"\n                     ^^^^^^^^^^^^^^^ expected ComparisonOp\n',
    );
  });
});

describe('literals', () => {
  it('decodes quoted strings with the reference escapes to bytes', () => {
    expect(tree('x == "a\\"b\\\\c\\x41\\101\\377é"')).toBe(
      `cmp(x eq ${JSON.stringify('a"b\\cAA\xff\xc3\xa9')})`,
    );
    expect(tree('x == "line\nbreak"')).toBe('cmp(x eq "line\\nbreak")');
    expect(tree('x == "\\x+1"')).toBe('cmp(x eq "\\u0001")'); // Rust's from_str_radix accepts a leading +
  });

  it('reports bad escapes like the reference engine', () => {
    expect(problem('x == "\\n"')).toBe('1:8 expected ", xHH or OOO after \\');
    expect(problem('x == "\\x3g"')).toBe('1:9 invalid digit found in string while parsing with radix 16');
    expect(problem('x == "\\08"')).toBe('1:8 invalid digit found in string while parsing with radix 8');
    expect(problem('x == "\\400"')).toBe(
      '1:8 number too large to fit in target type while parsing with radix 8',
    );
    expect(problem('x == "\\x4')).toBe('1:9 expected 2 characters, but found 1');
    expect(problem('x == "abc')).toBe('1:7 could not find an ending quote');
    expect(error('x == "ab\\')).toBe(
      'Filter parsing error (1:7):\nx == "ab\\\n      ^^^ could not find an ending quote\n',
    );
  });

  it('reads raw strings with up to 255 hashes', () => {
    expect(tree('x == r"a\\d"')).toBe('cmp(x eq r"a\\\\d")');
    expect(tree('x == r#"say "hi""#')).toBe('cmp(x eq r"say \\"hi\\"")');
    expect(tree('x == r##"a"#b"##')).toBe('cmp(x eq r"a\\"#b")');
    const hashes = '#'.repeat(255);
    expect(tree(`x == r${hashes}"z"${hashes}`)).toBe('cmp(x eq r"z")');
    const tooMany = '#'.repeat(256);
    expect(problem(`x == r${tooMany}"z"${tooMany}`)).toBe(
      "1:7 invalid raw string hash count, there can't be more than 255 #s",
    );
    expect(problem('x == r#"a"')).toBe('1:7 could not find an ending quote');
    expect(problem('x == r#a')).toBe('1:8 expected " or #');
    expect(problem('x == r#"ab"##')).toBe('1:13 unrecognised input'); // only one # closes it
  });

  it('reads regex strings with their own escaping rules', () => {
    expect(tree('x matches "\\d+\\.\\"q\\""')).toBe('cmp(x matches /\\d+\\."q"/)');
    expect(tree('x ~ "[a-z"]+" and ssl')).toBe('and(cmp(x matches /[a-z"]+/), pred(ssl))');
    expect(tree('x ~ r#"^/a"b$"#')).toBe('cmp(x matches /^/a"b$/r)');
    expect(problem('http.host ~ "[a-z" and ssl')).toBe('1:14 could not find an ending quote');
    expect(problem('x matches 01:02')).toBe('1:11 expected " or r');
    expect(problem('x wildcard abc')).toBe('1:12 expected " or r');
  });

  it('keeps numbers, addresses, ranges and byte strings neutral for the checker', () => {
    expect(tree('x in {80..90 -20..-10 0x10..0x20 010}')).toBe(
      'cmp(x in {#80..90 #-20..-10 #0x10..0x20 #010})',
    );
    expect(tree('ip.src in {10.0.0.0/8 2001:db8::/32 ::1 1.1.1.1..1.1.1.9}')).toBe(
      'cmp(ip.src in {#10.0.0.0/8 #2001:db8::/32 #::1 #1.1.1.1..1.1.1.9})',
    );
    expect(tree('x == 01:2e:f3-77.12')).toBe('cmp(x eq #01:2e:f3-77.12)');
    expect(tree('x in {"a""b"} and y in{1}')).toBe('and(cmp(x in {"a" "b"}), cmp(y in {#1}))');
    expect(tree('x in {}')).toBe('cmp(x in {})');
  });

  it('checks list names', () => {
    expect(problem('ip.src in $Bad')).toBe('1:12 invalid list name "B"'); // reading stops at the B
    expect(problem('ip.src in $.a')).toBe('1:12 invalid list name ".a"');
    expect(problem('ip.src in $ ')).toBe('1:12 invalid list name ""');
    expect(problem('ip.src in 10.0.0.0/8')).toBe('1:11 expected literal "{"');
  });

  it('checks indexes', () => {
    expect(problem('http.request.headers[\'host\'][0] == "a"')).toBe(
      '1:22 expected literal "expected quoted utf8 string or positive integer"',
    );
    expect(problem('x[r"k"] == 1')).toBe(
      '1:3 expected literal "expected quoted utf8 string or positive integer"',
    );
    expect(problem('x[-1] == 1')).toBe('1:3 expected literal "expected positive integer as index"');
    expect(problem('x[4294967296] == 1')).toBe('1:3 expected literal "expected positive integer as index"');
    expect(tree('x[4294967295] == 1')).toBe('cmp(x[4294967295] eq #1)');
    expect(problem('x["\\xff"] == 1')).toBe('1:3 expected literal "expected utf8 string"');
    expect(problem('x[0 == 1')).toBe('1:5 expected literal "]"');
  });
});

describe('reference lexing quirks', () => {
  it('matches keywords without a word boundary', () => {
    expect(tree('ssl andssl')).toBe('and(pred(ssl), pred(ssl))');
    expect(tree('notssl')).toBe('not(pred(ssl))');
    expect(tree('tcp.dstport eq80')).toBe('cmp(tcp.dstport eq #80)');
    expect(tree('http.host eq"x"')).toBe('cmp(http.host eq "x")');
    expect(tree('http.host in {"a"}and ssl')).toBe('and(cmp(http.host in {"a"}), pred(ssl))');
    expect(tree('sslandssl')).toBe('pred(sslandssl)');
    expect(tree('tcp.dstport eq 80or ssl')).toBe('or(cmp(tcp.dstport eq #80), pred(ssl))');
  });

  it('treats TAB as an error between tokens but trims it at both ends', () => {
    const isBoolValue = () => true;
    expect(parse('ssl\tand ssl', { hooks: { isBoolValue } }).diagnostics[0]?.message).toBe(
      'unrecognised input',
    );
    expect(problem('ssl and\tssl')).toBe('1:8 expected identifier character');
    expect(tree('\t ssl \t\n')).toBe('pred(ssl)');
  });

  it('is case-sensitive about operators and needs exactly one space in strict wildcard', () => {
    expect(parse('t AND t', { hooks: { isBoolValue: () => true } }).diagnostics[0]?.message).toBe(
      'unrecognised input',
    );
    expect(problem('http.host AND t')).toBe('1:11 expected ComparisonOp');
    expect(problem('x strict  wildcard "a"')).toBe('1:3 expected ComparisonOp');
    expect(problem('x strictwildcard "a"')).toBe('1:3 expected ComparisonOp');
  });

  it('spans the rest of the line for expected-token errors', () => {
    expect(error('(t')).toBe('Filter parsing error (1:3):\n(t\n  ^ expected literal ")"\n');
    expect(error('t) and u')).toBe('Filter parsing error (1:2):\nt) and u\n ^^^^^^^ unrecognised input\n');
    expect(error('t and')).toBe('Filter parsing error (1:6):\nt and\n     ^ expected identifier character\n');
    expect(error('')).toBe('Filter parsing error (1:1):\n\n^ expected identifier character\n');
    expect(error('num == 10 or\nnum == ) or\nnum == 20\n')).toBe(
      'Filter parsing error (2:8):\nnum == ) or\n       ^^^^ expected value\n',
    );
  });

  it('counts columns in UTF-8 bytes', () => {
    expect(error('str == "é" and (xyz')).toBe(
      'Filter parsing error (1:21):\nstr == "é" and (xyz\n                    ^ expected literal ")"\n',
    );
    expect(problem('x == "😀" and )')).toBe('1:17 expected identifier character');
  });

  it('reports function argument errors like the reference engine', () => {
    expect(problem('f(a b)')).toBe('1:5 expected literal ","');
    expect(problem('f(a')).toBe('1:4 expected literal ")"');
    expect(problem('f(a,)')).toBe('1:5 unrecognised input');
    expect(problem("f('a')")).toBe('1:3 unrecognised input');
    expect(problem('f(a and b)')).toBe('1:5 expected literal ","');
  });

  it('reports commas in sets and missing values with hints', () => {
    const [comma] = parse('tcp.dstport in {80, 443}').diagnostics;
    expect(comma?.code).toBe('comma-in-set');
    expect(comma?.hint).toMatch(/spaces, not commas/);
    const [missing] = parse('http.host eq').diagnostics;
    expect(missing?.code).toBe('expected-value');
    expect(missing?.hint).toMatch(/needs a literal on its right/); // at the end of input too
    expect(parse('x eq )').diagnostics[0]?.hint).toBe(missing?.hint);
    expect(parse('x[').diagnostics[0]?.code).toBe('invalid-index');
    expect(parse('x[y]').diagnostics[0]?.code).toBe('invalid-index');
    expect(`${missing?.span.line}:${missing?.span.column}`).toBe('1:13');
  });
});

describe('limits and robustness', () => {
  const nested = (depth: number) => `${'('.repeat(depth)}t${')'.repeat(depth)}`;

  it('allows 128 levels of nesting and reports the 129th', () => {
    expect(parse(nested(128)).diagnostics).toEqual([]);
    expect(parse(`${'not '.repeat(128)}t`).diagnostics).toEqual([]);
    expect(problem(nested(129))).toBe('1:129 maximum nesting depth exceeded (limit: 128)');
    expect(problem(`${'!'.repeat(129)}t`)).toBe('1:129 maximum nesting depth exceeded (limit: 128)');
    expect(problem(`${'f('.repeat(129)}x${')'.repeat(129)}`)).toMatch(/maximum nesting depth exceeded/);
    expect(problem(`${'any('.repeat(129)}x${')'.repeat(129)}`)).toMatch(/maximum nesting depth exceeded/);
    // not + parentheses count together; the not's level ends with its operand
    expect(parse(`${'not ('.repeat(64)}t${')'.repeat(64)}`).diagnostics).toEqual([]);
    expect(problem(`${'not ('.repeat(65)}t${')'.repeat(65)}`)).toMatch(/maximum nesting depth exceeded/);
    expect(parse(Array.from({ length: 500 }, () => nested(100)).join(' and ')).diagnostics).toEqual([]);
  });

  it('answers 100,000 nested parentheses and a 1 MB expression without throwing', () => {
    expect(problem(nested(100_000))).toBe('1:129 maximum nesting depth exceeded (limit: 128)');
    const big = Array.from({ length: 40_000 }, (_, i) => `http.host eq "h${i}.example.com"`).join(' or ');
    expect(big.length).toBeGreaterThan(1_000_000);
    const result = parse(big);
    expect(result.diagnostics).toEqual([]);
    expect(result.ast?.kind).toBe('logical');
    const set = `http.host in {${Array.from({ length: 60_000 }, (_, i) => `"host-${i}"`).join(' ')}}`;
    expect(parse(set).diagnostics).toEqual([]);
    expect(problem(`${big} and (`)).toMatch(/expected identifier character/);
  });

  it('gives every node a span pointing at its text', () => {
    const source = 'x == 1 and\n  lower(y)[0] in {"é" 2}';
    const ast = parse(source).ast;
    const logical = ast as Extract<Expression, { kind: 'logical' }>;
    const second = logical.operands[1] as Extract<Expression, { kind: 'comparison' }>;
    expect(source.slice(second.span.start, second.span.end)).toBe('lower(y)[0] in {"é" 2}');
    expect([second.span.line, second.span.column]).toEqual([2, 3]);
    expect(source.slice(second.rhs.span.start, second.rhs.span.end)).toBe('{"é" 2}');
    expect(second.rhs.span.column).toBe(18);
    expect(source.slice(logical.span.start, logical.span.end)).toBe(source);
  });
});
