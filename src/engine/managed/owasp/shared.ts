import { type CrsExpressionOptions, type CrsRule, crsExpression } from './crs.js';
import { CRS_FAMILIES } from './rules/index.js';

/**
 * The detection of OWASP Core Ruleset rules, for the Cloudflare Managed Ruleset's rules that catch the same
 * attacks with a blocking action: the expression that matches when one of the numbered rules would (its
 * targets, transformations and test; not its score). The rules named must be in the catalogue.
 */
export function owaspDetection(options: CrsExpressionOptions, ...numbers: number[]): string {
  const rules = numbers.map(crsRule);
  const expressions = rules.map((rule) => crsExpression(rule, options));
  return expressions.length === 1
    ? (expressions[0] as string)
    : expressions.map((e) => `(${e})`).join(' or ');
}

const byNumber = new Map<number, CrsRule>([...CRS_FAMILIES.values()].flat().map((rule) => [rule.id, rule]));

function crsRule(number: number): CrsRule {
  const rule = byNumber.get(number);
  // A renumbered or removed rule must break the build of the catalogue, not leave an empty signature.
  if (!rule) throw new Error(`the OWASP Core Ruleset has no rule ${number} written after CRS`);
  return rule;
}
