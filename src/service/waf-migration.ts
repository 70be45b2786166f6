import { utf8Length } from '../lang/position.js';
import type { Store, StoreTransaction, WafMigrationState, ZoneRecord } from '../store/store.js';
import { type ApiMessage, at, CODES, ServiceError } from './errors.js';
import { now } from './ids.js';
import { pageRuleWafEffect } from './page-rules.js';
import { invalidQuery, type QueryParams } from './pagination.js';
import { assertWafPlan, migrationState, previousWafRetired, ZoneWaf } from './previous-waf-state.js';
import type { RulesetJson } from './rulesets/model.js';
import { type BypassRule, type MigrationConfig, migrationConfig } from './waf-migration-config.js';
import { readPhaseTwo, type WafMigrationRequest } from './waf-migration-hook.js';

/**
 * The migration from the previous WAF managed rules to the new WAF Managed Rules (`/zones/{zone_id}/
 * waf_migration/…` and the entry point PUT with `waf_migration`). States (docs/api.md §7):
 *
 *   start ──pending──────────────► complete     Pro, Business, Enterprise: the new WAF replaces the old
 *   start ──validation──► validation ──pending──► complete    Enterprise only: both run (new first) meanwhile
 *
 * `complete` is final: the previous WAF APIs answer 410 from then on, and page-rule WAF settings no
 * longer apply. A refused transition changes nothing.
 */

/** Firewall rules to migrate (bypassing the WAF) a zone may have; above, the migration needs support. */
export const MIGRATION_LIMITS = { bypassRules: 200, expressionBytes: 4096 } as const;

export interface CheckResult {
  compatible: boolean;
  migration_state: WafMigrationState;
}

export interface StatusResult {
  migration_state: WafMigrationState;
  old_waf_status: 'enabled' | 'disabled';
  new_waf_status: 'enabled' | 'disabled';
  /** When the zone entered its state (for `start`, when the zone was created). */
  created: string;
  /** `defaults` while nothing was recorded, `zone` once the migration started. */
  source: 'defaults' | 'zone';
}

/** `GET …/waf_migration/status` of a zone (the caller checks the plan). */
export async function migrationStatus(tx: StoreTransaction, zone: ZoneRecord): Promise<StatusResult> {
  const record = await tx.wafMigrations.get(zone.id);
  const state = record?.state ?? 'start';
  return {
    migration_state: state,
    old_waf_status: state === 'complete' ? 'disabled' : 'enabled',
    new_waf_status: state === 'start' ? 'disabled' : 'enabled',
    created: record?.changedOn ?? zone.createdOn,
    source: record === undefined ? 'defaults' : 'zone',
  };
}

/** The zone's firewall rules that bypass the WAF, with their filters' expressions. */
async function bypassRules(tx: StoreTransaction, zoneId: string): Promise<BypassRule[]> {
  const perPage = Math.max(1, await tx.firewallRules.count(zoneId));
  const found = await tx.firewallRules.list(zoneId, { action: 'bypass' }, { page: 1, perPage });
  return found.items
    .filter(({ rule }) => rule.products.includes('waf'))
    .map(({ rule, filter }) => ({
      id: rule.id,
      description: rule.description,
      expression: filter.expression,
      paused: rule.paused || filter.paused,
    }));
}

/** Why a zone cannot migrate now (phase two): URI-based overrides, too many or too long rules to migrate. */
async function phaseTwoBlockers(tx: StoreTransaction, zoneId: string): Promise<ApiMessage[]> {
  const reasons: ApiMessage[] = [];
  const overrides = await tx.wafOverrides.count(zoneId);
  if (overrides > 0) {
    reasons.push(
      at(
        CODES.migrationHasOverrides,
        `the zone has ${overrides} URI-based WAF override(s): delete them first (DELETE /zones/${zoneId}/firewall/waf/overrides/{id})`,
      ),
    );
  }
  const rules = await bypassRules(tx, zoneId);
  if (rules.length > MIGRATION_LIMITS.bypassRules) {
    reasons.push(
      at(
        CODES.migrationTooManyRules,
        `the zone has ${rules.length} firewall rules that bypass WAF managed rules to migrate; at most ${MIGRATION_LIMITS.bypassRules} can be migrated (contact support)`,
      ),
    );
  }
  for (const rule of rules) {
    const bytes = utf8Length(rule.expression);
    if (bytes > MIGRATION_LIMITS.expressionBytes) {
      reasons.push(
        at(
          CODES.migrationExpressionTooLong,
          `the expression of firewall rule ${rule.id} is ${bytes} bytes long; at most ${MIGRATION_LIMITS.expressionBytes} bytes can be migrated (contact support)`,
        ),
      );
    }
  }
  return reasons;
}

/**
 * Phase one (before 2022-09-19) only took zones whose WAF was off or ran the CloudFlare package alone
 * (OWASP sensitivity `off`), with nothing that bypasses, enables or disables the WAF, and no overrides.
 */
async function phaseOneBlockers(tx: StoreTransaction, zone: ZoneRecord): Promise<ApiMessage[]> {
  const reasons: ApiMessage[] = [];
  const phaseOne = (message: string) => reasons.push(at(CODES.migrationPhaseOne, message));
  if ((await ZoneWaf.read(tx, zone.id)).owasp().pkg.sensitivity !== 'off')
    phaseOne('the OWASP ModSecurity Core Rule Set is enabled (phase one needs its sensitivity off)');
  const rules = (await bypassRules(tx, zone.id)).length;
  if (rules > 0) phaseOne(`${rules} firewall rule(s) bypass WAF managed rules`);
  const pageRules = (await tx.pageRules.list(zone.id)).filter(
    (rule) => pageRuleWafEffect(rule) !== undefined,
  ).length;
  if (pageRules > 0) phaseOne(`${pageRules} page rule(s) disable security or turn the WAF on or off`);
  const overrides = await tx.wafOverrides.count(zone.id);
  if (overrides > 0) phaseOne(`the zone has ${overrides} URI-based WAF override(s)`);
  return reasons;
}

export class WafMigrationService {
  constructor(private readonly store: Store) {}

  /** `{compatible, migration_state}`, and in `messages` why not when it is not. */
  async check(
    zone: ZoneRecord,
    query: QueryParams,
  ): Promise<{ result: CheckResult; messages: ApiMessage[] }> {
    const phase2 = readPhaseTwo(query);
    assertWafPlan(zone);
    return this.store.transaction(async (tx) => {
      const state = await migrationState(tx, zone.id);
      const reasons =
        state === 'complete'
          ? [at(CODES.migrationComplete, 'the zone has already migrated to the new WAF Managed Rules')]
          : phase2
            ? await phaseTwoBlockers(tx, zone.id)
            : await phaseOneBlockers(tx, zone);
      return { result: { compatible: reasons.length === 0, migration_state: state }, messages: reasons };
    });
  }

  /** The new configuration equivalent to the zone's previous WAF, and what could not be carried over. */
  async config(
    zone: ZoneRecord,
    query: QueryParams,
  ): Promise<{ result: MigrationConfig; messages: ApiMessage[] }> {
    readPhaseTwo(query);
    assertWafPlan(zone);
    return this.store.transaction(async (tx) => {
      if ((await migrationState(tx, zone.id)) === 'complete') throw previousWafRetired();
      const { config, messages } = migrationConfig(
        await ZoneWaf.read(tx, zone.id),
        await bypassRules(tx, zone.id),
        await tx.pageRules.list(zone.id),
      );
      return { result: config, messages };
    });
  }

  async status(zone: ZoneRecord): Promise<StatusResult> {
    assertWafPlan(zone);
    return this.store.transaction(async (tx) => await migrationStatus(tx, zone));
  }

  /**
   * The rulesets' hook (waf-migration-hook.ts): `PUT /zones/{zone_id}/rulesets/phases/
   * http_request_firewall_managed/entrypoint` with `waf_migration`. Inside the entry point's transaction:
   * checks that the zone may take this step (Pro and above; not complete; `validation` on Enterprise only;
   * phase two; no blocker), runs `write` — the entry point's own validation and storage — and records the new
   * state (`pending` → complete, `validation` → validation). Whatever throws, a refusal here or an error of
   * `write`, nothing is kept.
   */
  async onEntryPointUpdate(
    zone: ZoneRecord,
    request: WafMigrationRequest,
    write: () => Promise<RulesetJson>,
    tx: StoreTransaction,
  ): Promise<RulesetJson> {
    assertWafPlan(zone);
    const { mode } = request;
    if (!request.phaseTwo)
      throw invalidQuery('waf_migration needs phase_two=1: phase one of the migration is over');
    const state = await migrationState(tx, zone.id);
    if (state === 'complete') {
      throw new ServiceError(
        'bad-request',
        at(
          CODES.migrationComplete,
          'the zone has already migrated to the new WAF Managed Rules; the migration is irreversible',
        ),
      );
    }
    if (mode === 'validation' && zone.plan !== 'enterprise') {
      throw new ServiceError(
        'bad-request',
        at(
          CODES.migrationValidationNotEntitled,
          'waf_migration=validation (both WAFs side by side) needs the Enterprise plan; use waf_migration=pending',
        ),
      );
    }
    const blockers = await phaseTwoBlockers(tx, zone.id);
    if (blockers.length > 0) {
      throw new ServiceError('bad-request', [
        at(CODES.migrationBlocked, 'this zone cannot migrate to the new WAF Managed Rules yet'),
        ...blockers,
      ]);
    }
    const result = await write();
    const next = mode === 'pending' ? 'complete' : 'validation';
    if (next !== state) await tx.wafMigrations.put({ zoneId: zone.id, state: next, changedOn: now() });
    return result;
  }

  /** In validation mode or complete: the managed entry point may hold enabled rules on any plan. */
  async isMigrated(zone: ZoneRecord, tx: StoreTransaction): Promise<boolean> {
    return (await migrationState(tx, zone.id)) !== 'start';
  }
}
