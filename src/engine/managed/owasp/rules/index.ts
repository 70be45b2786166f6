import type { CrsRule } from '../crs.js';
import { XSS_RULES } from './941-xss.js';
import { SESSION_FIXATION_RULES } from './943-session-fixation.js';
import { JAVA_RULES } from './944-java.js';

/**
 * The rules of the Cloudflare OWASP Core Ruleset by Core Rule Set family, each family in a file of its own
 * (`rules/9xx-name.ts`, a list of CrsRule), in CRS's order. A family not listed here still has the rules
 * cfrules wrote before it followed CRS rule for rule (../legacy-*.ts), until its file replaces them.
 */
export const CRS_FAMILIES: ReadonlyMap<number, readonly CrsRule[]> = new Map<number, readonly CrsRule[]>([
  [941, XSS_RULES],
  [943, SESSION_FIXATION_RULES],
  [944, JAVA_RULES],
]);
