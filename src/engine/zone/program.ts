import type { Filter } from '../../eval/compile.js';
import type { ManagedRule, ManagedRuleset } from '../managed/model.js';
import type { RuleName, Stage } from '../outcome.js';
import type { PageRuleEntry, PreviousWafEntry } from './model.js';

/**
 * A zone file compiled for simulation: every stage's rules in evaluation order, each rule pointing at its
 * expression by index in the zone's one list of filters (what the matcher answers about).
 */

export interface FirewallRuleStep {
  index: number;
  name: RuleName;
  expression: string;
  action: string;
  paused: boolean;
  products: readonly string[];
}

/** What a `skip` rule skips (its action_parameters, read). */
export interface SkipTargets {
  currentRuleset: boolean;
  stages: readonly Stage[];
  products: readonly string[];
  rulesets: readonly string[];
  /** `rulesetId/ruleId`. */
  rules: readonly string[];
}

export interface RulesetRuleStep {
  index: number;
  name: RuleName;
  expression: string;
  action: string;
  enabled: boolean;
  skip?: SkipTargets;
  /** `execute` of a custom ruleset of the zone file. */
  executesCustom?: RulesetProgram;
  /** `execute` of a catalogue managed ruleset, with its overrides applied. */
  executesManaged?: ManagedExecution;
  /** The action of a Rules product (rewrite, redirect, route, set_config, set_cache_settings), read. */
  effect?: RuleEffect;
}

/** A value of an action parameter: static, or a rewrite expression compiled for the rule's phase. */
export type ValueSource = { value: string } | { expression: string; filter: Filter };

/** One header modification (`action_parameters.headers`), in the order the rule lists them. */
export interface HeaderChange {
  name: string;
  operation: 'set' | 'add' | 'remove';
  source?: ValueSource;
}

/** What a Rules product's rule does when it matches (./pipeline.ts runs it). */
export type RuleEffect =
  | {
      kind: 'rewrite';
      /** What it rewrites: the request (URL, headers), or the response's headers. */
      of: 'request' | 'response';
      path?: ValueSource;
      query?: ValueSource;
      headers: HeaderChange[];
    }
  /** A custom error: the response becomes the rule's (status, content type). */
  | { kind: 'serve_error'; status?: number; contentType?: string }
  | {
      kind: 'redirect';
      /** Undefined for a redirect through a Bulk Redirect list (`from_list`), whose entries cfrules lacks. */
      target?: ValueSource;
      list?: string;
      status: number;
      preserveQuery: boolean;
    }
  | {
      kind: 'settings';
      group: 'config' | 'origin' | 'cache' | 'compression' | 'log';
      values: Record<string, unknown>;
    };

export interface RulesetProgram {
  id: string;
  name?: string;
  kind: string;
  rules: RulesetRuleStep[];
}

/** A managed rule as one execute rule deploys it: overrides resolved. */
export interface DeployedManagedRule {
  index: number;
  name: RuleName;
  rule: ManagedRule;
  enabled: boolean;
  /** Disabled by a `paranoia-level-N` category override (OWASP), which the trace says. */
  aboveParanoiaLevel: boolean;
  action: string;
  scoreThreshold?: number;
}

export interface ManagedExecution {
  ruleset: ManagedRuleset;
  rules: DeployedManagedRule[];
}

export interface ZoneProgram {
  /**
   * The stages a request goes through, in order: every stage of the WAF, and those of the Rules products
   * the zone (or its account) has entry points for.
   */
  stages: readonly Stage[];
  /**
   * The stages that have something to run (`stageConfigured`), in order: a request decided without a
   * trace goes through these only, since the others would leave nothing but their trace.
   */
  configuredStages: readonly Stage[];
  firewallRules: FirewallRuleStep[];
  /**
   * The position in firewallRules of each filter that is a firewall rule's, -1 for the others: the engine
   * visits the candidates of a request in their order without passing over the rules ruled out.
   */
  firewallPositions: Int32Array;
  /**
   * A bit per firewall rule, zero between requests: where a request's candidates are put in order. Made
   * once: V8 makes a typed array of more than 64 bytes outside its heap, at some 2 µs each time.
   */
  firewallWords: Uint32Array;
  /** Entry points by stage. */
  entryPoints: Partial<Record<Stage, RulesetProgram>>;
  /** The account's entry points (`kind: "root"`) by stage: they run before the zone's. */
  accountEntryPoints: Partial<Record<Stage, RulesetProgram>>;
  /** The zone's name (`cf.zone.name`) for requests that do not give one. */
  zoneName?: string;
  /** Whether the new WAF (managed phase) and the previous WAF run, from the migration state. */
  newWaf: boolean;
  previousWaf?: { config: PreviousWafEntry; pageRules: readonly PageRuleEntry[] };
}

/** Whether a stage of the program has something to run: rules, an entry point, the previous WAF. */
export function stageConfigured(program: ZoneProgram, name: Stage): boolean {
  if (name === 'firewall_rules') return program.firewallRules.length > 0;
  if (name === 'previous_waf') return program.previousWaf !== undefined;
  if (name === 'http_request_firewall_managed' && !program.newWaf) return false;
  return program.entryPoints[name] !== undefined || program.accountEntryPoints[name] !== undefined;
}
