/** The previous WAF managed rules and their mapping to the new WAF Managed Rules (docs/managed-rules.md). */

export {
  CLOUDFLARE_PACKAGE_ID,
  MIGRATION_MAPPING,
  OWASP_PACKAGE_ID,
  PREVIOUS_WAF_GROUPS,
  PREVIOUS_WAF_PACKAGES,
  PREVIOUS_WAF_RULES,
  USER_PACKAGE_ID,
  zonePackages,
} from './catalogue.js';
export type * from './model.js';
export { ON_OFF_MODES, OVERRIDE_ACTIONS, TRADITIONAL_MODES } from './model.js';
export type { MigrationTarget } from './targets.js';
