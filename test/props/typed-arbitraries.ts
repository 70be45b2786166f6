/**
 * fast-check arbitraries for random, well-typed filter expressions over Cloudflare's scheme: every tree
 * generated here is the untyped AST of src/lang/ast.ts, built so that the types work out (engine-semantics
 * §2–§4, rules-language §7), so its canonical format must validate.
 *
 * What is generated, by type:
 * - values: catalogue fields (not `rewriteOnly`), indexes into arrays and maps (`x[0]`, `m["k"]`), calls of
 *   the filter functions with arguments of the right kind and type (a literal where a parameter takes only
 *   literals, a value where it takes only values), and calls mapped over a `[*]` first argument
 *   (`lower(x[*])`, an `Array<R>`);
 * - comparisons with an operator the left side's type supports, and a right-hand side of that type: strings
 *   of any bytes, hex bytes, i64 integers in decimal, hex and octal, IPv4/IPv6 addresses, sets (CIDRs, IP and
 *   integer ranges), regexes from a pool of valid ones, wildcards, managed and account lists;
 * - Bool values as predicates, `any`/`all` over mapped comparisons and `Array<Bool>` values, `not`, `and`,
 *   `xor`, `or` nested a few levels.
 *
 * The function signatures are written here from the reference notes rather than read from
 * src/scheme/functions.ts, so that a wrong signature there shows up as a rejected expression.
 */
import fc from 'fast-check';
import type {
  Argument,
  BareLiteral,
  ComparisonExpression,
  Expression,
  FunctionCall,
  IndexAccess,
  ListReference,
  LogicalOperator,
  RegexLiteral,
  RightHandSide,
  SetLiteral,
  StringLiteral,
  ValueExpression,
} from '../../src/lang/ast.js';
import { cloudflareScheme, type FieldDefinition } from '../../src/scheme/scheme.js';
import { arrayOf, elementType, mapOf, type Type, typeName } from '../../src/scheme/types.js';
import { span, stringLiteral, utf8Binary } from './arbitraries.js';

const bare = (text: string): BareLiteral => ({ kind: 'bare', text, span });
const str = (value: string, raw = false): StringLiteral => ({ kind: 'string', value, raw, span });

// ---- integers ----

const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;

/** Any i64, biased towards the bounds and small values. */
export const i64: fc.Arbitrary<bigint> = fc.oneof(
  {
    arbitrary: fc.constantFrom(I64_MIN, I64_MAX, I64_MIN + 1n, I64_MAX - 1n, 0n, 1n, -1n, 255n, 65535n),
    weight: 1,
  },
  { arbitrary: fc.bigInt({ min: -1000n, max: 1000n }), weight: 2 },
  { arbitrary: fc.bigInt({ min: I64_MIN, max: I64_MAX }), weight: 2 },
);

/**
 * A spelling of `value`: decimal (negative numbers can only be decimal: `-0x10` does not exist), `0x`
 * hexadecimal in either case, or octal with a leading zero (so a decimal never starts with `0`).
 */
export function intText(value: bigint): fc.Arbitrary<string> {
  if (value < 0n) return fc.constant(value.toString());
  const hex = value.toString(16);
  return fc.oneof(
    fc.constant(value.toString()),
    fc
      .record({ upper: fc.boolean(), zeros: fc.nat({ max: 2 }) })
      .map(({ upper, zeros }) => `0x${'0'.repeat(zeros)}${upper ? hex.toUpperCase() : hex}`),
    fc.nat({ max: 2 }).map((zeros) => `0${'0'.repeat(zeros)}${value.toString(8)}`),
  );
}

export const intLiteralText: fc.Arbitrary<string> = i64.chain(intText);

/** An integer literal between `min` and `max` (function arguments with a range). */
function intBetween(min: number, max: number): fc.Arbitrary<BareLiteral> {
  return fc
    .integer({ min, max })
    .chain((n) => intText(BigInt(n)))
    .map(bare);
}

const intLiteral: fc.Arbitrary<BareLiteral> = intLiteralText.map(bare);

/** `a..b` with a <= b, each bound spelt independently. */
const intRangeText: fc.Arbitrary<string> = fc
  .tuple(i64, i64)
  .map(([a, b]) => (a <= b ? [a, b] : [b, a]))
  .chain(([a, b]) => fc.tuple(intText(a as bigint), intText(b as bigint)))
  .map(([a, b]) => `${a}..${b}`);

// ---- IP addresses ----

type IpValue = { family: 4; value: number } | { family: 6; value: bigint };

const ipv4Value: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, 0xffffffff, 0x7f000001, 0x0a000000, 0xc0000201),
  fc.integer({ min: 0, max: 0xffffffff }),
);

/** IPv6 groups, often zero so that `::` compression has something to compress. */
const ipv6Groups: fc.Arbitrary<number[]> = fc.oneof(
  {
    arbitrary: fc.constantFrom<number[]>(
      [0, 0, 0, 0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0, 0, 0, 1],
      [1, 0, 0, 0, 0, 0, 0, 0],
    ),
    weight: 1,
  },
  {
    // IPv4-mapped (`::ffff:a.b.c.d`), which stays IPv6.
    arbitrary: ipv4Value.map((v4) => [0, 0, 0, 0, 0, 0xffff, v4 >>> 16, v4 & 0xffff]),
    weight: 1,
  },
  {
    arbitrary: fc.array(fc.oneof(fc.constant(0), fc.constant(0xffff), fc.integer({ min: 0, max: 0xffff })), {
      minLength: 8,
      maxLength: 8,
    }),
    weight: 6,
  },
);

const groupsToValue = (groups: number[]): bigint => groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);

function valueToGroups(value: bigint): number[] {
  const groups: number[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(Number((value >> shift) & 0xffffn));
  return groups;
}

const ipValue: fc.Arbitrary<IpValue> = fc.oneof(
  ipv4Value.map((value): IpValue => ({ family: 4, value })),
  ipv6Groups.map((groups): IpValue => ({ family: 6, value: groupsToValue(groups) })),
);

function octets(value: number): number[] {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
}

/**
 * Dotted IPv4. `padding` (set items only, where the reference reads addresses with the lenient `cidr`
 * crate) writes some octets with leading zeros, up to three digits.
 */
function ipv4Text(value: number, padding: number[] = []): string {
  return octets(value)
    .map((octet, i) => String(octet).padStart(Math.min(3, String(octet).length + (padding[i] ?? 0)), '0'))
    .join('.');
}

interface Ipv6Style {
  /** Write the last two groups as an embedded IPv4 address. */
  v4Tail: boolean;
  upper: boolean;
  /** Pad groups to four digits. */
  pad: boolean;
  /** Which run of zero groups to write as `::` (modulo the number of candidates; none when there is none). */
  compress: number | null;
}

const ipv6Style: fc.Arbitrary<Ipv6Style> = fc.record({
  v4Tail: fc.boolean(),
  upper: fc.boolean(),
  pad: fc.boolean(),
  compress: fc.option(fc.nat(), { nil: null }),
});

/** One of the valid spellings of an IPv6 address (Rust's `Ipv6Addr` syntax). */
function ipv6Text(value: bigint, style: Ipv6Style): string {
  const groups = valueToGroups(value);
  const hexGroups = style.v4Tail ? 6 : 8;
  const group = (g: number) => {
    const text = g.toString(16).padStart(style.pad ? 4 : 1, '0');
    return style.upper ? text.toUpperCase() : text;
  };
  const tail = style.v4Tail ? [ipv4Text(((groups[6] as number) << 16) + (groups[7] as number))] : [];
  const written = groups.slice(0, hexGroups).map(group);
  if (style.compress !== null) {
    // Every run of one or more zero groups among the hexadecimal ones may be written `::`.
    const runs: [number, number][] = [];
    for (let start = 0; start < hexGroups; start++)
      for (let end = start; end < hexGroups && groups[end] === 0; end++) runs.push([start, end + 1]);
    if (runs.length > 0) {
      const [start, end] = runs[style.compress % runs.length] as [number, number];
      const head = written.slice(0, start).join(':');
      const rest = [...written.slice(end), ...tail].join(':');
      return `${head}::${rest}`;
    }
  }
  return [...written, ...tail].join(':');
}

/** A single address (after eq, lt…): strict syntax, no CIDR. */
function ipText(ip: IpValue, lenient: boolean): fc.Arbitrary<string> {
  if (ip.family === 6) return ipv6Style.map((style) => ipv6Text(ip.value, style));
  if (!lenient) return fc.constant(ipv4Text(ip.value));
  return fc
    .array(fc.nat({ max: 2 }), { minLength: 4, maxLength: 4 })
    .map((padding) => ipv4Text(ip.value, padding));
}

const ipAddressText: fc.Arbitrary<string> = ipValue.chain((ip) => ipText(ip, false));

/** `address/length` with the host bits zero. */
const cidrText: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(ipv4Value, fc.integer({ min: 0, max: 32 })).map(([value, length]) => {
    const size = 2 ** (32 - length);
    return `${ipv4Text(Math.floor(value / size) * size)}/${length}`;
  }),
  fc.tuple(ipv6Groups, fc.integer({ min: 0, max: 128 }), ipv6Style).map(([groups, length, style]) => {
    const hostBits = BigInt(128 - length);
    const network = (groupsToValue(groups) >> hostBits) << hostBits;
    return `${ipv6Text(network, style)}/${length}`;
  }),
);

/** `a..b`: same family, a <= b. */
const ipRangeText: fc.Arbitrary<string> = fc
  .oneof(
    fc.tuple(ipv4Value, ipv4Value).map(([a, b]): [IpValue, IpValue] => [
      { family: 4, value: Math.min(a, b) },
      { family: 4, value: Math.max(a, b) },
    ]),
    fc.tuple(ipv6Groups, ipv6Groups).map(([x, y]): [IpValue, IpValue] => {
      const a = groupsToValue(x);
      const b = groupsToValue(y);
      return [
        { family: 6, value: a < b ? a : b },
        { family: 6, value: a < b ? b : a },
      ];
    }),
  )
  .chain(([a, b]) => fc.tuple(ipText(a, false), ipText(b, false)))
  .map(([a, b]) => `${a}..${b}`);

// ---- bytes ----

const hexPair: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 0, max: 255 }), fc.boolean())
  .map(([byte, upper]) => {
    const text = byte.toString(16).padStart(2, '0');
    return upper ? text.toUpperCase() : text;
  });

const byteSeparator = fc.constantFrom(':', '-', '.');

/** Hex bytes `01:2e-f3.77` (at least two bytes: a separator must follow the first). */
const hexBytesText: fc.Arbitrary<string> = fc
  .array(fc.tuple(byteSeparator, hexPair), { minLength: 1, maxLength: 7 })
  .chain((rest) => hexPair.map((first) => first + rest.map(([sep, pair]) => sep + pair).join('')));

/**
 * Hex bytes as a function argument, where a bare literal is tried as an IP address, then an integer, then
 * bytes (engine-semantics §4.3): the first byte has a letter (so it is no integer) and the first separator
 * is `-` (so no prefix is an IP address).
 */
const hexBytesArgumentText: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'A', 'F'),
    fc.constantFrom(...'0123456789abcdef'),
    fc.boolean(),
    fc.array(fc.tuple(byteSeparator, hexPair), { maxLength: 5 }),
    hexPair,
  )
  .map(
    ([letter, digit, letterFirst, rest, second]) =>
      `${letterFirst ? letter + digit : digit + letter}-${second}${rest.map(([sep, pair]) => sep + pair).join('')}`,
  );

/** A Bytes right-hand side: a quoted or raw string of any bytes, or hex bytes. */
const bytesRhs: fc.Arbitrary<StringLiteral | BareLiteral> = fc.oneof(
  { arbitrary: stringLiteral, weight: 4 },
  { arbitrary: hexBytesText.map(bare), weight: 1 },
);

/** A Bytes literal as a function argument. */
const bytesArgument: fc.Arbitrary<StringLiteral | BareLiteral> = fc.oneof(
  { arbitrary: stringLiteral, weight: 4 },
  { arbitrary: hexBytesArgumentText.map(bare), weight: 1 },
);

/** A string literal made of the given flag letters (url_decode, encode_base64…). */
const flagsLiteral = (...options: string[]): fc.Arbitrary<StringLiteral> =>
  fc.tuple(fc.constantFrom(...options), fc.boolean()).map(([value, raw]) => str(value, raw));

// ---- regexes and wildcards ----

/** Valid patterns in Rust's regex syntax, byte mode, that RE2 can run too. */
const REGEX_POOL = [
  '^/api/v[0-9]+/',
  '(?i)^/admin',
  '\\.(php|asp|aspx)$',
  '^[a-z0-9-]+\\.example\\.com$',
  '\\d{3,}',
  'a|b|c',
  '^$',
  '.*',
  '[^/]+\\.js$',
  '(?i)(union|select)\\s+',
  'say "hi"',
  '["\']',
  '[\\x00-\\x1f\\x7f]',
  '\\x41\\x42',
  '(?u)\\p{Greek}+',
  '^(?:GET|POST)$',
  'a{2,5}b*?',
  '\\\\server\\\\share',
  '[[:alpha:]]+',
  '#+"#',
  // Byte mode accepts a non-ASCII literal as its UTF-8 bytes (regex-syntax 0.8.2 and later).
  'café',
  '(?s)a.b',
].map(utf8Binary);

/**
 * Random patterns from a small grammar of constructs that Rust's regex (byte mode) and RE2 both accept:
 * ASCII literals and escaped metacharacters, `\xHH` bytes, Perl classes, bracketed classes with ordered
 * ranges and ASCII classes, groups (capturing, non-capturing, named, with flags), small counted and
 * lazy repetitions of non-empty atoms, alternation, anchors and leading flags.
 */
function regexPattern(depth: number): fc.Arbitrary<string> {
  const literal = fc.oneof(
    fc.constantFrom(...'abcXYZ019 _-/=,;:!@%&~"\'`<>'.split('')),
    fc.constantFrom(...'.*+?()[]{}|^$\\#'.split('').map((c) => `\\${c}`)),
    fc.integer({ min: 0, max: 255 }).map((b) => `\\x${b.toString(16).padStart(2, '0')}`),
  );
  const perl = fc.constantFrom('.', '\\d', '\\D', '\\w', '\\W', '\\s', '\\S');
  const classItem = fc.oneof(
    fc.constantFrom(
      'a',
      'Z',
      '0',
      '_',
      '.',
      '\\]',
      '\\[',
      '\\\\',
      '\\-',
      '\\d',
      '\\s',
      '[:alpha:]',
      '[:^digit:]',
    ),
    fc.tuple(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0, max: 20 })).map(([from, width]) => {
      const to = Math.min(0x7e, from + width);
      const hex = (c: number) => `\\x${c.toString(16).padStart(2, '0')}`;
      return `${hex(from)}-${hex(to)}`;
    }),
  );
  const bracketed = fc
    .tuple(fc.boolean(), fc.array(classItem, { minLength: 1, maxLength: 4 }))
    .map(([negated, items]) => `[${negated ? '^' : ''}${items.join('')}]`);
  const atoms: fc.Arbitrary<string>[] = [literal, perl, bracketed];
  if (depth > 0) {
    const inner = regexPattern(depth - 1);
    atoms.push(
      fc
        .tuple(
          fc.constantFrom('(', '(?:', '(?i:', '(?s-i:', `(?P<${GROUP_NAME}>`, `(?<${GROUP_NAME}>`),
          inner,
        )
        .map(([open, body]) => `${open}${body})`),
    );
  }
  const quantifier = fc.oneof(
    { arbitrary: fc.constant(''), weight: 4 },
    {
      arbitrary: fc
        .tuple(
          fc.oneof(
            fc.constantFrom('*', '+', '?'),
            fc.integer({ min: 0, max: 9 }).map((n) => `{${n}}`),
            fc.integer({ min: 0, max: 9 }).map((n) => `{${n},}`),
            fc
              .tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 9 }))
              .map(([a, b]) => `{${Math.min(a, b)},${Math.max(a, b)}}`),
          ),
          fc.boolean(),
        )
        .map(([q, lazy]) => (lazy ? `${q}?` : q)),
      weight: 1,
    },
  );
  const piece = fc.oneof(
    { arbitrary: fc.tuple(fc.oneof(...atoms), quantifier).map(([atom, q]) => atom + q), weight: 5 },
    { arbitrary: fc.constantFrom('^', '$', '\\b', '\\B', '\\A', '\\z'), weight: 1 },
  );
  const branch = fc.array(piece, { minLength: 1, maxLength: 4 }).map((pieces) => pieces.join(''));
  return fc.array(branch, { minLength: 1, maxLength: 3 }).map((branches) => branches.join('|'));
}

/** Stands for a group name until the whole pattern is known (names must be unique), then `g1`, `g2`… */
const GROUP_NAME = '\u0001';

const generatedRegex: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('', '(?i)', '(?m)', '(?s)', '(?is)', '(?U)', '(?-u)'), regexPattern(2))
  .map(([flags, body]) => {
    let n = 0;
    return flags + body.replace(new RegExp(GROUP_NAME, 'g'), () => `g${++n}`);
  });

const regexLiteral: fc.Arbitrary<RegexLiteral> = fc
  .tuple(fc.oneof(fc.constantFrom(...REGEX_POOL), generatedRegex), fc.boolean())
  .map(([pattern, raw]) => ({ kind: 'regex', pattern, raw, span }));

/** Text without wildcard metacharacters: any byte but `*` and `\`, and valid UTF-8 characters. */
const wildcardText: fc.Arbitrary<string> = fc.oneof(
  fc
    .integer({ min: 0, max: 255 })
    .filter((b) => b !== 0x2a && b !== 0x5c)
    .map((b) => String.fromCharCode(b)),
  fc
    .string({ unit: 'binary', minLength: 1, maxLength: 1 })
    .filter((c) => c !== '*' && c !== '\\')
    .map(utf8Binary),
  fc.constantFrom('.', '/', '?', 'a', 'B', '"', '#', ' '),
);

/**
 * A wildcard pattern (after unescaping the string): `*` never twice in a row, `\*` a literal star, `\\` a
 * literal backslash, no other escape.
 */
export const wildcardPattern: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { arbitrary: wildcardText, weight: 5 },
      { arbitrary: fc.constant('*'), weight: 2 },
      { arbitrary: fc.constantFrom('\\*', '\\\\'), weight: 1 },
    ),
    { maxLength: 10 },
  )
  .map((pieces) => pieces.filter((piece, i) => !(piece === '*' && pieces[i - 1] === '*')).join(''));

const wildcardLiteral: fc.Arbitrary<StringLiteral> = fc
  .tuple(wildcardPattern, fc.boolean())
  .map(([value, raw]) => str(value, raw));

// ---- sets and lists ----

const set = (items: fc.Arbitrary<StringLiteral | BareLiteral>): fc.Arbitrary<SetLiteral> =>
  fc.array(items, { maxLength: 5 }).map((elements) => ({ kind: 'set', items: elements, span }));

const bytesSet = set(bytesRhs);
const intSet = set(fc.oneof(intLiteralText, intRangeText).map(bare));
const ipSet = set(
  fc
    .oneof(
      { arbitrary: ipValue.chain((ip) => ipText(ip, true)), weight: 2 },
      { arbitrary: cidrText, weight: 2 },
      { arbitrary: ipRangeText, weight: 1 },
    )
    .map(bare),
);

const list = (name: string): ListReference => ({ kind: 'list', name, span });

/** Cloudflare's managed IP lists. */
const MANAGED_IP_LISTS = ['cf.open_proxies', 'cf.anonymizer', 'cf.vpn', 'cf.malware', 'cf.botnetcc'];

/** An account list (not declared: its kind follows from the left side), never named like a managed one. */
const accountList: fc.Arbitrary<ListReference> = fc
  .stringMatching(/^[a-z0-9_]{1,12}(\.[a-z0-9_]{1,8})?$/)
  .filter((name) => !name.startsWith('cf.'))
  .map(list);

// ---- right-hand sides by type ----

type Comparable = 'Bytes' | 'Int' | 'Ip';

type OpAndRhs = Pick<ComparisonExpression, 'op' | 'rhs'>;

const withOp = (
  ops: ComparisonExpression['op'][],
  rhs: fc.Arbitrary<RightHandSide>,
): fc.Arbitrary<OpAndRhs> =>
  fc.tuple(fc.constantFrom(...ops), rhs).map(([op, value]) => ({ op, rhs: value }));

const ORDERING: ComparisonExpression['op'][] = ['eq', 'ne', 'lt', 'le', 'gt', 'ge'];

/** An operator valid for the type (engine-semantics §3) with a right-hand side of that type. */
const operatorAndRhs: Record<Comparable, fc.Arbitrary<OpAndRhs>> = {
  Bytes: fc.oneof(
    { arbitrary: withOp([...ORDERING, 'contains'], bytesRhs), weight: 4 },
    { arbitrary: withOp(['matches'], regexLiteral), weight: 1 },
    { arbitrary: withOp(['wildcard', 'strict wildcard'], wildcardLiteral), weight: 2 },
    {
      arbitrary: withOp(
        ['in'],
        fc.oneof({ arbitrary: bytesSet, weight: 3 }, { arbitrary: accountList, weight: 1 }),
      ),
      weight: 2,
    },
  ),
  Int: fc.oneof(
    { arbitrary: withOp([...ORDERING, 'bitwise_and'], intLiteral), weight: 4 },
    {
      arbitrary: withOp(
        ['in'],
        fc.oneof({ arbitrary: intSet, weight: 3 }, { arbitrary: accountList, weight: 1 }),
      ),
      weight: 2,
    },
  ),
  Ip: fc.oneof(
    { arbitrary: withOp(ORDERING, ipAddressText.map(bare)), weight: 3 },
    {
      arbitrary: withOp(
        ['in'],
        fc.oneof(
          { arbitrary: ipSet, weight: 3 },
          { arbitrary: fc.constantFrom(...MANAGED_IP_LISTS).map(list), weight: 1 },
          { arbitrary: accountList, weight: 1 },
        ),
      ),
      weight: 2,
    },
  ),
};

/** A literal of a primitive type, as a function argument; undefined for types without literals. */
function literalArgument(type: Type): fc.Arbitrary<Argument> | undefined {
  if (type === 'Bytes') return bytesArgument;
  if (type === 'Int') return intLiteral;
  return undefined;
}

// ---- the scheme ----

/**
 * The fields a customer's filter may use: Cloudflare's catalogue without the rewrite-only ones and the
 * `waf.*` fields only managed rules may use (test/props/waf-functions.test.ts covers those).
 */
export const filterFields: readonly FieldDefinition[] = [...cloudflareScheme.fields.values()].filter(
  (field) => !field.rewriteOnly && !field.managedOnly,
);

/** Every compound type a value can have: the catalogue's, their elements', and arrays of call results. */
const compoundTypes: Type[] = (() => {
  const found = new Map<string, Type>();
  const add = (type: Type) => {
    if (typeof type === 'string') return;
    found.set(typeName(type), type);
    add(elementType(type) as Type);
  };
  for (const field of filterFields) add(field.type);
  for (const primitive of ['Bytes', 'Int', 'Bool', 'Ip'] as const) add(arrayOf(primitive));
  add(arrayOf(arrayOf('Bytes')));
  return [...found.values()];
})();

const arrayTypes = compoundTypes.filter((type) => typeof type !== 'string' && 'array' in type);
const mapTypes = compoundTypes.filter((type) => typeof type !== 'string' && 'map' in type);

// ---- functions ----

/** How an argument may be written: a value only, a literal only, or either (rules-language §7). */
type Kind = 'field' | 'literal' | 'both';

interface Signature {
  first: Type;
  returns: Type;
}

interface CallSpec {
  name: string;
  /** The kind of the first argument (a `[*]` can only be mapped through a value). */
  firstKind: Kind;
  /** The types the first argument may have, each with the call's return type. */
  signatures: Signature[];
  /** The arguments after the first, given the first's type. */
  rest(first: Type, depth: number): fc.Arbitrary<Argument[]>;
}

const none = (): fc.Arbitrary<Argument[]> => fc.constant([]);
const sameReturn = (types: Type[]): Signature[] => types.map((type) => ({ first: type, returns: type }));
const returning = (returns: Type, firsts: Type[]): Signature[] => firsts.map((first) => ({ first, returns }));

/** An optional trailing argument. */
const optional = (arb: fc.Arbitrary<Argument>): fc.Arbitrary<Argument[]> =>
  fc.option(arb, { nil: undefined }).map((arg) => (arg === undefined ? [] : [arg]));

/**
 * The functions a filter may use (rules-language §7; the rewrite-only ones, regex_replace,
 * remove_query_args, to_string, uuidv4 and wildcard_replace, are left out). Where the reference leaves an
 * argument's kind open, the stricter reading is generated.
 */
export const CALLS: CallSpec[] = [
  ...['lower', 'upper', 'decode_base64'].map(
    (name): CallSpec => ({ name, firstKind: 'field', signatures: sameReturn(['Bytes']), rest: none }),
  ),
  {
    name: 'url_decode',
    firstKind: 'field',
    signatures: sameReturn(['Bytes']),
    rest: () => optional(flagsLiteral('r', 'u', 'ur', 'ru')),
  },
  {
    name: 'remove_bytes',
    firstKind: 'field',
    signatures: sameReturn(['Bytes']),
    rest: () => bytesArgument.map((arg) => [arg]),
  },
  {
    name: 'encode_base64',
    firstKind: 'both',
    signatures: sameReturn(['Bytes']),
    rest: () => optional(flagsLiteral('u', 'p', 'up', 'pu')),
  },
  { name: 'sha256', firstKind: 'both', signatures: sameReturn(['Bytes']), rest: none },
  {
    name: 'substring',
    firstKind: 'field',
    signatures: sameReturn(['Bytes']),
    rest: () => fc.tuple(intLiteral, optional(intLiteral)).map(([start, end]) => [start, ...end]),
  },
  {
    name: 'concat',
    firstKind: 'both',
    signatures: sameReturn(['Bytes', ...arrayTypes]),
    rest: (first, depth) => {
      const more = argumentOf(first, 'both', depth) as fc.Arbitrary<Argument>;
      return fc.array(more, { minLength: 1, maxLength: 2 });
    },
  },
  ...['starts_with', 'ends_with'].map(
    (name): CallSpec => ({
      name,
      firstKind: 'field',
      signatures: returning('Bool', ['Bytes']),
      rest: () => bytesArgument.map((arg) => [arg]),
    }),
  ),
  {
    name: 'has_key',
    firstKind: 'field',
    signatures: returning('Bool', mapTypes),
    rest: (_, depth) => (argumentOf('Bytes', 'both', depth) as fc.Arbitrary<Argument>).map((arg) => [arg]),
  },
  {
    name: 'has_value',
    firstKind: 'field',
    signatures: returning('Bool', [...mapTypes, ...arrayTypes]),
    rest: (first, depth) => {
      // An element of the collection, or for a collection of arrays (headers) an element of those.
      const element = elementType(first) as Type;
      const inner = elementType(element);
      const candidates = [element, ...(inner ? [inner] : [])]
        .map((type) => argumentOf(type, 'both', depth))
        .filter((arb): arb is fc.Arbitrary<Argument> => arb !== undefined);
      return candidates.length === 0 ? fc.constant([]) : fc.oneof(...candidates).map((arg) => [arg]);
    },
  },
  {
    name: 'join',
    firstKind: 'field',
    signatures: returning('Bytes', [arrayOf('Bytes')]),
    rest: () => bytesArgument.map((arg) => [arg]),
  },
  { name: 'len', firstKind: 'field', signatures: returning('Int', ['Bytes', ...arrayTypes]), rest: none },
  ...(
    [
      ['lookup_json_string', 'Bytes'],
      ['lookup_json_integer', 'Int'],
    ] as const
  ).map(
    ([name, returns]): CallSpec => ({
      name,
      firstKind: 'field',
      signatures: returning(returns, ['Bytes']),
      rest: () =>
        fc.array(
          fc.oneof(
            stringLiteral,
            fc
              .nat({ max: 20 })
              .chain((n) => intText(BigInt(n)))
              .map(bare),
            intLiteral,
          ),
          { minLength: 1, maxLength: 3 },
        ),
    }),
  ),
  {
    name: 'split',
    firstKind: 'field',
    signatures: returning(arrayOf('Bytes'), ['Bytes']),
    rest: () =>
      fc
        .tuple(
          stringLiteral.filter((s) => s.value !== ''),
          intBetween(1, 128),
        )
        .map(([separator, limit]) => [separator, limit]),
  },
  {
    name: 'cidr',
    firstKind: 'field',
    signatures: sameReturn(['Ip']),
    rest: () => fc.tuple(intBetween(1, 32), intBetween(1, 128)).map(([v4, v6]) => [v4, v6]),
  },
  {
    name: 'cidr6',
    firstKind: 'field',
    signatures: sameReturn(['Ip']),
    rest: () => intBetween(1, 128).map((bits) => [bits]),
  },
  {
    // The reference describes the two integers both as (start, end) and as (offset, size); values with
    // offset < 32 and offset < second <= 32 are valid under either reading.
    name: 'bit_slice',
    firstKind: 'literal',
    signatures: returning('Int', ['Bytes']),
    rest: () =>
      fc
        .integer({ min: 0, max: 31 })
        .chain((offset) => fc.tuple(intBetween(offset, offset), intBetween(offset + 1, 32)))
        .map(([offset, size]) => [offset, size]),
  },
  {
    name: 'is_timed_hmac_valid_v0',
    firstKind: 'literal',
    signatures: returning('Bool', ['Bytes']),
    rest: (_, depth) =>
      fc
        .tuple(
          argumentOf('Bytes', 'both', depth) as fc.Arbitrary<Argument>,
          fc.bigInt({ min: 0n, max: I64_MAX }).chain(intText).map(bare),
          argumentOf('Int', 'both', depth) as fc.Arbitrary<Argument>,
          fc.option(
            fc.tuple(
              fc
                .nat({ max: 64 })
                .chain((n) => intText(BigInt(n)))
                .map(bare),
              optional(flagsLiteral('s')),
            ),
            { nil: undefined },
          ),
        )
        .map(([mac, ttl, now, tail]) => [mac, ttl, now, ...(tail ? [tail[0], ...tail[1]] : [])]),
  },
];

/** The first argument of a call: fields of the right kind and type, or a literal when allowed. */
function firstArgument(spec: CallSpec, type: Type, depth: number): fc.Arbitrary<Argument> | undefined {
  // bit_slice names a packet header: only these names are valid.
  if (spec.name === 'bit_slice')
    return fc
      .constantFrom('ip', 'icmp', 'tcp', 'udp')
      .map((value): Argument => ({ kind: 'string', value, raw: false, span }));
  return argumentOf(type, spec.firstKind, depth);
}

/** An argument of a type and kind: a value of the type (kind field/both), a literal (kind literal/both). */
function argumentOf(type: Type, kind: Kind, depth: number): fc.Arbitrary<Argument> | undefined {
  const options: fc.WeightedArbitrary<Argument>[] = [];
  if (kind !== 'literal') {
    const value = typedValue(type, depth);
    if (value) options.push({ arbitrary: value, weight: 3 });
  }
  if (kind !== 'field') {
    const literal = literalArgument(type);
    if (literal) options.push({ arbitrary: literal, weight: 1 });
  }
  return options.length > 0 ? fc.oneof(...options) : undefined;
}

// ---- values ----

const key = (type: Type) => typeName(type);
const values = new Map<string, fc.Arbitrary<ValueExpression> | undefined>();
const mappedValues = new Map<string, fc.Arbitrary<ValueExpression> | undefined>();

const sameType = (a: Type, b: Type) => typeName(a) === typeName(b);

const fieldsOf = (type: Type): string[] =>
  filterFields.filter((field) => sameType(field.type, type)).map((field) => field.name);

const arrayIndex = fc.oneof(
  fc.constantFrom(0, 1, 0xffffffff),
  fc.integer({ min: 0, max: 0xffffffff }),
  fc.integer({ min: 0, max: 10 }),
);

/** Map keys are quoted UTF-8 strings; header names included (upper-case ones only get a lint warning). */
const mapKey = fc.oneof(
  fc.constantFrom('host', 'x-forwarded-for', 'content-type', 'User-Agent', 'a'),
  fc.string({ unit: 'binary', maxLength: 8 }).map(utf8Binary),
);

/** `target[i]` / `target["k"]` for an unmapped or mapped target of a container type. */
function indexInto(container: Type, target: fc.Arbitrary<ValueExpression>): fc.Arbitrary<ValueExpression> {
  const selector =
    typeof container !== 'string' && 'array' in container
      ? arrayIndex.map((index) => ({ kind: 'array-index' as const, index }))
      : mapKey.map((k) => ({ kind: 'map-key' as const, key: k }));
  return fc
    .tuple(target, selector)
    .map(([t, index]): IndexAccess => ({ kind: 'index', target: t, index, span }));
}

const eachOf = (target: fc.Arbitrary<ValueExpression>): fc.Arbitrary<ValueExpression> =>
  target.map((t): IndexAccess => ({ kind: 'index', target: t, index: { kind: 'map-each' }, span }));

function call(
  name: string,
  first: fc.Arbitrary<Argument>,
  rest: fc.Arbitrary<Argument[]>,
): fc.Arbitrary<ValueExpression> {
  return fc
    .tuple(first, rest)
    .map(([a, more]): FunctionCall => ({ kind: 'call', name, args: [a, ...more], span }));
}

/**
 * A value of exactly `type` that is not mapped (its comparisons give one Bool): a field; at depth > 0 also
 * an index into a container, or a call, possibly mapped over a `[*]` first argument when `type` is an
 * array. Undefined when no such value exists within the depth.
 */
export function typedValue(type: Type, depth: number): fc.Arbitrary<ValueExpression> | undefined {
  const memo = `${key(type)}@${depth}`;
  if (values.has(memo)) return values.get(memo);
  values.set(memo, undefined); // no cycles: every step below spends depth
  const options: fc.WeightedArbitrary<ValueExpression>[] = [];
  const names = fieldsOf(type);
  if (names.length > 0)
    options.push({
      arbitrary: fc.constantFrom(...names).map((name): ValueExpression => ({ kind: 'field', name, span })),
      weight: 4,
    });
  if (depth > 0) {
    for (const container of [arrayOf(type), mapOf(type)]) {
      const target = typedValue(container, depth - 1);
      if (target) options.push({ arbitrary: indexInto(container, target), weight: 2 });
    }
    const element = typeof type !== 'string' && 'array' in type ? type.array : undefined;
    for (const spec of CALLS) {
      for (const signature of spec.signatures) {
        if (sameType(signature.returns, type)) {
          const first = firstArgument(spec, signature.first, depth - 1);
          if (first)
            options.push({
              arbitrary: call(spec.name, first, spec.rest(signature.first, depth - 1)),
              weight: 1,
            });
        }
        // Mapped over its first argument, the call gives an array of results (engine-semantics §4.3).
        if (element && spec.firstKind !== 'literal' && sameType(signature.returns, element)) {
          const first = mappedValue(signature.first, depth - 1);
          if (first)
            options.push({
              arbitrary: call(spec.name, first, spec.rest(signature.first, depth - 1)),
              weight: 1,
            });
        }
      }
    }
  }
  const arb = options.length > 0 ? fc.oneof(...options) : undefined;
  values.set(memo, arb);
  return arb;
}

/**
 * A mapped value whose elements have `type`: `x[*]`, `x[*][*]`, `x[*][0]`, `m[*]["k"]`… A comparison on it
 * gives an Array<Bool>.
 */
export function mappedValue(type: Type, depth: number): fc.Arbitrary<ValueExpression> | undefined {
  const memo = `${key(type)}@${depth}`;
  if (mappedValues.has(memo)) return mappedValues.get(memo);
  mappedValues.set(memo, undefined);
  const options: fc.Arbitrary<ValueExpression>[] = [];
  if (depth > 0) {
    for (const container of [arrayOf(type), mapOf(type)]) {
      const target = typedValue(container, depth - 1);
      if (target) options.push(eachOf(target));
      const mappedTarget = mappedValue(container, depth - 1);
      if (mappedTarget) options.push(eachOf(mappedTarget), indexInto(container, mappedTarget));
    }
  }
  const arb = options.length > 0 ? fc.oneof(...options) : undefined;
  mappedValues.set(memo, arb);
  return arb;
}

// ---- expressions ----

const COMPARABLE: Comparable[] = ['Bytes', 'Int', 'Ip'];

function comparisons(mapped: boolean, depth: number): fc.Arbitrary<Expression>[] {
  const out: fc.Arbitrary<Expression>[] = [];
  for (const type of COMPARABLE) {
    const lhs = mapped ? mappedValue(type, depth) : typedValue(type, depth);
    if (!lhs) continue;
    out.push(
      fc
        .tuple(lhs, operatorAndRhs[type])
        .map(
          ([value, { op, rhs }]): ComparisonExpression => ({ kind: 'comparison', lhs: value, op, rhs, span }),
        ),
    );
  }
  return out;
}

const predicate = (value: fc.Arbitrary<ValueExpression>): fc.Arbitrary<Expression> =>
  value.map((v): Expression => ({ kind: 'predicate', value: v, span }));

function logical(operand: fc.Arbitrary<Expression>): fc.Arbitrary<Expression> {
  return fc
    .tuple(
      fc.constantFrom<LogicalOperator>('and', 'xor', 'or'),
      fc.array(operand, { minLength: 2, maxLength: 3 }),
    )
    .map(([op, operands]): Expression => ({ kind: 'logical', op, operands, span }));
}

const not = (operand: fc.Arbitrary<Expression>): fc.Arbitrary<Expression> =>
  operand.map((o): Expression => ({ kind: 'not', operand: o, span }));

export interface TypedExpressionOptions {
  /** Levels of not/and/xor/or/any/all. */
  depth: number;
  /** Levels of calls and indexes in each value. */
  valueDepth: number;
}

const booleans = new Map<string, fc.Arbitrary<Expression>>();

/** A Bool expression: what a filter's root must be. */
export function boolExpression({ depth, valueDepth }: TypedExpressionOptions): fc.Arbitrary<Expression> {
  const memo = `bool:${depth}:${valueDepth}`;
  const cached = booleans.get(memo);
  if (cached) return cached;
  const leaves: fc.WeightedArbitrary<Expression>[] = [
    ...comparisons(false, valueDepth).map((arbitrary) => ({ arbitrary, weight: 3 })),
    { arbitrary: predicate(typedValue('Bool', valueDepth) as fc.Arbitrary<ValueExpression>), weight: 2 },
  ];
  let arb: fc.Arbitrary<Expression>;
  if (depth <= 0) {
    arb = fc.oneof(...leaves);
  } else {
    const inner = boolExpression({ depth: depth - 1, valueDepth });
    const quantified = fc
      .tuple(
        fc.constantFrom<'any' | 'all'>('any', 'all'),
        boolArrayExpression({ depth: depth - 1, valueDepth }),
      )
      .map(([quantifier, operand]): Expression => ({ kind: 'quantifier', quantifier, operand, span }));
    arb = fc.oneof(
      ...leaves,
      { arbitrary: logical(inner), weight: 4 },
      { arbitrary: not(inner), weight: 1 },
      { arbitrary: quantified, weight: 2 },
    );
  }
  booleans.set(memo, arb);
  return arb;
}

/**
 * An Array<Bool> expression, the operand of any/all: a comparison on a mapped value, an Array<Bool> value
 * (a Bool function mapped over `[*]`) or its elements (`starts_with(x[*], "a")[*]`), and the logical
 * operators, which work element-wise on arrays (engine-semantics §4.1).
 */
export function boolArrayExpression({ depth, valueDepth }: TypedExpressionOptions): fc.Arbitrary<Expression> {
  const memo = `array:${depth}:${valueDepth}`;
  const cached = booleans.get(memo);
  if (cached) return cached;
  const leaves: fc.WeightedArbitrary<Expression>[] = comparisons(true, valueDepth).map((arbitrary) => ({
    arbitrary,
    weight: 4,
  }));
  const boolArray = typedValue(arrayOf('Bool'), valueDepth);
  if (boolArray) leaves.push({ arbitrary: predicate(boolArray), weight: 1 });
  const mappedBool = mappedValue('Bool', valueDepth);
  if (mappedBool) leaves.push({ arbitrary: predicate(mappedBool), weight: 1 });
  let arb: fc.Arbitrary<Expression>;
  if (depth <= 0) {
    arb = fc.oneof(...leaves);
  } else {
    const inner = boolArrayExpression({ depth: depth - 1, valueDepth });
    arb = fc.oneof(...leaves, { arbitrary: logical(inner), weight: 1 }, { arbitrary: not(inner), weight: 1 });
  }
  booleans.set(memo, arb);
  return arb;
}

/** Random well-typed filters of bounded size. */
export const typedFilter: fc.Arbitrary<Expression> = boolExpression({ depth: 3, valueDepth: 3 });
