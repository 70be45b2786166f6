import type { ManagedRule } from './model.js';

/**
 * What an `execute` rule's `overrides` make of a managed rule: the rule's own override wins over a category
 * override, which wins over the ruleset-wide one, which wins over the catalogue's default. Among several
 * category overrides that cover a rule, the first in the list that sets a setting wins. Scoring rules of
 * the OWASP ruleset only add to the score whatever their action, so an action override changes the
 * signature rules and the anomaly rule only.
 */

export interface OverrideSettings {
  action?: string;
  enabled?: boolean;
  score_threshold?: number;
}

export interface ExecuteOverrides extends OverrideSettings {
  categories?: ({ category: string } & OverrideSettings)[];
  rules?: ({ id: string } & OverrideSettings)[];
}

export interface DeployedSettings {
  enabled: boolean;
  action: string;
  scoreThreshold?: number;
  /** Turned off by a `paranoia-level-N` category: the rule is above the deployed paranoia level. */
  aboveParanoiaLevel: boolean;
}

export function deployedSettings(rule: ManagedRule, overrides: ExecuteOverrides = {}): DeployedSettings {
  const own = overrides.rules?.find((override) => override.id === rule.id);
  const categories = (overrides.categories ?? []).filter((override) =>
    rule.categories.includes(override.category),
  );
  const pick = <K extends keyof OverrideSettings>(key: K): OverrideSettings[K] =>
    own?.[key] ?? categories.find((override) => override[key] !== undefined)?.[key] ?? overrides[key];
  const enabledBy = own?.enabled ?? categories.find((override) => override.enabled !== undefined);
  const enabled = pick('enabled') ?? rule.enabled;
  // Off because of its paranoia level: turned off by a `paranoia-level-N` category, or a scoring rule of a
  // level above 1 that nothing turned on (the ruleset deploys at paranoia level 1).
  const aboveParanoiaLevel =
    !enabled &&
    ((typeof enabledBy === 'object' &&
      enabledBy.enabled === false &&
      enabledBy.category.startsWith('paranoia-level-')) ||
      (enabledBy === undefined &&
        pick('enabled') === undefined &&
        rule.kind === 'scoring' &&
        rule.paranoiaLevel > 1));
  return {
    enabled,
    action: rule.kind === 'scoring' ? rule.action : (pick('action') ?? rule.action),
    ...(rule.kind === 'anomaly' ? { scoreThreshold: pick('score_threshold') ?? rule.scoreThreshold } : {}),
    aboveParanoiaLevel,
  };
}
