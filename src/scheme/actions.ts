/**
 * The actions of rules, by product and phase: data the store, the service (which refuses what a phase does
 * not allow) and the engine (which runs them) share.
 */

/** Firewall rules' actions, as the API lists them. */
export const FIREWALL_RULE_ACTIONS = [
  'block',
  'challenge',
  'js_challenge',
  'managed_challenge',
  'allow',
  'log',
  'bypass',
] as const;
export type FirewallRuleAction = (typeof FIREWALL_RULE_ACTIONS)[number];

/** The products a `bypass` firewall rule (or a custom rule's `skip`) can skip. */
export const BYPASS_PRODUCTS = [
  'zoneLockdown',
  'uaBlock',
  'bic',
  'hot',
  'securityLevel',
  'rateLimit',
  'waf',
] as const;

/** Phases a custom rule may skip the rest of (`action_parameters.phases` of a skip). */
export const SKIPPABLE_PHASES = [
  'http_ratelimit',
  'http_request_firewall_managed',
  'http_request_sbfm',
] as const;

/**
 * The zone-level phases of the application layer whose entry points and custom rulesets cfrules stores and
 * checks, in Cloudflare's order of evaluation (its Phases list: request phases, then response phases). The
 * managed phases that run Cloudflare's own rulesets only (DDoS, Super Bot Fight Mode, sensitive data in
 * responses) are not among them.
 */
export const RULESET_PHASES = [
  'http_request_dynamic_redirect',
  'http_request_transform',
  'http_config_settings',
  'http_request_origin',
  'http_request_firewall_custom',
  'http_ratelimit',
  'http_request_firewall_managed',
  'http_request_late_transform',
  'http_request_cache_settings',
  'http_custom_errors',
  'http_response_headers_transform',
  'http_response_compression',
  'http_log_custom_fields',
] as const;
export type RulesetPhase = (typeof RULESET_PHASES)[number];

export const isRulesetPhase = (phase: string): phase is RulesetPhase =>
  (RULESET_PHASES as readonly string[]).includes(phase);

/** The WAF's phases, which a zone's configuration always shows; the others are the Rules products'. */
export const WAF_PHASES: readonly RulesetPhase[] = [
  'http_request_firewall_custom',
  'http_request_firewall_managed',
  'http_ratelimit',
];

export const isWafPhase = (phase: string): boolean => (WAF_PHASES as readonly string[]).includes(phase);

/** Every action of ruleset rules known here; each phase allows some (PHASE_ACTIONS). */
export const RULE_ACTIONS = [
  'block',
  'challenge',
  'js_challenge',
  'managed_challenge',
  'log',
  'skip',
  'execute',
  'rewrite',
  'redirect',
  'route',
  'set_cache_settings',
  'set_config',
  'serve_error',
  'compress_response',
  'log_custom_field',
] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];

export const PHASE_ACTIONS: Readonly<Record<RulesetPhase, readonly RuleAction[]>> = {
  http_request_dynamic_redirect: ['redirect'],
  http_request_transform: ['rewrite'],
  http_request_origin: ['route'],
  http_request_cache_settings: ['set_cache_settings'],
  http_config_settings: ['set_config'],
  http_request_firewall_custom: ['block', 'challenge', 'js_challenge', 'managed_challenge', 'log', 'skip'],
  http_ratelimit: ['block', 'challenge', 'js_challenge', 'managed_challenge', 'log'],
  // Managed rules are deployed, not written: execute a catalogue ruleset, or skip some of it.
  http_request_firewall_managed: ['execute', 'skip'],
  http_request_late_transform: ['rewrite'],
  http_custom_errors: ['serve_error'],
  http_response_headers_transform: ['rewrite'],
  http_response_compression: ['compress_response'],
  http_log_custom_fields: ['log_custom_field'],
};
