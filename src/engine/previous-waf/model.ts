/**
 * The previous WAF managed rules (before the Ruleset Engine): per zone, packages of groups of rules, in
 * the shapes of the v4 API's `/zones/{zone_id}/firewall/waf/packages…` endpoints. These are the defaults
 * a zone starts with; a zone's own modes are state the service keeps.
 */

/** Modes a traditional rule that blocks can be set to; `default` means its `default_mode`. */
export const TRADITIONAL_MODES = ['default', 'disable', 'simulate', 'block', 'challenge'] as const;
export type TraditionalMode = (typeof TRADITIONAL_MODES)[number];

/** Modes of anomaly rules, of groups, and of traditional rules that allow. */
export const ON_OFF_MODES = ['on', 'off'] as const;
export type OnOffMode = (typeof ON_OFF_MODES)[number];

/**
 * What a URI-based override may set a group or rule to, and what its `rewrite_action` maps from and to
 * (`default`: the rule's own mode).
 */
export const OVERRIDE_ACTIONS = ['challenge', 'block', 'simulate', 'disable', 'default'] as const;
export type OverrideAction = (typeof OVERRIDE_ACTIONS)[number];

export type Sensitivity = 'high' | 'medium' | 'low' | 'off';
export type ActionMode = 'simulate' | 'block' | 'challenge';

interface PackageCommon {
  readonly id: string;
  readonly name: string;
  readonly description: string;
}

/** A package whose rules each take their own action. */
export interface TraditionalPackage extends PackageCommon {
  readonly detection_mode: 'traditional';
}

/** A package whose rules add to a score; the package acts when the score passes its sensitivity. */
export interface AnomalyPackage extends PackageCommon {
  readonly detection_mode: 'anomaly';
  readonly sensitivity: Sensitivity;
  readonly action_mode: ActionMode;
}

export type PreviousWafPackage = TraditionalPackage | AnomalyPackage;

export interface PreviousWafGroup {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly package_id: string;
  readonly mode: OnOffMode;
  readonly allowed_modes: readonly OnOffMode[];
}

interface RuleCommon {
  /** Hex like the ruleset engine's, or numeric strings (`"100015"`) as some Cloudflare rules had. */
  readonly id: string;
  readonly description: string;
  /** A string in the API (`"5"`). */
  readonly priority: string;
  readonly group_id: string;
  readonly package_id: string;
}

/** A rule of an anomaly package: on or off. */
export interface AnomalyRule extends RuleCommon {
  readonly kind: 'anomaly';
  readonly mode: OnOffMode;
  readonly allowed_modes: readonly OnOffMode[];
}

/** A traditional rule that blocks, challenges or simulates. */
export interface TraditionalDenyRule extends RuleCommon {
  readonly kind: 'traditional-deny';
  readonly default_mode: Exclude<TraditionalMode, 'default'>;
  readonly mode: TraditionalMode;
  readonly allowed_modes: readonly TraditionalMode[];
}

/** A traditional rule that lets matching requests through other rules: on or off. */
export interface TraditionalAllowRule extends RuleCommon {
  readonly kind: 'traditional-allow';
  readonly mode: OnOffMode;
  readonly allowed_modes: readonly OnOffMode[];
}

export type PreviousWafRule = AnomalyRule | TraditionalDenyRule | TraditionalAllowRule;
