import type { RequestContext } from '../../eval/context.js';
import type { RuleName } from '../outcome.js';
import type { PreviousWafEntry } from '../zone/model.js';
import type {
  ActionMode,
  AnomalyPackage,
  OverrideAction,
  PreviousWafGroup,
  PreviousWafRule,
  Sensitivity,
  TraditionalMode,
} from './model.js';
import { urlPatternMatches } from './url-match.js';

/**
 * The modes in force for one request: the catalogue's defaults, the zone's changes (`previous_waf`
 * packages, groups, rules), then the URI-based overrides whose URLs match the request.
 *
 * Overrides: paused ones never apply; every other matching override does, and where two set the same
 * group, rule or rewritten action, the one with the lower `priority` wins (Cloudflare: a lower number is a
 * higher priority, and higher-priority overrides overwrite lower ones); at equal priority, the one listed
 * first. A group set to `disable` is off, to anything else on; `block`, `challenge` or `simulate` on a
 * group also become the mode of its traditional rules that no rule entry of an override sets. A rule of an
 * anomaly package, or a traditional allow rule, is off when set to `disable` and on otherwise.
 * `rewrite_action` then replaces the action of every traditional rule on those URLs (a `default` key
 * matches rules left in mode `default`; a `default` value means the rule's default mode), and the anomaly
 * package's action mode.
 */

type Override = NonNullable<PreviousWafEntry['overrides']>[number];

/** A value and the override or group that decided it (for the trace's `notRun.by`). */
export interface Decided<T> {
  readonly value: T;
  readonly by?: RuleName;
}

/** What a traditional rule does when it matches, after every setting. */
export type TraditionalAction = Exclude<TraditionalMode, 'default'> | 'allow';

const STAGE = 'previous_waf' as const;

export const groupName = (group: PreviousWafGroup): RuleName => ({
  id: group.id,
  description: group.name,
  stage: STAGE,
});

const overrideName = (override: Override, index: number): RuleName => ({
  id: override.id ?? `/previous_waf/overrides/${index}`,
  description: override.description ?? 'URI-based WAF override',
  stage: STAGE,
});

/** Entries of the overrides in force, each key decided by the highest-priority override setting it. */
class OverrideEntries {
  readonly groups = new Map<string, Decided<OverrideAction>>();
  readonly rules = new Map<string, Decided<OverrideAction>>();
  readonly rewrite = new Map<string, Decided<OverrideAction>>();

  constructor(overrides: readonly Override[], context: RequestContext) {
    const applying = overrides
      .map((override, index) => ({ override, index }))
      .filter(({ override }) => override.paused !== true)
      .filter(({ override }) => (override.urls ?? []).some((url) => urlPatternMatches(url, context)))
      // Lowest priority number (then first listed) last, so that it overwrites the others.
      .sort((a, b) => (b.override.priority ?? 1) - (a.override.priority ?? 1) || b.index - a.index);
    for (const { override, index } of applying) {
      const by = overrideName(override, index);
      copy(override.groups, this.groups, by);
      copy(override.rules, this.rules, by);
      copy(override.rewrite_action, this.rewrite, by);
    }
  }
}

function copy(
  from: Record<string, string> | undefined,
  to: Map<string, Decided<OverrideAction>>,
  by: RuleName,
): void {
  for (const [key, value] of Object.entries(from ?? {})) to.set(key, { value: value as OverrideAction, by });
}

const ACTIONS_FROM_GROUP: readonly string[] = ['block', 'challenge', 'simulate'];

export class EffectiveSettings {
  private readonly overrides: OverrideEntries;
  private readonly zoneGroups: Map<string, string>;
  private readonly zoneRules: Map<string, string>;

  constructor(
    private readonly config: PreviousWafEntry,
    context: RequestContext,
  ) {
    this.overrides = new OverrideEntries(config.overrides ?? [], context);
    this.zoneGroups = new Map((config.groups ?? []).map((group) => [group.id, group.mode]));
    this.zoneRules = new Map((config.rules ?? []).map((rule) => [rule.id, rule.mode]));
  }

  /** Whether a group's rules run; when not, who turned it off. */
  groupOn(group: PreviousWafGroup): Decided<boolean> {
    const override = this.overrides.groups.get(group.id);
    if (override !== undefined) return { value: override.value !== 'disable', by: override.by };
    const mode = this.zoneGroups.get(group.id) ?? group.mode;
    return { value: mode !== 'off', by: groupName(group) };
  }

  /** An on/off rule (anomaly, traditional allow): whether it runs. */
  ruleOn(rule: PreviousWafRule): Decided<boolean> {
    const override = this.overrides.rules.get(rule.id);
    if (override !== undefined) return { value: override.value !== 'disable', by: override.by };
    return { value: (this.zoneRules.get(rule.id) ?? rule.mode) !== 'off' };
  }

  /** A traditional rule's action when it matches (`disable`: it does not run). */
  traditionalAction(rule: PreviousWafRule): Decided<TraditionalAction> {
    if (rule.kind !== 'traditional-deny') {
      const on = this.ruleOn(rule);
      return { value: on.value ? 'allow' : 'disable', ...(on.by ? { by: on.by } : {}) };
    }
    const configured = this.configuredMode(rule);
    const resolve = (mode: string) =>
      (mode === 'default' ? rule.default_mode : mode) as Exclude<TraditionalMode, 'default'>;
    const resolved = resolve(configured.value);
    const rewrite = this.overrides.rewrite.get(configured.value) ?? this.overrides.rewrite.get(resolved);
    if (rewrite !== undefined) return { value: resolve(rewrite.value), by: rewrite.by };
    return configured.by ? { value: resolved, by: configured.by } : { value: resolved };
  }

  private configuredMode(rule: PreviousWafRule): Decided<string> {
    const own = this.overrides.rules.get(rule.id);
    if (own !== undefined) return own;
    const group = this.overrides.groups.get(rule.group_id);
    if (group !== undefined && ACTIONS_FROM_GROUP.includes(group.value)) return group;
    return { value: this.zoneRules.get(rule.id) ?? rule.mode };
  }

  /** An anomaly package's sensitivity and action mode (`disable`: rewritten to take no action). */
  anomaly(pkg: AnomalyPackage): { sensitivity: Sensitivity; actionMode: Decided<ActionMode | 'disable'> } {
    const own = (this.config.packages ?? []).find((entry) => entry.id === pkg.id);
    const sensitivity = (own?.sensitivity as Sensitivity | undefined) ?? pkg.sensitivity;
    const actionMode = (own?.action_mode as ActionMode | undefined) ?? pkg.action_mode;
    const rewrite = this.overrides.rewrite.get(actionMode);
    if (rewrite === undefined) return { sensitivity, actionMode: { value: actionMode } };
    const value = rewrite.value === 'default' ? actionMode : (rewrite.value as ActionMode | 'disable');
    return { sensitivity, actionMode: { value, by: rewrite.by } };
  }
}
