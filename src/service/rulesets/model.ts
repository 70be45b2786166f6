import type { RulesetPhase } from '../../scheme/actions.js';
import type { Plan } from '../../scheme/profile.js';
import type { RulesetHeader, RulesetRecord, RulesetRuleRecord } from '../../store/store.js';

/**
 * The Rulesets API's vocabulary as cfrules serves it (to zones and accounts; owner.ts has what differs):
 * the phases it keeps entry points for, the actions each phase allows, limits, and the JSON of rulesets and
 * rules.
 */

export {
  isRulesetPhase,
  PHASE_ACTIONS,
  RULE_ACTIONS,
  RULESET_PHASES,
  type RuleAction,
  type RulesetPhase,
} from '../../scheme/actions.js';

/**
 * The rules of Cloudflare's Rules products (Transform, Redirect, Origin, Cache, Configuration, Compression
 * and Custom Error Rules): 10, 25, 50 and 300 by plan, as the products' pages list them.
 */
const RULES_PRODUCT_QUOTA: Readonly<Record<Plan, number>> = {
  free: 10,
  pro: 25,
  business: 50,
  enterprise: 300,
};

/** Rules a ruleset of the phase may hold, by plan (custom rules as for firewall rules). */
export const PHASE_RULE_QUOTA: Readonly<Record<RulesetPhase, Readonly<Record<Plan, number>>>> = {
  http_request_dynamic_redirect: RULES_PRODUCT_QUOTA,
  http_request_transform: RULES_PRODUCT_QUOTA,
  http_request_origin: RULES_PRODUCT_QUOTA,
  http_request_cache_settings: RULES_PRODUCT_QUOTA,
  http_config_settings: RULES_PRODUCT_QUOTA,
  http_request_firewall_custom: { free: 5, pro: 20, business: 100, enterprise: 1000 },
  http_ratelimit: { free: 1, pro: 2, business: 5, enterprise: 100 },
  http_request_firewall_managed: { free: 100, pro: 100, business: 100, enterprise: 1000 },
  http_request_late_transform: RULES_PRODUCT_QUOTA,
  http_custom_errors: RULES_PRODUCT_QUOTA,
  http_response_headers_transform: RULES_PRODUCT_QUOTA,
  http_response_compression: RULES_PRODUCT_QUOTA,
  // Custom log fields are an Enterprise feature (Logpush); Cloudflare publishes no rule count for it.
  http_log_custom_fields: { free: 0, pro: 0, business: 0, enterprise: 300 },
};

export const RULESET_LIMITS = { name: 255, description: 500, ruleDescription: 500, ref: 100 } as const;

export const RULESET_KINDS = ['managed', 'custom', 'root', 'zone'] as const;

export interface RuleJson {
  id: string;
  version: string;
  action: string;
  action_parameters?: Record<string, unknown>;
  expression: string;
  description: string;
  enabled: boolean;
  logging?: { enabled: boolean };
  ratelimit?: Record<string, unknown>;
  /** Managed rules only. */
  categories?: string[];
  /** The OWASP anomaly rule only. */
  score_threshold?: number;
  ref: string;
  last_updated: string;
}

export interface RulesetJson {
  id: string;
  name: string;
  description: string;
  /** Managed rulesets only: where Cloudflare says they come from. */
  source?: string;
  kind: string;
  version: string;
  last_updated: string;
  phase: string;
  /** Left out of lists. */
  rules?: RuleJson[];
}

export function ruleJson(rule: RulesetRuleRecord): RuleJson {
  return {
    id: rule.id,
    version: String(rule.version),
    action: rule.action,
    ...(rule.actionParameters === undefined ? {} : { action_parameters: rule.actionParameters }),
    expression: rule.expression,
    description: rule.description,
    enabled: rule.enabled,
    ...(rule.logging === undefined ? {} : { logging: rule.logging }),
    ...(rule.ratelimit === undefined ? {} : { ratelimit: rule.ratelimit }),
    ref: rule.ref,
    last_updated: rule.lastUpdated,
  };
}

export const headerJson = (ruleset: RulesetHeader): RulesetJson => ({
  id: ruleset.id,
  name: ruleset.name,
  description: ruleset.description,
  kind: ruleset.kind,
  version: String(ruleset.version),
  last_updated: ruleset.lastUpdated,
  phase: ruleset.phase,
});

export const rulesetJson = (ruleset: RulesetRecord): RulesetJson => ({
  ...headerJson(ruleset),
  rules: ruleset.rules.map(ruleJson),
});

/**
 * The time as the Rulesets API writes it: RFC 3339 in UTC with microseconds (`2022-07-20T10:44:29.124515Z`),
 * from the high-resolution clock so that two changes in the same millisecond still read in order.
 */
export function timestamp(): string {
  const micros = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  const iso = new Date(Math.floor(micros / 1000)).toISOString();
  return `${iso.slice(0, -1)}${String(micros % 1000).padStart(3, '0')}Z`;
}
