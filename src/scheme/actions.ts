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

/** Phases whose rulesets cfrules stores, checks and simulates. */
export const RULESET_PHASES = [
  'http_request_firewall_custom',
  'http_request_firewall_managed',
  'http_ratelimit',
] as const;
export type RulesetPhase = (typeof RULESET_PHASES)[number];

export const isRulesetPhase = (phase: string): phase is RulesetPhase =>
  (RULESET_PHASES as readonly string[]).includes(phase);

/** Every action of ruleset rules known here; each phase allows some (PHASE_ACTIONS). */
export const RULE_ACTIONS = [
  'block',
  'challenge',
  'js_challenge',
  'managed_challenge',
  'log',
  'skip',
  'execute',
] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];

export const PHASE_ACTIONS: Readonly<Record<RulesetPhase, readonly RuleAction[]>> = {
  http_request_firewall_custom: ['block', 'challenge', 'js_challenge', 'managed_challenge', 'log', 'skip'],
  // Managed rules are deployed, not written: execute a catalogue ruleset, or skip some of it.
  http_request_firewall_managed: ['execute', 'skip'],
  http_ratelimit: ['block', 'challenge', 'js_challenge', 'managed_challenge', 'log'],
};
