import type { ZoneFile } from '../../engine/zone/model.js';
import { planNames } from '../../scheme/profile.js';
import type { RuleJson as FirewallRuleJson } from '../../service/firewall-rules.js';
import type { PageRuleJson } from '../../service/page-rules.js';
import { RULESET_PHASES, type RulesetJson } from '../../service/rulesets/model.js';
import type { StatusResult } from '../../service/waf-migration.js';
import type { OverrideJson } from '../../service/waf-overrides.js';
import { assembleZoneFile, executedCustomRulesetIds, type ZoneParts } from '../../service/zone-file.js';
import {
  type ApiConnection,
  entryPointsFromApi,
  getAllPages,
  getResult,
  mayRead,
  resolveZone,
} from './api-source.js';
import { ExportError } from './source.js';

/**
 * `cfrules export zone` over HTTP: reads each part of the zone's configuration from its endpoint (the
 * calls a user of Cloudflare's API would make) and assembles the zone file as the service itself does
 * (src/service/zone-file.ts), so that --api and --db write the same file. The account's rulesets need a
 * credential that reaches the account: without one they are left out, and `warnings` says so.
 */

export async function readZoneFileFromApi(
  source: ApiConnection,
): Promise<{ zoneId: string; file: ZoneFile; warnings: string[] }> {
  const zone = await resolveZone(source);
  const zoneId = zone.id;
  const plan = zone.plan?.legacy_id ?? zone.plan?.id ?? 'enterprise';
  if (!(plan in planNames)) throw new ExportError(`zone ${zoneId} has a plan cfrules does not know: ${plan}`);
  const at = (rest: string) => `/zones/${zoneId}${rest}`;
  const firewallRules = await getAllPages<FirewallRuleJson>(source, at('/firewall/rules'));
  const warnings: string[] = [];
  const account = zone.account?.id === undefined ? undefined : `/accounts/${zone.account.id}`;
  let accountRulesets: RulesetJson[] | undefined;
  if (account !== undefined && (await mayRead(source, `${account}/rulesets`))) {
    accountRulesets = await deployedFromApi(source, account);
  } else if (account !== undefined) {
    warnings.push(
      `the account's rulesets are left out: the token does not reach account ${zone.account?.id} (it takes a token for every zone of the account, with account_rulesets:read)`,
    );
  }
  const pageRules = await getResult<PageRuleJson[]>(source, at('/pagerules'));
  const parts: ZoneParts = {
    plan: plan as ZoneParts['plan'],
    ...(zone.name === undefined ? {} : { name: zone.name }),
    firewallRules,
    rulesets: await deployedFromApi(source, at('')),
    ...(accountRulesets === undefined ? {} : { accountRulesets }),
    pageRules,
  };
  // The Free plan never had the previous WAF (its endpoints answer 400), and a migrated zone no longer
  // has it (410): neither is asked.
  if (plan === 'free') return { zoneId, file: assembleZoneFile(parts), warnings };
  parts.migration = await getResult<StatusResult>(source, at('/waf_migration/status'));
  if (parts.migration.migration_state !== 'complete') parts.previousWaf = await previousWaf(source, at);
  return { zoneId, file: assembleZoneFile(parts), warnings };
}

/** The entry points of the zone or account at `owner` (`/zones/<id>`), then the custom rulesets they execute. */
async function deployedFromApi(source: ApiConnection, owner: string): Promise<RulesetJson[]> {
  const entryPoints = await entryPointsFromApi(source, owner, RULESET_PHASES);
  const executed: RulesetJson[] = [];
  for (const id of executedCustomRulesetIds(entryPoints)) {
    executed.push(await getResult<RulesetJson>(source, `${owner}/rulesets/${id}`));
  }
  return [...entryPoints, ...executed];
}

async function previousWaf(
  source: ApiConnection,
  at: (rest: string) => string,
): Promise<NonNullable<ZoneParts['previousWaf']>> {
  const packagesPath = at('/firewall/waf/packages');
  const packages = await getAllPages<{ id: string; sensitivity?: string; action_mode?: string }>(
    source,
    packagesPath,
  );
  const groups: { id: string; mode: string }[] = [];
  const rules: { id: string; mode: string }[] = [];
  for (const pkg of packages) {
    groups.push(
      ...(await getAllPages<{ id: string; mode: string }>(source, `${packagesPath}/${pkg.id}/groups`)),
    );
    rules.push(
      ...(await getAllPages<{ id: string; mode: string }>(source, `${packagesPath}/${pkg.id}/rules`)),
    );
  }
  const overrides = await getAllPages<OverrideJson>(source, at('/firewall/waf/overrides'));
  return { packages, groups, rules, overrides };
}
