import type { CrsRule } from '../crs.js';
import { LFI_RULES } from './930-lfi.js';
import { RFI_RULES } from './931-rfi.js';
import { PHP_RULES } from './933-php.js';
import { GENERIC_RULES } from './934-generic.js';
import { SESSION_FIXATION_RULES } from './943-session-fixation.js';

/**
 * The rules of the Cloudflare OWASP Core Ruleset by Core Rule Set family, each family in a file of its own
 * (`rules/9xx-name.ts`, a list of CrsRule), in CRS's order. A family not listed here still has the rules
 * cfrules wrote before it followed CRS rule for rule (../legacy-*.ts), until its file replaces them.
 */
export const CRS_FAMILIES: ReadonlyMap<number, readonly CrsRule[]> = new Map<number, readonly CrsRule[]>([
  [930, LFI_RULES],
  [931, RFI_RULES],
  [933, PHP_RULES],
  [934, GENERIC_RULES],
  [943, SESSION_FIXATION_RULES],
]);
