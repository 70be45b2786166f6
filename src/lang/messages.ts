/**
 * The texts of the diagnostic catalogue (src/lang/catalogue.ts): every message and hint of the language
 * core, by id. A message's text is the reference engine's where it has the situation, so it must never
 * change (tests compare it verbatim with Cloudflare's).
 *
 * A template is a string, or a function of named parameters (rendered for the docs with `{name}` in place
 * of each parameter, so it should only interpolate them).
 */

export type Template = string | ((params: never) => string);

export const MESSAGES = {
  // ---- syntax (lexer and parser) ----
  expectedIdentifier: 'expected identifier character',
  expectedOperator: 'expected ComparisonOp',
  expectedValue: 'expected value',
  expectedString: 'expected " or r',
  expectedBrace: 'expected literal "{"',
  expectedClose: 'expected literal ")"',
  expectedComma: 'expected literal ","',
  expectedBracket: 'expected literal "]"',
  expectedOpen: 'expected literal "("',
  unrecognisedInput: 'unrecognised input',
  indexExpected: 'expected literal "expected quoted utf8 string or positive integer"',
  indexNegative: 'expected literal "expected positive integer as index"',
  indexNotUtf8: 'expected literal "expected utf8 string"',
  nestingLimit: (p: { limit: number }) => `maximum nesting depth exceeded (limit: ${p.limit})`,
  invalidListName: (p: { name: string }) => `invalid list name ${p.name}`,
  /** Chevrotain's own message, for an error no grammar rule names (none is known to happen). */
  parserLibrary: (p: { message: string }) => p.message,
  // ---- literals ----
  noEndingQuote: 'could not find an ending quote',
  unknownEscape: 'expected ", xHH or OOO after \\',
  expectedCharacters: (p: { wanted: number; found: number }) =>
    `expected ${p.wanted} characters, but found ${p.found}`,
  invalidDigit: (p: { radix: number }) => `invalid digit found in string while parsing with radix ${p.radix}`,
  numberTooLarge: (p: { radix: number }) =>
    `number too large to fit in target type while parsing with radix ${p.radix}`,
  numberTooSmall: (p: { radix: number }) =>
    `number too small to fit in target type while parsing with radix ${p.radix}`,
  expectedRawQuote: 'expected " or #',
  rawHashCount: "invalid raw string hash count, there can't be more than 255 #s",
  expectedDigit: 'expected digit',
  expectedIpCharacter: 'expected IP address character',
  invalidAddress: "couldn't parse address in network: invalid IP address syntax",
  invalidNetworkLength: (p: { reason: string }) => `couldn't parse length in network: ${p.reason}`,
  networkTooLong: (p: { length: number; family: string; max: number }) =>
    `invalid length for network: Network length ${p.length} is too long for ${p.family} (maximum: ${p.max})`,
  hostBits: 'host part of address was not zero',
  rangeBounds: 'incompatible range bounds',
  byteSeparator: 'expected byte separator',
  /** The regex checker's own text (src/regex): `regex parse error:`, the pattern, carets, `error: …`. */
  patternError: (p: { error: string }) => p.error,
  wildcardSyntax: (p: { position: number; reason: string }) =>
    `invalid wildcard: wildcard syntax error at position ${p.position}: ${p.reason}`,
  wildcardStars: (p: { stars: number; limit: number }) =>
    `wildcard has ${p.stars} star metacharacters, but the limit is ${p.limit}`,
  wildcardDoubleStar: 'wildcard contains a double star',
  // ---- types ----
  unknownIdentifier: 'unknown identifier',
  unsupportedOperation: (p: { type: string }) => `cannot perform this operation on type ${p.type}`,
  typeMismatch: (p: { expected: string; actual: string }) =>
    `expected value of type ${p.expected}, but got ${p.actual}`,
  indexForType: (p: { index: string; type: string }) => `cannot access index ${p.index} for type ${p.type}`,
  mapEachArgument: 'invalid use of map each access operator',
  argumentCount: 'invalid number of arguments',
  argumentKind: (p: { index: number; expected: string; actual: string }) =>
    `invalid kind of argument #${p.index}: expected argument of kind ${p.expected}, but got ${p.actual}`,
  argumentType: (p: { index: number; expected: string; actual: string }) =>
    `invalid type of argument #${p.index}: expected value of type ${p.expected}, but got ${p.actual}`,
  argumentValue: (p: { index: number; problem: string }) =>
    `invalid value of argument #${p.index}: invalid argument: ${p.problem}`,
  unknownList: (p: { name: string }) => `unknown list $${p.name}`,
  listType: (p: { name: string; kind: string; type: string }) =>
    `$${p.name} is ${p.kind} list; it cannot be compared with a value of type ${p.type}`,
  listField: (p: { name: string; kind: string; fields: string }) =>
    `$${p.name} is ${p.kind} list; it can only be used with ${p.fields}`,
  rhsNotRead: 'right-hand side not read',
  // ---- validate's input ----
  invalidInput: (p: { expected: string; got: string }) => `expected ${p.expected}, got ${p.got}`,
  unknownOption: (p: { what: string; value: string; known: string }) =>
    `unknown ${p.what} ${p.value}; expected one of ${p.known}`,
  tooLong: (p: { length: number; limit: number }) =>
    `expression is too long: ${p.length} characters, the limit is ${p.limit}`,
  cannotEvaluate: (p: { reason: string }) => `cfrules cannot evaluate this: ${p.reason}`,
  // ---- compile ----
  cannotEvaluateCall: (p: { name: string; reason: string }) =>
    `cfrules cannot evaluate this call of ${p.name}: ${p.reason}`,
  // ---- plans and phases ----
  fieldRewriteOnly: (p: { name: string }) => `field ${p.name} can only be used in rewrite expressions`,
  functionRewriteOnly: (p: { name: string }) => `function ${p.name} can only be used in rewrite expressions`,
  fieldPlan: (p: { name: string; plan: string; requires: string }) =>
    `field ${p.name} is not available on the ${p.plan} plan (requires ${p.requires})`,
  fieldPhase: (p: { name: string; phase: string }) => `field ${p.name} is not available in phase ${p.phase}`,
  managedOnly: (p: { kind: string; name: string }) =>
    `${p.kind} ${p.name} is only available to Cloudflare's managed rulesets`,
  functionPlan: (p: { name: string; plan: string; requires: string }) =>
    `function ${p.name} is not available on the ${p.plan} plan (requires ${p.requires})`,
  functionPhase: (p: { name: string; phase: string }) =>
    `function ${p.name} is not available in phase ${p.phase}`,
  replaceOnce: (p: { name: string; first: string }) =>
    `${p.name} cannot be used here: ${p.first} is already used in this expression, and regex_replace and wildcard_replace may be used only once per expression`,
  matchesPlan: (p: { plan: string }) =>
    `the matches operator is not available on the ${p.plan} plan (requires Business or Enterprise)`,
  regexLimit: (p: { limit: number; number: number }) =>
    `too many regular expressions: a rule may use at most ${p.limit}, and this is number ${p.number}`,
  listPlan: (p: { kind: string; plan: string }) =>
    `${p.kind} lists are not available on the ${p.plan} plan (requires Enterprise)`,
  // ---- lints ----
  deprecatedField: (p: { name: string; replacement: string }) =>
    `${p.name} is deprecated; use ${p.replacement}`,
  headerKeyIndex: (p: { map: string; key: string }) =>
    `header names are lower-case in ${p.map}, so ${p.key} never matches`,
  headerKeyArgument: (p: { map: string; key: string }) =>
    `header names are lower-case in ${p.map}, so ${p.key} is never a key`,
  containsStar: '`contains` does not treat * as a wildcard: this looks for a literal *',
  duplicateItem: (p: { item: string }) => `${p.item} appears more than once in this set`,
  caseOfFunction: (p: { name: string; case: string; value: string }) =>
    `${p.name}() returns ${p.case}-case text, so ${p.value} never matches`,
  caseOfField: (p: { name: string; case: string; value: string }) =>
    `${p.name} is always ${p.case} case, so ${p.value} never matches`,
  notOneOf: (p: { name: string; values: string; value: string }) =>
    `${p.name} is one of ${p.values}, so ${p.value} never matches`,
  outOfRange: (p: { name: string; range: string }) =>
    `${p.name} is ${p.range}, so this comparison is never true`,
} as const satisfies Record<string, Template>;

export const HINTS = {
  expectedValue:
    'a comparison needs a literal on its right: a string, a number, an IP address or a byte string',
  comparisonOperators: 'expected a comparison operator such as eq, ne, contains, matches, wildcard or in',
  operatorTypo: (p: { word: string; operator: string }) =>
    `${p.word} is not a comparison operator; did you mean ${p.operator}?`,
  rewriteValue: (p: { name: string }) =>
    `${p.name} computes a value for a rewrite expression (Transform Rules); a filter needs a condition`,
  mapKeyQuotes: 'map keys are written in double quotes: http.request.headers["user-agent"]',
  commaInSet: (p: { set: string }) => `set items are separated by spaces, not commas: ${p.set}`,
  didYouMean: (p: { name: string }) => `did you mean ${p.name}?`,
  fieldNotFunction: (p: { name: string }) => `${p.name} is a field, not a function`,
  integerQuotes: 'integers are written without quotes: tcp.dstport eq 443',
  ipQuotes: 'IP addresses are written without quotes: ip.src eq 192.0.2.1',
  cidrInSet: 'a CIDR range can only be used in a set: ip.src in {192.0.2.0/24}',
  cidrNetwork: 'a CIDR range starts at its network address, e.g. 10.0.0.0/8 rather than 10.0.0.1/8',
  doubleQuotes: 'strings are written in double quotes',
  regexUnsupported:
    'Cloudflare accepts this pattern, but cfrules cannot evaluate it (RE2 lacks this feature)',
  tooLong: 'split the rule, or use a list ($name) or a set instead of many alternatives',
  rewriteFunction:
    'rewrite expressions set values in Transform Rules and dynamic redirects; a filter must be a condition',
  phases: (p: { phases: string }) => `it can be used in: ${p.phases}`,
  matchesPlan: 'use contains, wildcard or starts_with/ends_with instead, or upgrade the plan',
  replaceWith: (p: { replacement: string }) => `replace it with ${p.replacement}`,
  write: (p: { value: string }) => `write ${p.value}`,
  wildcardInstead: 'to match a pattern use `wildcard` (or `strict wildcard`), which matches the whole value',
} as const satisfies Record<string, Template>;

export type MessageId = keyof typeof MESSAGES;
export type HintId = keyof typeof HINTS;

/** A template's text for `params` (none for a string). */
export const render = (template: Template, params: unknown): string =>
  typeof template === 'string' ? template : (template as (p: unknown) => string)(params);

/** A template as the docs show it: each parameter as `{name}`. */
export function templateText(template: Template): string {
  if (typeof template === 'string') return template;
  const names = new Proxy({}, { get: (_, key) => `{${String(key)}}` });
  return (template as (p: unknown) => string)(names);
}
