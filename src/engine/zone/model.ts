import type { FirewallRuleAction } from '../../scheme/actions.js';
import type { Plan } from '../../scheme/profile.js';

/**
 * A zone file: a zone's whole request-filtering configuration, in the shapes the v4 API returns, so that
 * `cfrules export zone` can write one from a running service and users can write one by hand. Read by
 * ./read.ts (unknown keys are errors with their JSON path); docs/engine.md documents it.
 */
export interface ZoneFile {
  /** Decides which fields, functions and actions the expressions may use. Default `enterprise`. */
  plan?: Plan;
  /** The zone's name: `cf.zone.name` for requests that do not give one (account rulesets scope on it). */
  name?: string;
  /** Firewall rules as `GET /zones/{id}/firewall/rules` returns them, each with its filter inline. */
  firewall_rules?: FirewallRuleEntry[];
  /** Entry points (`kind: "zone"`, one per phase) and the custom rulesets they execute. */
  rulesets?: RulesetEntry[];
  /**
   * The account's rulesets that reach the zone: entry points (`kind: "root"`, one per phase), which run
   * before the zone's of the same phase, and the custom rulesets they execute.
   */
  account_rulesets?: RulesetEntry[];
  /** The previous WAF: the zone's changes to the catalogue's packages, groups and rules, and overrides. */
  previous_waf?: PreviousWafEntry;
  /** Page rules as `GET /zones/{id}/pagerules` returns them (only the `waf` action matters here). */
  page_rules?: PageRuleEntry[];
  /** The migration's state as `GET /zones/{id}/waf_migration/status` returns it. */
  waf_migration?: WafMigrationEntry;
}

export interface FirewallRuleEntry {
  id?: string;
  ref?: string;
  description?: string;
  action: FirewallRuleAction;
  /** Lower first; rules without one run after every rule with one. */
  priority?: number | null;
  paused?: boolean;
  /** With `bypass`: the products the request skips (`waf`, `rateLimit`, `securityLevel`, …). */
  products?: string[];
  filter: { id?: string; expression: string; paused?: boolean; description?: string; ref?: string };
  created_on?: string;
  modified_on?: string;
}

export interface RulesetEntry {
  id: string;
  name?: string;
  description?: string;
  /** `zone` (`root` in account_rulesets) for entry points, `custom` for rulesets an entry point executes. */
  kind: 'zone' | 'custom' | 'root' | 'managed';
  phase: string;
  version?: string;
  last_updated?: string;
  rules: RulesetRuleEntry[];
}

export interface RulesetRuleEntry {
  id?: string;
  ref?: string;
  description?: string;
  action: string;
  expression: string;
  /** Default true. */
  enabled?: boolean;
  action_parameters?: Record<string, unknown>;
  logging?: { enabled: boolean };
  version?: string;
  last_updated?: string;
}

export interface PreviousWafEntry {
  /** The zone's `waf` setting. Default true when `previous_waf` is given. */
  enabled?: boolean;
  /** Anomaly packages' sensitivity and action mode (`PATCH …/waf/packages/{id}`). */
  packages?: { id: string; sensitivity?: string; action_mode?: string }[];
  groups?: { id: string; mode: string }[];
  rules?: { id: string; mode: string }[];
  /** URI-based overrides as `GET …/firewall/waf/overrides` returns them. */
  overrides?: {
    id?: string;
    urls: string[];
    priority?: number;
    paused?: boolean;
    groups?: Record<string, string>;
    rules?: Record<string, string>;
    rewrite_action?: Record<string, string>;
    description?: string | null;
  }[];
}

export interface PageRuleEntry {
  id?: string;
  targets: { target: 'url'; constraint: { operator: string; value: string } }[];
  actions: { id: string; value?: unknown }[];
  priority?: number;
  status?: 'active' | 'disabled';
}

export interface WafMigrationEntry {
  /** `enabled` until the migration completes. */
  old_waf_status: 'enabled' | 'disabled';
  /** `enabled` from validation on. */
  new_waf_status: 'enabled' | 'disabled';
  migration_state?: string;
}
