/**
 * Errors of the service as values: a kind (what went wrong, which the HTTP layer turns into a status), and
 * the Cloudflare-style messages (code + text) the client sees. Every code is listed in docs/api.md; codes
 * from Cloudflare's own catalogue are used where one is known (../shared/reference/api-surface.md §7).
 */

/** What went wrong, as far as the caller is concerned; the HTTP layer maps each kind to a status. */
export type ErrorKind = 'bad-request' | 'forbidden' | 'not-found' | 'gone' | 'internal';

export interface ApiMessage {
  code: number;
  message: string;
  /** The causes of an error, as Cloudflare reports malformed credentials (6003 → 6102, 6103, 6111). */
  error_chain?: ApiMessage[];
  /** Where in the request body the problem is, as a JSON pointer (`/0/expression`). */
  source?: { pointer: string };
}

export class ServiceError extends Error {
  readonly errors: ApiMessage[];

  /**
   * `problem`: what is wrong, as a stable name (`action-not-entitled`), for callers that report the checks
   * of a rule object outside the API (`cfrules validate`). Not part of the API's answer.
   */
  constructor(
    readonly kind: ErrorKind,
    errors: ApiMessage | ApiMessage[],
    readonly problem?: string,
  ) {
    const list = Array.isArray(errors) ? errors : [errors];
    super(list.map((e) => `${e.message} (${e.code})`).join('; '));
    this.name = 'ServiceError';
    this.errors = list;
  }
}

/** A message pointing at a place in the request body (`pointer` as a JSON pointer, e.g. `/0/action`). */
export const at = (code: number, message: string, pointer?: string): ApiMessage =>
  pointer === undefined ? { code, message } : { code, message, source: { pointer } };

/** Codes, by situation. docs/api.md lists each with its HTTP status. */
export const CODES = {
  // Authentication (Cloudflare's).
  missingCredentials: 9106,
  invalidHeaders: 6003,
  invalidEmailHeader: 6102,
  invalidKeyHeader: 6103,
  invalidAuthorizationHeader: 6111,
  unknownKey: 9103,
  invalidToken: 9109,
  notPermitted: 10000,
  // Requests (Cloudflare's, but 7001 and 7002, cfrules' choice).
  malformedJson: 6007,
  contentType: 9207,
  noRoute: 7000,
  cannotRoute: 7003,
  methodNotAllowed: 7001,
  bodyTooLarge: 7002,
  // The HTTP request itself (cfrules'): unreadable (bad request line, conflicting lengths, headers too large,
  // an unsupported Expect), too slow, or a body in an encoding or charset the service does not read.
  malformedRequest: 7004,
  requestTimeout: 7005,
  unsupportedEncoding: 7006,
  invalidQuery: 10001,
  internal: 10500,
  // The database does not answer (cfrules': GET /client/v4/health).
  unavailable: 10503,
  // Zones (1061 is Cloudflare's; 1099 cfrules').
  zoneExists: 1061,
  invalidZone: 1099,
  // Filters (10102 is Cloudflare's; the others cfrules').
  invalidFilter: 10100,
  filterNotFound: 10101,
  duplicateFilter: 10102,
  filterInUse: 10103,
  filterOwnedByRule: 10104,
  filterLimitReached: 10105,
  // Firewall rules (10202 is Cloudflare's code for a bad inline filter; the others cfrules').
  invalidRule: 10200,
  ruleNotFound: 10201,
  invalidInlineFilter: 10202,
  ruleQuotaExceeded: 10203,
  actionNotEntitled: 10204,
  // Previous WAF, URI-based WAF overrides, page rules and the WAF migration (all cfrules'; docs/api.md §7).
  wafNotEntitled: 10600,
  wafPackageNotFound: 10601,
  wafGroupNotFound: 10602,
  wafRuleNotFound: 10603,
  invalidWafSetting: 10604,
  previousWafRetired: 10605,
  wafOverrideNotFound: 10610,
  invalidWafOverride: 10611,
  pageRuleNotFound: 10620,
  invalidPageRule: 10621,
  pageRuleQuotaExceeded: 10622,
  migrationBlocked: 10630,
  migrationValidationNotEntitled: 10631,
  migrationComplete: 10632,
  // Messages (not errors) of the migration's check and config answers.
  migrationNotMigrated: 10640,
  migrationNote: 10641,
  migrationHasOverrides: 10642,
  migrationTooManyRules: 10643,
  migrationExpressionTooLong: 10644,
  migrationPhaseOne: 10645,
  // Rulesets (10003 and 20217 are Cloudflare's; the 202xx others cfrules').
  entryPointNotFound: 10003,
  invalidRulesetValue: 20217,
  rulesetNotFound: 20200,
  rulesetRuleNotFound: 20201,
  rulesetVersionNotFound: 20202,
  managedRulesetReadOnly: 20203,
  wafMigrationUnavailable: 20204,
  latestVersionNotDeletable: 20205,
  managedRulesNeedMigration: 20206,
  unsupportedPhase: 20207,
  rulesetRuleQuotaExceeded: 20208,
  rulesetNotEntitled: 20209,
  rulesetInUse: 20210,
  accountNotEntitled: 20211,
  // Simulation (a cfrules extension, docs/api.md §12).
  invalidSimulation: 10700,
  tooManySimulations: 10701,
  zoneNotSimulable: 10702,
} as const;
