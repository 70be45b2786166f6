import type { CrsRule } from '../crs.js';
import { SQLI_RULES_PL1 } from './942-sqli.js';
import { SQLI_RULES_PL2_PL4 } from './942-sqli-pl2.js';
import { SESSION_FIXATION_RULES } from './943-session-fixation.js';

/**
 * The rules of the Cloudflare OWASP Core Ruleset by Core Rule Set family, each family in a file of its own
 * (`rules/9xx-name.ts`, a list of CrsRule), in CRS's order. A family not listed here still has the rules
 * cfrules wrote before it followed CRS rule for rule (../legacy-*.ts), until its file replaces them.
 */
export const CRS_FAMILIES: ReadonlyMap<number, readonly CrsRule[]> = new Map<number, readonly CrsRule[]>([
  [942, [...SQLI_RULES_PL1, ...SQLI_RULES_PL2_PL4]],
  [943, SESSION_FIXATION_RULES],
]);
