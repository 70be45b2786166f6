/**
 * The managed rulesets cfrules ships as data: Cloudflare's ruleset ids and names, rules whose expressions
 * the project wrote itself (docs/managed-rules.md says which ids are Cloudflare's). The engine executes
 * them in the `http_request_firewall_managed` phase.
 */

/** Actions a managed rule can take by default (and that overrides may set). */
export type ManagedRuleAction = 'block' | 'challenge' | 'js_challenge' | 'managed_challenge' | 'log';

/** OWASP paranoia levels: the higher, the more rules run (and the more false positives). */
export type ParanoiaLevel = 1 | 2 | 3 | 4;

/** The tag Cloudflare gives the rules of a paranoia level, used to turn levels off by tag override. */
export const paranoiaTag = (level: ParanoiaLevel): `paranoia-level-${ParanoiaLevel}` =>
  `paranoia-level-${level}`;

/** OWASP severities and the anomaly score a matching rule of that severity adds. */
export const SEVERITY_SCORES = { critical: 5, error: 4, warning: 3, notice: 2 } as const;
export type Severity = keyof typeof SEVERITY_SCORES;

interface RuleCommon {
  /** 32 lowercase hex characters. */
  readonly id: string;
  readonly description: string;
  /** Cloudflare calls them categories in the API and tags in the dashboard; overrides select by them. */
  readonly categories: readonly string[];
  /** Whether the rule runs when the ruleset is deployed without overrides. */
  readonly enabled: boolean;
  /** Rules language, valid for the Enterprise plan in the `http_request_firewall_managed` phase. */
  readonly expression: string;
}

/** A rule of the Cloudflare Managed Ruleset: when it matches, its action applies. */
export interface SignatureRule extends RuleCommon {
  readonly kind: 'signature';
  readonly action: ManagedRuleAction;
}

/**
 * A rule of the OWASP Core Ruleset: when it matches, it only adds its score to the request's anomaly
 * score (Cloudflare shows its action as `log`); the anomaly rule decides.
 */
export interface ScoringRule extends RuleCommon {
  readonly kind: 'scoring';
  readonly action: 'log';
  readonly severity: Severity;
  readonly score: number;
  readonly paranoiaLevel: ParanoiaLevel;
}

/**
 * The OWASP rule that acts on the anomaly score: it fires when the score of the scoring rules that
 * matched reaches `scoreThreshold`. cfrules keeps the running total in the engine, not in a field, so
 * the expression is `true` (every request is scored) and the threshold comparison is the rule's own.
 */
export interface AnomalyRule extends RuleCommon {
  readonly kind: 'anomaly';
  readonly action: ManagedRuleAction;
  readonly scoreThreshold: number;
}

export type ManagedRule = SignatureRule | ScoringRule | AnomalyRule;

export interface ManagedRuleset<Rule extends ManagedRule = ManagedRule> {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly kind: 'managed';
  readonly phase: 'http_request_firewall_managed';
  readonly rules: readonly Rule[];
}
