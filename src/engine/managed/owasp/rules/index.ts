import type { CrsRule } from '../crs.js';
import { METHOD_ENFORCEMENT_RULES } from './911-method-enforcement.js';
import { SCANNER_DETECTION_RULES } from './913-scanner-detection.js';
import { PROTOCOL_ENFORCEMENT_RULES } from './920-protocol-enforcement.js';
import { PROTOCOL_ATTACK_RULES } from './921-protocol-attack.js';
import { MULTIPART_ATTACK_RULES } from './922-multipart-attack.js';
import { LFI_RULES } from './930-lfi.js';
import { RFI_RULES } from './931-rfi.js';
import { RCE_RULES } from './932-rce.js';
import { PHP_RULES } from './933-php.js';
import { GENERIC_RULES } from './934-generic.js';
import { XSS_RULES } from './941-xss.js';
import { SQLI_RULES_PL1 } from './942-sqli.js';
import { SQLI_RULES_PL2_PL4 } from './942-sqli-pl2.js';
import { SESSION_FIXATION_RULES } from './943-session-fixation.js';
import { JAVA_RULES } from './944-java.js';

/**
 * The rules of the Cloudflare OWASP Core Ruleset by Core Rule Set family, each family in a file of its own
 * (`rules/9xx-name.ts`, a list of CrsRule), in CRS's order. A family not listed here still has the rules
 * cfrules wrote before it followed CRS rule for rule (../legacy-*.ts), until its file replaces them.
 */
export const CRS_FAMILIES: ReadonlyMap<number, readonly CrsRule[]> = new Map<number, readonly CrsRule[]>([
  [911, METHOD_ENFORCEMENT_RULES],
  [913, SCANNER_DETECTION_RULES],
  [920, PROTOCOL_ENFORCEMENT_RULES],
  [921, PROTOCOL_ATTACK_RULES],
  [922, MULTIPART_ATTACK_RULES],
  [932, RCE_RULES],
  [942, [...SQLI_RULES_PL1, ...SQLI_RULES_PL2_PL4]],
  [930, LFI_RULES],
  [931, RFI_RULES],
  [933, PHP_RULES],
  [934, GENERIC_RULES],
  [941, XSS_RULES],
  [943, SESSION_FIXATION_RULES],
  [944, JAVA_RULES],
]);
