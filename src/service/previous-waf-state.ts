import {
  type ActionMode,
  type AnomalyPackage,
  OWASP_PACKAGE_ID,
  PREVIOUS_WAF_GROUPS,
  PREVIOUS_WAF_RULES,
  type PreviousWafGroup,
  type PreviousWafPackage,
  type PreviousWafRule,
  type Sensitivity,
  zonePackages,
} from '../engine/previous-waf/index.js';
import { planNames } from '../scheme/profile.js';
import type {
  StoreTransaction,
  WafMigrationState,
  WafSettingKind,
  WafSettingRecord,
  ZoneRecord,
} from '../store/store.js';
import { at, CODES, ServiceError } from './errors.js';

/**
 * A zone's previous WAF: the catalogue's packages, groups and rules with the zone's changes applied, and
 * the guard every previous-WAF endpoint passes first (plan, migration state).
 */

export type ZonePackage = PreviousWafPackage & { zone_id: string; status: 'active' };

/** The zone's settings by kind and item id. */
export class ZoneWaf {
  private readonly settings = new Map<string, WafSettingRecord>();

  constructor(
    readonly zoneId: string,
    records: readonly WafSettingRecord[],
  ) {
    for (const record of records) this.settings.set(`${record.kind}/${record.itemId}`, record);
  }

  static async read(tx: StoreTransaction, zoneId: string): Promise<ZoneWaf> {
    return new ZoneWaf(zoneId, await tx.wafSettings.list(zoneId));
  }

  /** The zone's changes to one item (empty when it has the catalogue's defaults). */
  changes(kind: WafSettingKind, id: string): Record<string, string> {
    return this.settings.get(`${kind}/${id}`)?.settings ?? {};
  }

  /** Every stored change, in the order made. */
  all(): WafSettingRecord[] {
    return [...this.settings.values()];
  }

  packages(): ZonePackage[] {
    return zonePackages(this.zoneId).map((pkg) => {
      if (pkg.detection_mode !== 'anomaly') return pkg;
      const changes = this.changes('package', pkg.id);
      return {
        ...pkg,
        sensitivity: (changes.sensitivity as Sensitivity | undefined) ?? pkg.sensitivity,
        action_mode: (changes.action_mode as ActionMode | undefined) ?? pkg.action_mode,
      };
    });
  }

  /** The OWASP package, and whether its sensitivity was ever changed (the "Default" row of the migration). */
  owasp(): { pkg: AnomalyPackage; sensitivityChanged: boolean } {
    const pkg = this.packages().find((p) => p.id === OWASP_PACKAGE_ID) as AnomalyPackage;
    return { pkg, sensitivityChanged: this.changes('package', OWASP_PACKAGE_ID).sensitivity !== undefined };
  }

  groups(): PreviousWafGroup[] {
    return PREVIOUS_WAF_GROUPS.map((group) => {
      const mode = this.changes('group', group.id).mode;
      return mode === undefined ? group : { ...group, mode: mode as PreviousWafGroup['mode'] };
    });
  }

  rules(): PreviousWafRule[] {
    return PREVIOUS_WAF_RULES.map((rule) => {
      const mode = this.changes('rule', rule.id).mode;
      return mode === undefined ? rule : ({ ...rule, mode } as PreviousWafRule);
    });
  }
}

export const migrationState = async (tx: StoreTransaction, zoneId: string): Promise<WafMigrationState> =>
  (await tx.wafMigrations.get(zoneId))?.state ?? 'start';

/** Free zones never had the previous WAF managed rules (nor do they migrate from them). */
export function assertWafPlan(zone: ZoneRecord): void {
  if (zone.plan === 'free') {
    throw new ServiceError(
      'bad-request',
      at(
        CODES.wafNotEntitled,
        `the WAF managed rules (previous version) need the Pro, Business or Enterprise plan; this zone is on the ${planNames.free} plan`,
      ),
    );
  }
}

/**
 * The guard of every previous-WAF endpoint (packages, groups, rules, URI-based overrides): a Pro, Business
 * or Enterprise zone that has not completed its migration. After completion those APIs are gone (410).
 */
export async function assertPreviousWaf(tx: StoreTransaction, zone: ZoneRecord): Promise<void> {
  assertWafPlan(zone);
  if ((await migrationState(tx, zone.id)) === 'complete') throw previousWafRetired();
}

export const previousWafRetired = (): ServiceError =>
  new ServiceError(
    'gone',
    at(
      CODES.previousWafRetired,
      'this zone has migrated to the new WAF Managed Rules: the previous WAF managed rules APIs no longer ' +
        'apply to it; manage the new WAF through the Rulesets API (phase http_request_firewall_managed)',
    ),
  );
