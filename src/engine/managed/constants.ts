/** Cloudflare's id of the Cloudflare Managed Ruleset. */
export const CLOUDFLARE_MANAGED_RULESET_ID = 'efb7b8c949ac4650a09736fc376e9aee';

/** Cloudflare's id of the Cloudflare OWASP Core Ruleset. */
export const OWASP_RULESET_ID = '4814384a9e5d4991b9815dcfc25d2f1f';

/** Cloudflare's id of the ruleset's anomaly rule, "949110: Inbound Anomaly Score Exceeded". */
export const OWASP_ANOMALY_RULE_ID = '6179ae15870a4bb7b2d480d4843b323c';

/** The OWASP ruleset's default threshold ("medium"); the migration keeps it. */
export const DEFAULT_SCORE_THRESHOLD = 40;
