import {
  MIGRATION_MAPPING,
  PREVIOUS_WAF_GROUPS,
  PREVIOUS_WAF_PACKAGES,
  PREVIOUS_WAF_RULES,
} from './catalogue.js';
import type { PreviousWafGroup, PreviousWafPackage, PreviousWafRule } from './model.js';
import type { MigrationTarget } from './targets.js';

/**
 * The previous WAF catalogue as the simulator and the zone checks read it. The shipped catalogue is the
 * default; tests pass their own to reach behaviour the shipped data cannot show (its one allow rule has
 * no equivalent in the new rulesets, so it never matches).
 */
export interface PreviousWafCatalogue {
  readonly packages: readonly PreviousWafPackage[];
  readonly groups: readonly PreviousWafGroup[];
  readonly rules: readonly PreviousWafRule[];
  readonly mapping: ReadonlyMap<string, MigrationTarget>;
}

export const SHIPPED_CATALOGUE: PreviousWafCatalogue = {
  packages: PREVIOUS_WAF_PACKAGES,
  groups: PREVIOUS_WAF_GROUPS,
  rules: PREVIOUS_WAF_RULES,
  mapping: MIGRATION_MAPPING,
};

/** What replaces a group or rule; an id outside the mapping stands for nothing. */
export function targetOf(catalogue: PreviousWafCatalogue, id: string): MigrationTarget {
  return catalogue.mapping.get(id) ?? { kind: 'none', reason: 'the migration mapping has no entry for it' };
}

interface CatalogueIndex {
  readonly rulesByPackage: ReadonlyMap<string, readonly PreviousWafRule[]>;
  readonly groupById: ReadonlyMap<string, PreviousWafGroup>;
}

const indexes = new WeakMap<PreviousWafCatalogue, CatalogueIndex>();

/** The catalogue's rules by package and groups by id, built once per catalogue (lookups run per request). */
export function catalogueIndex(catalogue: PreviousWafCatalogue): CatalogueIndex {
  let index = indexes.get(catalogue);
  if (index === undefined) {
    const rulesByPackage = new Map<string, PreviousWafRule[]>();
    for (const rule of catalogue.rules) {
      const rules = rulesByPackage.get(rule.package_id) ?? [];
      rules.push(rule);
      rulesByPackage.set(rule.package_id, rules);
    }
    index = { rulesByPackage, groupById: new Map(catalogue.groups.map((group) => [group.id, group])) };
    indexes.set(catalogue, index);
  }
  return index;
}
