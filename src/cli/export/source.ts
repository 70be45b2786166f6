import type { RulesetJson } from '../../service/rulesets/model.js';

/** What an export reads: a zone and the entry points of the phases asked for (those it has). */
export interface ZoneEntryPoints {
  zoneId: string;
  rulesets: RulesetJson[];
  /**
   * The zone's custom rulesets (kind `custom`) of those phases, which `export terraform` leaves out and says
   * so: the provider declares custom rulesets at account level (see `leftOutWarning`).
   */
  customRulesets: CustomRulesetHeader[];
}

export type CustomRulesetHeader = Pick<RulesetJson, 'id' | 'name' | 'phase'>;

/** The custom rulesets among a zone's rulesets, in these phases. */
export const customRulesetsIn = (
  rulesets: readonly Pick<RulesetJson, 'id' | 'name' | 'phase' | 'kind'>[],
  phases: readonly string[],
): CustomRulesetHeader[] =>
  rulesets
    .filter((ruleset) => ruleset.kind === 'custom' && phases.includes(ruleset.phase))
    .map(({ id, name, phase }) => ({ id, name, phase }));

/**
 * Why an export could not read the zone (unreachable service, refused credentials, unknown zone, nothing
 * to export): reported as `cfrules export: MESSAGE`, exit status 1. Mistakes on the command line are
 * UsageErrors instead (status 2).
 */
export class ExportError extends Error {}

/** Zone ids are 32 lowercase hexadecimal characters; anything else names a zone. */
export const isZoneId = (zone: string): boolean => /^[0-9a-f]{32}$/.test(zone);

/** The message when a zone has no entry point in any of the phases read. */
export function nothingToExport(zone: string, phases: readonly string[]): ExportError {
  return new ExportError(
    `zone ${zone} has no entry point ruleset in ${phases.join(', ')}: nothing to export (entry points are written with PUT /zones/{zone_id}/rulesets/phases/{phase}/entrypoint)`,
  );
}
