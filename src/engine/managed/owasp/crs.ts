import type { ScoringSpec } from '../define.js';
import { quotedString, rawString } from '../inputs.js';
import type { ParanoiaLevel, Severity } from '../model.js';
import { targetValues } from '../targets.js';

/**
 * A rule of the Cloudflare OWASP Core Ruleset as data, in the terms of the OWASP Core Rule Set (CRS) rule
 * it implements: its number, paranoia level, severity and tags, the variables it inspects, the
 * transformations it applies and the test it makes. The numbers, levels, severities, targets and
 * transformations are CRS's (facts read from its public rule files); the tests — regexes, phrase lists,
 * detectors — are cfrules' own, written from what each rule is documented to catch.
 *
 * `crsRule` turns one into a Rules-language expression over the managed-only `waf.*` fields and `waf_*`
 * functions, e.g. for 942100:
 *
 *     any(waf_detect_sqli(waf_transform_steps("utf8toUnicode,urlDecodeUni,removeNulls",
 *         waf_values_except(waf.cookies, r"^__utm"), …, waf.args.values, waf.xml.values)[*]))
 */
export interface CrsRule {
  /** CRS's rule number, first in the description as Cloudflare shows it. */
  readonly id: number;
  /** CRS's message, without the number. */
  readonly description: string;
  readonly paranoiaLevel: ParanoiaLevel;
  readonly severity: Severity;
  /** Attack-category tags (`attack-sqli`…); the paranoia-level tag is added. */
  readonly tags: readonly string[];
  /** ModSecurity variables joined by `|`, as CRS writes them (src/engine/managed/targets.ts). */
  readonly targets?: string;
  /** ModSecurity transformations, comma-separated, in order (`t:none` may be left out). */
  readonly transformations?: string;
  /** Match before the transformations and after each one, as CRS's `multiMatch`. */
  readonly multiMatch?: boolean;
  /** What each transformed value is tested with; a whole `expression` instead for rules of another shape. */
  readonly test?: CrsTest;
  /** A condition that must also hold (a CRS chain), in the Rules language. */
  readonly and?: string;
  /** The whole expression, for rules that are not one test over targets (counts, lengths, headers…). */
  readonly expression?: string;
}

/** The test a rule makes of each transformed value. */
export type CrsTest =
  /** A regex in Cloudflare's dialect (Rust syntax, byte-oriented). */
  | { readonly regex: string }
  /** A phrase of a named list (src/scheme/waf-phrase-lists.json), ignoring ASCII case: CRS's `@pm`. */
  | { readonly phrases: string }
  /** A call of a function named in a list (`waf_calls`): the name as a word, then `(`. */
  | { readonly calls: string }
  /** The libinjection-style detectors: CRS's `@detectSQLi` and `@detectXSS`. */
  | { readonly detect: 'sqli' | 'xss' }
  /** Any other comparison with one literal (`contains "x"`, `eq "y"`, `in {…}`). */
  | { readonly operator: string; readonly literal: string }
  /** Negated: the rule matches when a value fails the test (CRS's `!@…`). */
  | { readonly not: CrsTest };

export class CrsRuleError extends Error {}

/** How an expression is written besides the rule: for signatures reusing it (../shared.ts). */
export interface CrsExpressionOptions {
  /** Only transformed values shorter than this many bytes are tested. */
  readonly shorterThan?: number;
  /** A regex: transformed values it matches are left alone. */
  readonly unless?: string;
}

/** The Rules-language array a rule tests: its targets, transformed. */
function transformedValues(rule: CrsRule, options: CrsExpressionOptions): string {
  if (!rule.targets) throw new CrsRuleError(`${rule.id}: a test needs targets`);
  const values = targetValues(rule.targets);
  const chain = rule.transformations?.trim() || 'none';
  const fn = rule.multiMatch ? 'waf_transform_steps' : 'waf_transform';
  const transformed = `${fn}(${quotedString(chain)}, ${values.join(', ')})`;
  return options.shorterThan === undefined
    ? transformed
    : `waf_values_shorter(${transformed}, ${options.shorterThan})`;
}

/** `value` is one element (`x[*]`) of the transformed values; the result is an Array<Bool>-or-Bool test. */
function testOf(test: CrsTest, value: string): string {
  if ('regex' in test) return `${value} matches ${rawString(test.regex)}`;
  if ('phrases' in test) return `waf_phrases(${value}, ${quotedString(test.phrases)})`;
  if ('calls' in test) return `waf_calls(${value}, ${quotedString(test.calls)})`;
  if ('detect' in test) return `waf_detect_${test.detect}(${value})`;
  if ('operator' in test) return `${value} ${test.operator} ${test.literal}`;
  return `not ${testOf(test.not, value)}`;
}

/** The rule as a Rules-language expression. */
export function crsExpression(rule: CrsRule, options: CrsExpressionOptions = {}): string {
  if (rule.expression !== undefined)
    return rule.and ? `(${rule.expression}) and (${rule.and})` : rule.expression;
  if (!rule.test) throw new CrsRuleError(`${rule.id}: needs a test or an expression`);
  const values = transformedValues(rule, options);
  const each = `${values}[*]`;
  const tested = 'not' in rule.test ? `not ${testOf(rule.test.not, each)}` : testOf(rule.test, each);
  // `and` over the same array pairs its elements: the value that passes the test is the one left alone.
  const test = options.unless
    ? `any(${tested} and not ${each} matches ${rawString(options.unless)})`
    : `any(${tested})`;
  return rule.and ? `${test} and (${rule.and})` : test;
}

/** The catalogue's spec of a CRS rule: the description starts with the number, as Cloudflare's do. */
export function crsScoringSpec(rule: CrsRule): ScoringSpec {
  return {
    number: rule.id,
    description: rule.description,
    categories: rule.tags,
    paranoiaLevel: rule.paranoiaLevel,
    severity: rule.severity,
    expression: crsExpression(rule),
  };
}
