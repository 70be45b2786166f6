import { RULESET_PHASES, type RulesetPhase } from '../scheme/actions.js';

/**
 * What a simulation answers (docs/engine.md documents the JSON): the final action, the rule that decided
 * it, and a trace shaped like Cloudflare Trace's — phase → ruleset → rule — of every rule considered.
 */

/**
 * Actions that can end a request's evaluation. `none`: nothing decided (the request goes on);
 * `redirect`: a Single Redirect answered the request before the security phases.
 */
export type FinalAction =
  | 'block'
  | 'challenge'
  | 'js_challenge'
  | 'managed_challenge'
  | 'allow'
  | 'redirect'
  | 'none';

/**
 * Where a step runs, in the order they run (Cloudflare's Phases list): the Rules products' request phases
 * that change the request or its settings, the legacy firewall rules, the WAF's phases and the previous
 * WAF, then the phases after the security checks.
 */
export type Stage = RulesetPhase | 'firewall_rules' | 'previous_waf';

// The legacy firewall rules run just before the custom rules, the previous WAF just after the managed rules.
const custom = RULESET_PHASES.indexOf('http_request_firewall_custom');
const afterManaged = RULESET_PHASES.indexOf('http_request_firewall_managed') + 1;
export const STAGES: readonly Stage[] = [
  ...RULESET_PHASES.slice(0, custom),
  'firewall_rules',
  ...RULESET_PHASES.slice(custom, afterManaged),
  'previous_waf',
  ...RULESET_PHASES.slice(afterManaged),
];

/** The stages that run on the response: only for requests that give one (`response`). */
export const RESPONSE_STAGES: ReadonlySet<Stage> = new Set([
  'http_custom_errors',
  'http_response_headers_transform',
  'http_response_compression',
  'http_log_custom_fields',
]);

/**
 * The stages of the Rules products: traced only when the zone configures them, so that the trace of a
 * zone without them is the WAF's alone.
 */
export const RULES_PRODUCT_STAGES: ReadonlySet<Stage> = new Set([
  'http_request_dynamic_redirect',
  'http_request_transform',
  'http_config_settings',
  'http_request_origin',
  'http_request_late_transform',
  'http_request_cache_settings',
  ...RESPONSE_STAGES,
]);

/** What a rule changed in the request: a URL part or a header, before and after (absent: none). */
export interface RequestChange {
  /** `http.request.uri.path`, `http.request.uri.query`, `http.request.headers["name"]`, `http.response.headers["name"]`, `http.response.code`. */
  target: string;
  before?: string;
  after?: string;
}

/** The request as the phases left it, when a rule changed it: what the origin would receive. */
export interface RewrittenRequest {
  /** The URL (`http.request.full_uri` after the rewrites), or the path and query without a host. */
  url: string;
  path?: string;
  query?: string;
  /** The header lines in order, names as written. */
  headers: [name: string, value: string][];
}

/** The settings rules put in effect, by product: each key as the last matching rule set it. */
export interface RequestSettings {
  /** Configuration Rules (`set_config`). */
  config?: Record<string, unknown>;
  /** Origin Rules (`route`: host_header, origin, sni). */
  origin?: Record<string, unknown>;
  /** Cache Rules (`set_cache_settings`). */
  cache?: Record<string, unknown>;
  /** Compression Rules (`compress_response`). */
  compression?: Record<string, unknown>;
  /** Custom log fields (`log_custom_field`). */
  log?: Record<string, unknown>;
}

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
  /** With `action: redirect`: where the client is sent, and the status code. */
  redirect?: { url: string; status: number };
  /** The request as the phases left it, when a URL rewrite or a header modification changed it. */
  rewritten?: RewrittenRequest;
  /** Settings the Rules products' rules put in effect for the request. */
  settings?: RequestSettings;
  /** The response as the response phases left it, when a rule changed the one the request gave. */
  response?: { status: number; headers: [name: string, value: string][] };
}

export interface StageTrace {
  type: 'stage';
  name: Stage;
  /**
   * `skipped`: a rule skipped the whole stage (`skippedBy`); `not_reached`: evaluation ended before it;
   * `no_response`: a response stage, and the request gives no response to run it on.
   */
  status: 'evaluated' | 'skipped' | 'not_reached' | 'off' | 'no_response';
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
  /** Rewrite rules: what the rule changed in the request. */
  changes?: RequestChange[];
  /** Settings rules (configuration, origin, cache): the settings it put in effect. */
  settings?: Record<string, unknown>;
  /** Redirect rules: where the request was sent. */
  redirect?: { url: string; status: number };
  /** What cfrules cannot know to simulate this rule's action (a Bulk Redirect list's entries…). */
  unknown?: string;
  /**
   * Fields the expression read that only the edge knows (client address, bot scores, a Worker's or a
   * Waiting Room's state…) and the request does not give: the answer took them as missing.
   */
  unknownFields?: string[];
}
