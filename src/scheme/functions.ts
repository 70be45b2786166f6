import type { Phase, Plan } from './profile.js';
import { arrayOf, type Type } from './types.js';
import { wafFunctionDefinitions } from './waf-functions.js';

/**
 * The functions of Cloudflare's Rules language (rules-language.md §7), as data: parameters with their
 * kind and accepted types, the return type, and where each may be used. The checker reads these; the
 * evaluator (a later layer) supplies the implementations.
 */

/** `field`: anything but a literal (a field, an index, a call…); `literal`: a constant; `both`: either. */
export type ArgumentKind = 'field' | 'literal' | 'both';

/**
 * An accepted argument type: a type, a loose compound kind (`Array<_>`, `Map<_>`), `same-as-first` (the
 * type of argument #0, for concat) or `element-of-first` (an element of argument #0, for has_value).
 */
export type ParameterType = Type | 'Array<_>' | 'Map<_>' | 'same-as-first' | 'element-of-first';

/** A literal argument's value, as the checker read it. */
export type LiteralValue = string | bigint | { ip: string };

export interface Parameter {
  name: string;
  kind: ArgumentKind;
  types: readonly ParameterType[];
  /** For literal arguments: why a value is not acceptable (undefined when it is). */
  checkValue?: (value: LiteralValue) => string | undefined;
  /** For field arguments: the only fields accepted (remove_query_args works on the query only). */
  fields?: readonly string[];
  /**
   * A literal that is a pattern, checked like the right side of `matches` or `wildcard`. A regex pattern
   * counts toward a rule's limit of regular expressions, as `matches` does.
   */
  pattern?: 'regex' | 'wildcard';
  /**
   * A literal that names a field of the scheme: the implementation gets that field's value, not the name
   * (bit_slice's protocol names the Network Firewall field that holds the header's bytes).
   */
  namesField?: boolean;
}

export interface FunctionDefinition {
  name: string;
  params: readonly Parameter[];
  optional?: readonly Parameter[];
  /** Accepted any number of times after the others. */
  variadic?: Parameter;
  /** The return type; a function of the argument types when it depends on them. */
  returns: Type | ((argumentTypes: readonly Type[]) => Type);
  /** Phases where the function exists; everywhere when absent. */
  phases?: readonly Phase[];
  plan?: Plan;
  /** An add-on or enablement needed besides the plan (informational). */
  requires?: string;
  /** Only in rewrite (value) expressions, never in a rule's filter. */
  rewriteOnly?: boolean;
  /** At most one call of this group per expression (regex_replace and wildcard_replace share one). */
  oncePerExpression?: boolean;
  /** Only in Cloudflare's managed rulesets, never in a customer's rule (src/scheme/waf-functions.ts). */
  managedOnly?: boolean;
  /**
   * What the elements of an array result are made of, for the zone program's index, which looks for
   * literals in them (src/engine/program): `each-target`, the elements of the call with its first argument
   * and each of the others (the targets) alone, one target after another; `subset-of-first`, some of the
   * first argument's elements.
   */
  elements?: 'each-target' | 'subset-of-first';
  /**
   * What a value (the first argument) must hold for the call to be true, given its literal second argument,
   * for the zone program's index (src/engine/program): `phrase`, one of the named list's phrases in any
   * case; `call`, an opening parenthesis (a call of a function of the list); `match`, a match of the regex.
   */
  trueOnlyWith?: 'phrase' | 'call' | 'match';
  description: string;
}

const bytes = (
  name: string,
  kind: ArgumentKind = 'field',
  checkValue?: Parameter['checkValue'],
): Parameter =>
  checkValue ? { name, kind, types: ['Bytes'], checkValue } : { name, kind, types: ['Bytes'] };

const int = (name: string, kind: ArgumentKind, checkValue?: Parameter['checkValue']): Parameter =>
  checkValue ? { name, kind, types: ['Int'], checkValue } : { name, kind, types: ['Int'] };

/** A literal integer between `min` and `max`. */
const intBetween =
  (min: number, max: number, what: string) =>
  (value: LiteralValue): string | undefined =>
    typeof value === 'bigint' && value >= BigInt(min) && value <= BigInt(max)
      ? undefined
      : `${what} must be between ${min} and ${max}`;

/** A literal made only of the given flag letters. */
const flags =
  (allowed: string) =>
  (value: LiteralValue): string | undefined =>
    typeof value === 'string' && [...value].every((c) => allowed.includes(c))
      ? undefined
      : `flags may only contain ${[...allowed].map((c) => `"${c}"`).join(', ')}`;

const nonEmpty = (value: LiteralValue): string | undefined =>
  value === '' ? 'the separator must not be empty' : undefined;

/** The packet headers bit_slice can read: the Network Firewall fields of these names hold their bytes. */
const PACKET_HEADERS = ['ip', 'icmp', 'tcp', 'udp'];

const CUSTOM_AND_RATELIMIT: readonly Phase[] = ['http_request_firewall_custom', 'http_ratelimit'];
const REQUEST_TRANSFORMS: readonly Phase[] = ['http_request_transform', 'http_request_late_transform'];
const HEADER_TRANSFORMS: readonly Phase[] = [
  'http_request_late_transform',
  'http_response_headers_transform',
];
const REWRITE_PHASES: readonly Phase[] = [
  ...REQUEST_TRANSFORMS,
  'http_response_headers_transform',
  'http_request_dynamic_redirect',
];

const definitions: FunctionDefinition[] = [
  {
    name: 'cidr',
    params: [
      { name: 'address', kind: 'field', types: ['Ip'] },
      int('ipv4_network_bits', 'literal', intBetween(1, 32, 'IPv4 network bits')),
      int('ipv6_network_bits', 'literal', intBetween(1, 128, 'IPv6 network bits')),
    ],
    returns: 'Ip',
    phases: CUSTOM_AND_RATELIMIT,
    description: 'The network address of an IP address: its first bits, the rest set to zero.',
  },
  {
    name: 'cidr6',
    params: [
      { name: 'address', kind: 'field', types: ['Ip'] },
      int('ipv6_network_bits', 'literal', intBetween(1, 128, 'IPv6 network bits')),
    ],
    returns: 'Ip',
    phases: CUSTOM_AND_RATELIMIT,
    description: 'Like cidr for IPv6 addresses; IPv4 addresses are returned unchanged.',
  },
  {
    name: 'concat',
    params: [
      { name: 'first', kind: 'both', types: ['Bytes', 'Array<_>'] },
      { name: 'second', kind: 'both', types: ['same-as-first'] },
    ],
    variadic: { name: 'more', kind: 'both', types: ['same-as-first'] },
    returns: (types) => types[0] ?? 'Bytes',
    description: 'Joins strings, or arrays into one array.',
  },
  {
    name: 'decode_base64',
    params: [bytes('source')],
    returns: 'Bytes',
    phases: [...REQUEST_TRANSFORMS, 'http_response_headers_transform', ...CUSTOM_AND_RATELIMIT],
    description: 'Decodes a Base64 string.',
  },
  {
    name: 'encode_base64',
    params: [bytes('input', 'both')],
    optional: [bytes('flags', 'literal', flags('up'))],
    returns: 'Bytes',
    phases: HEADER_TRANSFORMS,
    description: 'Encodes to Base64 (no padding unless "p"; URL-safe alphabet with "u").',
  },
  {
    name: 'ends_with',
    params: [bytes('source'), bytes('suffix', 'literal')],
    returns: 'Bool',
    description: 'Whether a string ends with a suffix.',
  },
  {
    name: 'has_key',
    params: [{ name: 'map', kind: 'field', types: ['Map<_>'] }, bytes('key', 'both')],
    returns: 'Bool',
    description: 'Whether a map has a key.',
  },
  {
    name: 'has_value',
    params: [
      { name: 'collection', kind: 'field', types: ['Map<_>', 'Array<_>'] },
      { name: 'value', kind: 'both', types: ['element-of-first'] },
    ],
    returns: 'Bool',
    description: 'Whether an array or a map holds a value.',
  },
  {
    name: 'join',
    params: [{ name: 'items', kind: 'field', types: [arrayOf('Bytes')] }, bytes('separator', 'literal')],
    returns: 'Bytes',
    phases: [
      ...REQUEST_TRANSFORMS,
      'http_response_headers_transform',
      'http_request_firewall_custom',
      'http_custom_errors',
    ],
    description: 'Joins the items of an array with a separator.',
  },
  {
    name: 'len',
    params: [{ name: 'value', kind: 'field', types: ['Bytes', 'Array<_>'] }],
    returns: 'Int',
    description: 'The length in bytes of a string, or the number of items of an array.',
  },
  {
    name: 'lookup_json_integer',
    params: [bytes('json'), { name: 'key', kind: 'literal', types: ['Bytes', 'Int'] }],
    variadic: { name: 'key', kind: 'literal', types: ['Bytes', 'Int'] },
    returns: 'Int',
    description: 'The integer at a path of keys and indexes in a JSON document.',
  },
  {
    name: 'lookup_json_string',
    params: [bytes('json'), { name: 'key', kind: 'literal', types: ['Bytes', 'Int'] }],
    variadic: { name: 'key', kind: 'literal', types: ['Bytes', 'Int'] },
    returns: 'Bytes',
    description: 'The string at a path of keys and indexes in a JSON document.',
  },
  {
    name: 'lower',
    params: [bytes('value')],
    returns: 'Bytes',
    description: 'Converts ASCII letters to lower case.',
  },
  {
    name: 'upper',
    params: [bytes('value')],
    returns: 'Bytes',
    description: 'Converts ASCII letters to upper case.',
  },
  {
    name: 'regex_replace',
    params: [
      bytes('source'),
      { ...bytes('regex', 'literal'), pattern: 'regex' },
      bytes('replacement', 'literal'),
    ],
    returns: 'Bytes',
    phases: REWRITE_PHASES,
    rewriteOnly: true,
    oncePerExpression: true,
    description: 'Replaces the first match of a regular expression.',
  },
  {
    name: 'remove_bytes',
    params: [bytes('value'), bytes('bytes', 'literal')],
    returns: 'Bytes',
    description: 'Removes every occurrence of the given bytes.',
  },
  {
    name: 'remove_query_args',
    params: [
      { ...bytes('query'), fields: ['http.request.uri.query', 'raw.http.request.uri.query'] },
      bytes('name', 'literal'),
    ],
    variadic: bytes('name', 'literal'),
    returns: 'Bytes',
    phases: REQUEST_TRANSFORMS,
    rewriteOnly: true,
    description: 'Removes query arguments by name, keeping the order of the others.',
  },
  {
    name: 'sha256',
    params: [bytes('input', 'both')],
    returns: 'Bytes',
    phases: HEADER_TRANSFORMS,
    plan: 'enterprise',
    requires: 'enablement by Cloudflare',
    description: 'The SHA-256 digest (raw bytes; combine with encode_base64).',
  },
  {
    name: 'split',
    params: [
      bytes('input'),
      bytes('separator', 'literal', nonEmpty),
      int('limit', 'literal', intBetween(1, 128, 'the limit')),
    ],
    returns: arrayOf('Bytes'),
    phases: ['http_response_headers_transform', 'http_custom_errors'],
    description: 'Splits a string into at most `limit` items.',
  },
  {
    name: 'starts_with',
    params: [bytes('source'), bytes('prefix', 'literal')],
    returns: 'Bool',
    description: 'Whether a string starts with a prefix.',
  },
  {
    name: 'substring',
    params: [bytes('value'), int('start', 'literal')],
    optional: [int('end', 'literal')],
    returns: 'Bytes',
    description: 'Part of a string by byte offsets (end exclusive; negative offsets count from the end).',
  },
  {
    name: 'to_string',
    params: [{ name: 'value', kind: 'field', types: ['Int', 'Bool', 'Ip'] }],
    returns: 'Bytes',
    phases: REWRITE_PHASES,
    rewriteOnly: true,
    description: 'The text of an integer, a Boolean or an IP address.',
  },
  {
    name: 'url_decode',
    params: [bytes('source')],
    optional: [bytes('options', 'literal', flags('ru'))],
    returns: 'Bytes',
    description: 'Decodes %XX escapes and + ("r": recursively, "u": also %uXXXX).',
  },
  {
    name: 'uuidv4',
    params: [bytes('seed')],
    returns: 'Bytes',
    phases: REWRITE_PHASES,
    rewriteOnly: true,
    description: 'A random UUIDv4 from a seed (use cf.random_seed).',
  },
  {
    name: 'wildcard_replace',
    params: [
      bytes('source'),
      { ...bytes('pattern', 'literal'), pattern: 'wildcard' },
      bytes('replacement', 'literal'),
    ],
    optional: [bytes('flags', 'literal', flags('s'))],
    returns: 'Bytes',
    phases: [...REQUEST_TRANSFORMS, 'http_request_dynamic_redirect'],
    rewriteOnly: true,
    oncePerExpression: true,
    description:
      'Replaces a whole-value wildcard match; the replacement may use captures $1 to $8 (written with braces).',
  },
  {
    name: 'bit_slice',
    params: [
      {
        ...bytes('protocol', 'literal', (value) =>
          typeof value === 'string' && PACKET_HEADERS.includes(value)
            ? undefined
            : `the protocol must be one of ${PACKET_HEADERS.join(', ')}`,
        ),
        namesField: true,
      },
      int('start', 'literal', intBetween(0, 2040, 'the start offset')),
      int('end', 'literal', intBetween(0, 2040, 'the end offset')),
    ],
    returns: 'Int',
    phases: ['magic_transit', 'magic_transit_managed'],
    description: 'Bits start..end (at most 32) of a packet header (ip, tcp, udp) as an integer.',
  },
  {
    name: 'is_timed_hmac_valid_v0',
    params: [
      bytes('key', 'literal'),
      bytes('message_mac', 'both'),
      int('ttl', 'literal'),
      int('current_timestamp', 'both'),
    ],
    optional: [int('length_separator', 'literal'), bytes('flags', 'literal', flags('s'))],
    returns: 'Bool',
    plan: 'pro',
    description: 'Whether a timed HMAC token is valid.',
  },
];

/** Cloudflare's functions by name. */
export const cloudflareFunctions: ReadonlyMap<string, FunctionDefinition> = new Map(
  [...definitions, ...wafFunctionDefinitions].map((definition) => [definition.name, definition]),
);

/** Whether a call counts toward a rule's regular expressions: one of its parameters is a regex pattern. */
export function takesRegex(definition: FunctionDefinition): boolean {
  const declared = [...definition.params, ...(definition.optional ?? [])];
  if (definition.variadic) declared.push(definition.variadic);
  return declared.some((parameter) => parameter.pattern === 'regex');
}
