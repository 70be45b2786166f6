import type { RulesetJson } from '../../service/rulesets/model.js';

/** Whose rulesets an export reads: a zone's or an account's, by id. */
export interface ExportOwner {
  scope: 'zone' | 'account';
  id: string;
}

/**
 * What `export terraform` reads: of a zone, the entry points of the phases asked for (those it has); of an
 * account, its root entry points and its custom rulesets of those phases.
 */
export interface ExportedRulesets {
  owner: ExportOwner;
  rulesets: RulesetJson[];
  /**
   * A zone's custom rulesets (kind `custom`) of those phases, which `export terraform` leaves out and says
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

/** Zone and account ids are 32 lowercase hexadecimal characters; anything else given as a zone names it. */
export const isObjectId = (zone: string): boolean => /^[0-9a-f]{32}$/.test(zone);

/** The message when a zone or an account has no ruleset to export in the phases read. */
export function nothingToExport({ scope, id }: ExportOwner, phases: readonly string[]): ExportError {
  const what = scope === 'zone' ? 'entry point ruleset' : 'entry point or custom ruleset';
  return new ExportError(
    `${scope} ${id} has no ${what} in ${phases.join(', ')}: nothing to export (entry points are written with PUT /${scope}s/{${scope}_id}/rulesets/phases/{phase}/entrypoint)`,
  );
}
