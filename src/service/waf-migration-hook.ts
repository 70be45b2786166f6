import type { StoreTransaction, ZoneRecord } from '../store/store.js';
import { at, CODES, ServiceError } from './errors.js';
import { invalidQuery, type QueryParams, queryString } from './pagination.js';
import type { RulesetJson } from './rulesets/model.js';

/**
 * Where the Rulesets API meets the WAF migration (docs/api.md, "WAF migration hook"). The migration itself
 * lives elsewhere: `PUT …/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=…` is the
 * request that migrates a zone, so the entry-point write hands over to the migration when one is asked for,
 * and asks it whether a zone has migrated (which lets Pro and Business zones deploy enabled managed rules).
 *
 * Register an implementation as `services.wafMigration`; without one, a request naming `waf_migration` is
 * refused with 20204 (never stored as if no migration had been asked for).
 */

/** `waf_migration` as the query gives it: `pending` (or `1`) finishes the migration; `validation` (or `2`) runs both WAFs. */
export type WafMigrationMode = 'pending' | 'validation';

export interface WafMigrationRequest {
  mode: WafMigrationMode;
  /** `phase_two=1`: the migration rules in force since 2022 (the only ones most clients send). */
  phaseTwo: boolean;
}

export interface WafMigrationHook {
  /**
   * Called inside the entry-point write's transaction (`tx`; do not open another one), instead of the
   * plain write. Check that the zone may migrate this way (throw a ServiceError to refuse: nothing is
   * stored), call `write()` to validate and store the entry point — Pro and Business zones may then store
   * enabled rules — update the migration's own state, and return what `write()` returned. An error thrown
   * by `write()` (an invalid body) should be let through.
   */
  onEntryPointUpdate(
    zone: ZoneRecord,
    mode: WafMigrationRequest,
    write: () => Promise<RulesetJson>,
    tx: StoreTransaction,
  ): Promise<RulesetJson>;
  /**
   * Whether the zone has finished migrating (or runs in validation mode): its managed entry point may then
   * hold enabled rules on any plan. Absent: no zone has.
   */
  isMigrated?(zone: ZoneRecord, tx: StoreTransaction): Promise<boolean>;
}

const MODES: Record<string, WafMigrationMode> = {
  pending: 'pending',
  '1': 'pending',
  validation: 'validation',
  '2': 'validation',
};

/** `phase_two`: `1` (phase two, the rules in force since 2022) or absent / `0` (phase one). */
export function readPhaseTwo(query: QueryParams): boolean {
  const value = queryString(query, 'phase_two');
  if (value === undefined || value === '0') return false;
  if (value === '1') return true;
  throw invalidQuery('phase_two must be 1 (or 0, for the phase-one rules)');
}

/** `waf_migration` and `phase_two` from the query; undefined when no migration is asked for. */
export function readWafMigration(query: QueryParams): WafMigrationRequest | undefined {
  const value = queryString(query, 'waf_migration');
  const phaseTwo = readPhaseTwo(query);
  if (value === undefined) {
    if (queryString(query, 'phase_two') !== undefined)
      throw invalidQuery('phase_two goes with waf_migration');
    return undefined;
  }
  const mode = Object.hasOwn(MODES, value) ? MODES[value] : undefined;
  if (mode === undefined) throw invalidQuery('waf_migration must be pending (or 1) or validation (or 2)');
  return { mode, phaseTwo };
}

export const migrationUnavailable = (): ServiceError =>
  new ServiceError(
    'bad-request',
    at(
      CODES.wafMigrationUnavailable,
      'the WAF migration is not available in this service: the entry point was not stored; send the request without waf_migration to store it',
    ),
  );
