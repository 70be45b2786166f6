/**
 * What a simulation answers (docs/engine.md documents the JSON): the final action, the rule that decided
 * it, and a trace shaped like Cloudflare Trace's — phase → ruleset → rule — of every rule considered.
 */

/** Actions that can end a request's evaluation. `none`: nothing decided (the request goes on). */
export type FinalAction = 'block' | 'challenge' | 'js_challenge' | 'managed_challenge' | 'allow' | 'none';

/**
 * Where a step runs, in the order they run: the legacy firewall rules, the Ruleset Engine's phases, and
 * the previous WAF.
 */
export const STAGES = [
  'firewall_rules',
  'http_request_firewall_custom',
  'http_ratelimit',
  'http_request_firewall_managed',
  'previous_waf',
] as const;
export type Stage = (typeof STAGES)[number];

/** A rule as named in results: by `id`, and its `ref` when it has one (test files may use either). */
export interface RuleName {
  id: string;
  ref?: string;
  description?: string;
  /** The ruleset holding the rule (absent for firewall rules and previous WAF rules). */
  ruleset?: string;
  stage: Stage;
}

export interface SimulationResult {
  action: FinalAction;
  /** The rule whose action is `action` (absent when `none`). */
  decidedBy?: RuleName;
  /** Every rule whose expression matched and that was not skipped or disabled, in evaluation order. */
  matched: RuleName[];
  /** Phases and products skipped for this request, and by which rule. */
  skipped: { target: string; by: RuleName }[];
  trace: StageTrace[];
}

export interface StageTrace {
  type: 'stage';
  name: Stage;
  /** `skipped`: a rule skipped the whole stage (`skippedBy`); `not_reached`: evaluation ended before it. */
  status: 'evaluated' | 'skipped' | 'not_reached' | 'off';
  skippedBy?: RuleName;
  trace: (RulesetTrace | RuleTrace)[];
}

export interface RulesetTrace {
  type: 'ruleset';
  id: string;
  name?: string;
  kind: string;
  /** OWASP anomaly scoring: the running total when the ruleset finished. */
  score?: number;
  trace: (RulesetTrace | RuleTrace)[];
}

export interface RuleTrace {
  type: 'rule';
  id: string;
  ref?: string;
  description?: string;
  expression: string;
  /** The action the rule would take, after overrides. */
  action: string;
  /** Whether the expression matched (false when the rule did not run). */
  matched: boolean;
  /**
   * Why the rule did not run: disabled, paused, skipped by another rule, above the OWASP paranoia level,
   * or (previous WAF) nothing in the new managed rules replaces it, so cfrules cannot match it.
   */
  notRun?: {
    reason: 'disabled' | 'paused' | 'skipped' | 'below_paranoia_level' | 'no_equivalent';
    by?: RuleName;
  };
  /** Whether this rule ended evaluation (of the stage, or of the request). */
  terminated?: boolean;
  /** OWASP: the score this rule added. */
  score?: number;
  /** Execute rules: the ruleset run; nested rules are in `trace`. */
  trace?: (RulesetTrace | RuleTrace)[];
}
