import type { FunctionDefinition, LiteralValue, Parameter } from './functions.js';
import { arrayOf } from './types.js';
import { PHRASE_LISTS } from './waf-phrase-lists/index.js';

/**
 * The functions Cloudflare's managed rules may use and customers' rules may not (`managedOnly`): the
 * transformations a web application firewall applies to what it inspects, and its detectors. cfrules'
 * managed rulesets are written with them (docs/managed-rules.md); the checker refuses them in any other
 * expression. The evaluator implements them in src/eval/functions/waf/.
 */

/**
 * The transformations of `waf_transform`, by ModSecurity's names (the Core Rule Set's `t:` actions).
 * `none` is accepted and does nothing, so that a rule's list can be written as the Core Rule Set writes it.
 */
export const WAF_TRANSFORMATIONS = [
  'none',
  'lowercase',
  'uppercase',
  'urlDecode',
  'urlDecodeUni',
  'urlEncode',
  'htmlEntityDecode',
  'jsDecode',
  'cssDecode',
  'compressWhitespace',
  'removeWhitespace',
  'removeNulls',
  'replaceNulls',
  'removeComments',
  'replaceComments',
  'removeCommentsChar',
  'cmdLine',
  'normalizePath',
  'normalisePath',
  'normalizePathWin',
  'normalisePathWin',
  'base64Decode',
  'base64DecodeExt',
  'base64Encode',
  'hexDecode',
  'sqlHexDecode',
  'utf8toUnicode',
  'trim',
  'trimLeft',
  'trimRight',
  'escapeSeqDecode',
  'length',
  'hexEncode',
  'md5',
  'sha1',
] as const;

export type WafTransformation = (typeof WAF_TRANSFORMATIONS)[number];

const knownTransformations: ReadonlySet<string> = new Set(WAF_TRANSFORMATIONS);

/** A chain is written `name,name,…` (at least one). */
export const transformationChain = (text: string): WafTransformation[] =>
  text.split(',').map((name) => name.trim()) as WafTransformation[];

function checkChain(value: LiteralValue): string | undefined {
  if (typeof value !== 'string' || value.trim() === '')
    return 'expected transformation names separated by commas';
  const unknown = transformationChain(value).find((name) => !knownTransformations.has(name));
  return unknown === undefined ? undefined : `unknown transformation ${unknown}`;
}

/** Phrase lists of `waf_phrases`, by name: data in waf-phrase-lists/. */
export const WAF_PHRASE_LISTS: Readonly<Record<string, readonly string[]>> = PHRASE_LISTS;

function checkPhraseList(value: LiteralValue): string | undefined {
  if (typeof value === 'string' && Object.hasOwn(WAF_PHRASE_LISTS, value)) return undefined;
  return `unknown phrase list; known: ${Object.keys(WAF_PHRASE_LISTS).join(', ')}`;
}

/** `a-b` byte ranges and single bytes (decimal), separated by commas: `1-8,11-31,127`. */
export function byteRanges(text: string): [number, number][] | undefined {
  const ranges: [number, number][] = [];
  for (const item of text.split(',')) {
    const match = /^\s*(\d{1,3})\s*(?:-\s*(\d{1,3})\s*)?$/.exec(item);
    if (!match) return undefined;
    const low = Number(match[1]);
    const high = match[2] === undefined ? low : Number(match[2]);
    if (low > 255 || high > 255 || low > high) return undefined;
    ranges.push([low, high]);
  }
  return ranges;
}

const checkByteRanges = (value: LiteralValue): string | undefined =>
  typeof value === 'string' && byteRanges(value)
    ? undefined
    : 'expected byte values and ranges between 0 and 255, such as "1-8,11-31,127"';

const checkGroup = (value: LiteralValue): string | undefined =>
  typeof value === 'bigint' && value >= 0n && value <= 9n ? undefined : 'expected a group number from 0 to 9';

const mapField: Parameter = { name: 'map', kind: 'field', types: ['Map<_>'] };
const namePattern: Parameter = { name: 'names', kind: 'literal', types: ['Bytes'], pattern: 'regex' };

const bytesField = (name: string): Parameter => ({ name, kind: 'field', types: ['Bytes'] });
const TARGETS: Parameter = { name: 'values', kind: 'field', types: ['Bytes', arrayOf('Bytes')] };
const MANAGED = ['http_request_firewall_managed'] as const;

export const wafFunctionDefinitions: readonly FunctionDefinition[] = [
  {
    name: 'waf_transform',
    params: [{ name: 'transformations', kind: 'literal', types: ['Bytes'], checkValue: checkChain }, TARGETS],
    variadic: TARGETS,
    returns: arrayOf('Bytes'),
    elements: 'each-target',
    phases: MANAGED,
    managedOnly: true,
    description:
      'Every value of the targets (Bytes or arrays of Bytes, in order) after the transformations, applied in order ("urlDecodeUni,lowercase").',
  },
  {
    name: 'waf_transform_steps',
    params: [{ name: 'transformations', kind: 'literal', types: ['Bytes'], checkValue: checkChain }, TARGETS],
    variadic: TARGETS,
    returns: arrayOf('Bytes'),
    elements: 'each-target',
    phases: MANAGED,
    managedOnly: true,
    description:
      "Every value of the targets before the transformations and after each one, without repeats (ModSecurity's multiMatch).",
  },
  {
    name: 'waf_values_matching',
    params: [mapField, namePattern],
    returns: arrayOf('Bytes'),
    phases: MANAGED,
    managedOnly: true,
    description: "The values of the map's members whose name the regex matches (ModSecurity's ARGS:/regex/).",
  },
  {
    name: 'waf_values_except',
    params: [mapField, namePattern],
    returns: arrayOf('Bytes'),
    phases: MANAGED,
    managedOnly: true,
    description:
      "The values of the map's members whose name the regex does not match (ModSecurity's exclusions).",
  },
  {
    name: 'waf_values_shorter',
    params: [
      { name: 'values', kind: 'field', types: [arrayOf('Bytes')] },
      { name: 'length', kind: 'literal', types: ['Int'] },
    ],
    returns: arrayOf('Bytes'),
    elements: 'subset-of-first',
    phases: MANAGED,
    managedOnly: true,
    description:
      'The values shorter than the length in bytes, in order: for signatures that look at what a parameter holds, not at long texts such as documents.',
  },
  {
    name: 'waf_detect_sqli',
    params: [bytesField('value')],
    returns: 'Bool',
    phases: MANAGED,
    managedOnly: true,
    description:
      'Whether the value reads as SQL injection to a tokenizing detector in the manner of libinjection.',
  },
  {
    name: 'waf_detect_xss',
    params: [bytesField('value')],
    returns: 'Bool',
    phases: MANAGED,
    managedOnly: true,
    description:
      'Whether the value holds HTML or JavaScript that can run script, read as an HTML parser would.',
  },
  {
    name: 'waf_ends_with',
    params: [bytesField('value'), bytesField('suffix')],
    returns: 'Bool',
    phases: MANAGED,
    managedOnly: true,
    description:
      "Whether the value ends with the suffix, both taken from the request (ModSecurity's @endsWith with a macro).",
  },
  {
    name: 'waf_url_host',
    params: [bytesField('url')],
    returns: 'Bytes',
    phases: MANAGED,
    managedOnly: true,
    description: 'The text between "://" and the next "/" of a URL, or missing when there is no such text.',
  },
  {
    name: 'waf_url_off_domain',
    params: [bytesField('value'), bytesField('host')],
    returns: 'Bool',
    phases: MANAGED,
    managedOnly: true,
    description:
      'Whether the URL in the value points away from the host: the text after its first "://" (and after the first "@", if any), up to "/", "?" or "#", is neither the host nor one of its subdomains, ASCII case ignored; a value without "://" has no host and points away.',
  },
  {
    name: 'waf_phrases',
    params: [
      bytesField('value'),
      { name: 'list', kind: 'literal', types: ['Bytes'], checkValue: checkPhraseList },
    ],
    returns: 'Bool',
    trueOnlyWith: 'phrase',
    phases: MANAGED,
    managedOnly: true,
    description:
      "Whether the value contains a phrase of the named list, ignoring ASCII case (ModSecurity's @pm).",
  },
  {
    name: 'waf_calls',
    params: [
      bytesField('value'),
      { name: 'list', kind: 'literal', types: ['Bytes'], checkValue: checkPhraseList },
    ],
    returns: 'Bool',
    trueOnlyWith: 'call',
    phases: MANAGED,
    managedOnly: true,
    description:
      'Whether the value calls a function named in the list: a name of the list, ASCII case ignored, that is a whole word (no letter, digit or "_" touches it), is followed by optional whitespace and "(", and does not come after another word and whitespace, as a word of prose does ("ceiling height(9ft)").',
  },
  {
    name: 'waf_bytes_within',
    params: [
      bytesField('value'),
      { name: 'ranges', kind: 'literal', types: ['Bytes'], checkValue: checkByteRanges },
    ],
    returns: 'Bool',
    phases: MANAGED,
    managedOnly: true,
    description: 'Whether every byte of the value is in the ranges ("32-126,9").',
  },
  {
    name: 'waf_capture',
    params: [
      bytesField('value'),
      { name: 'regex', kind: 'literal', types: ['Bytes'], pattern: 'regex' },
      { name: 'group', kind: 'literal', types: ['Int'], checkValue: checkGroup },
    ],
    returns: 'Bytes',
    phases: MANAGED,
    managedOnly: true,
    description:
      "The text of a capture group (0: the whole match) of the regex's first match in the value, or missing when it does not match or the group took no part (ModSecurity's capture into TX:0 to TX:9).",
  },
  {
    name: 'waf_less_than',
    params: [bytesField('value'), bytesField('other')],
    returns: 'Bool',
    phases: MANAGED,
    managedOnly: true,
    description:
      "Whether the value, read as a whole decimal number, is less than the other, both taken from the request (ModSecurity's @lt with a macro, as in TX:2 @lt %{tx.1}); false unless both are digits only.",
  },
  {
    name: 'waf_valid_url_encoding',
    params: [bytesField('value')],
    returns: 'Bool',
    phases: MANAGED,
    managedOnly: true,
    description: 'Whether every % in the value starts a valid %XX escape.',
  },
  {
    name: 'waf_valid_utf8',
    params: [bytesField('value')],
    returns: 'Bool',
    phases: MANAGED,
    managedOnly: true,
    description:
      'Whether the value is valid UTF-8 (no overlong forms, surrogates or code points above U+10FFFF).',
  },
  {
    name: 'waf_count_bytes',
    params: [
      bytesField('value'),
      { name: 'ranges', kind: 'literal', types: ['Bytes'], checkValue: checkByteRanges },
    ],
    returns: 'Int',
    phases: MANAGED,
    managedOnly: true,
    description:
      'How many bytes of the value are in the ranges ("33-38,40-43"): a count of special characters, as rules with a threshold need.',
  },
  {
    name: 'waf_captures_equal',
    params: [bytesField('value'), { ...namePattern, name: 'regex' }],
    returns: 'Bool',
    trueOnlyWith: 'match',
    phases: MANAGED,
    managedOnly: true,
    description:
      "Whether the regex's first match in the value has capture groups 1 and 2 equal, byte for byte; false when it does not match (a ModSecurity chain comparing TX:1 with TX:2).",
  },
];
