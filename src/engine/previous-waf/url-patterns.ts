/**
 * The URL patterns of page rules and URI-based WAF overrides (`example.com/shop/*`: host and path, `*` a
 * wildcard, the scheme optional) as expressions on `http.request.full_uri`. The WAF migration writes them
 * into skip rules and the simulator compiles the same text, so a URL matches in simulation exactly when
 * the migrated rule would match it.
 */

/** Page rule target operators, as the API takes them. */
export const PAGE_RULE_OPERATORS = ['matches', 'contains', 'equals', 'not_equal', 'not_contain'] as const;

export interface UrlConstraint {
  operator: string;
  value: string;
}

const FIELD = 'http.request.full_uri';
const HAS_SCHEME = /^https?:\/\//i;

/** A string literal of the Rules language. */
const literal = (text: string): string => `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;

/** `matches`: a wildcard pattern; without a scheme it matches both http and https (case-insensitive). */
export function urlPatternExpression(pattern: string): string {
  const withScheme = (HAS_SCHEME.test(pattern) ? pattern : `http*://${pattern}`).replaceAll('\\', '\\\\');
  return `${FIELD} wildcard ${literal(withScheme)}`;
}

/** A page rule's URL target; an unknown operator reads as `matches` (the zone checks report it). */
export function urlConstraintExpression({ operator, value }: UrlConstraint): string {
  const both = HAS_SCHEME.test(value) ? [value] : [`http://${value}`, `https://${value}`];
  const oneOf =
    both.length === 1 ? `${FIELD} eq ${literal(value)}` : `${FIELD} in {${both.map(literal).join(' ')}}`;
  switch (operator) {
    case 'contains':
      return `${FIELD} contains ${literal(value)}`;
    case 'not_contain':
      return `not ${FIELD} contains ${literal(value)}`;
    case 'equals':
      return oneOf;
    case 'not_equal':
      return `not (${oneOf})`;
    default:
      return urlPatternExpression(value);
  }
}

/** What a page rule does to the previous WAF: nothing, turn it off (Disable Security, WAF Off), or on. */
export function pageRuleWafEffect(
  actions: readonly { id: string; value?: unknown }[],
): 'off' | 'on' | undefined {
  let effect: 'off' | 'on' | undefined;
  for (const action of actions) {
    if (action.id === 'disable_security' || (action.id === 'waf' && action.value === 'off')) return 'off';
    if (action.id === 'waf' && action.value === 'on') effect = 'on';
  }
  return effect;
}
