import type { CrsRule } from '../crs.js';
import {
  OTHER_VERSION_RULES_DIRECT,
  OTHER_VERSION_RULES_EARLY,
  OTHER_VERSION_RULES_LATE,
} from './932-rce-other-versions.js';
import { MAIL_RULES_PL2, MAIL_RULES_PL3, SQLITE_RULES } from './932-rce-protocols.js';
import {
  SHELLSHOCK_RULES,
  TRICK_RULES_PL1,
  TRICK_RULES_PL1_LATE,
  TRICK_RULES_PL2,
  TRICK_RULES_PL2_LATE,
  TRICK_RULES_PL3,
  TRICK_RULES_PL3_LATE,
} from './932-rce-tricks.js';
import {
  UNIX_COMMAND_RULES_PL1,
  UNIX_DIRECT_RULES_PL1,
  UNIX_RULES_PL2,
  UNIX_RULES_PL3,
  UNIX_SHELL_RULES_PL1,
} from './932-rce-unix.js';
import { WINDOWS_RULES_PL1, WINDOWS_RULES_PL2 } from './932-rce-windows.js';

/**
 * CRS 932: remote command execution — a value that would run a command if it reached a shell (sh, cmd.exe,
 * PowerShell), SQLite's shell or a mail server. The rules are written in four files by what they look at:
 * Unix command lines (932-rce-unix.ts), Windows ones (932-rce-windows.ts), sh's expansions and evasions
 * (932-rce-tricks.ts), and other interpreters' protocols (932-rce-protocols.ts); their shared pieces are in
 * 932-rce-shell.ts and the command names in 932-rce-words.ts. The numbers of other CRS versions are in
 * 932-rce-other-versions.ts. Here they are put in CRS's order.
 */

/**
 * CRS's order of the 932 rules (REQUEST-932-APPLICATION-ATTACK-RCE.conf); the numbers of other versions
 * where those versions put them (3.3's first, main's no-argument rules and fork bombs last).
 */
const CRS_ORDER = [
  932100, 932101, 932105, 932106, 932110, 932115, 932230, 932235, 932120, 932125, 932130, 932140, 932150,
  932151, 932152, 932270, 932280, 932250, 932260, 932261, 932330, 932160, 932170, 932171, 932175, 932180,
  932370, 932380, 932371, 932231, 932131, 932200, 932205, 932206, 932207, 932220, 932240, 932281, 932290,
  932291, 932210, 932271, 932300, 932310, 932320, 932236, 932239, 932161, 932232, 932237, 932238, 932190,
  932262, 932301, 932311, 932321, 932331, 932340, 932341, 932350, 932390,
];

const ALL: readonly CrsRule[] = [
  ...OTHER_VERSION_RULES_EARLY,
  ...OTHER_VERSION_RULES_DIRECT,
  ...OTHER_VERSION_RULES_LATE,
  ...UNIX_COMMAND_RULES_PL1,
  ...UNIX_DIRECT_RULES_PL1,
  ...UNIX_SHELL_RULES_PL1,
  ...UNIX_RULES_PL2,
  ...UNIX_RULES_PL3,
  ...WINDOWS_RULES_PL1,
  ...WINDOWS_RULES_PL2,
  ...TRICK_RULES_PL1,
  ...TRICK_RULES_PL1_LATE,
  ...SHELLSHOCK_RULES,
  ...TRICK_RULES_PL2,
  ...TRICK_RULES_PL2_LATE,
  ...TRICK_RULES_PL3,
  ...TRICK_RULES_PL3_LATE,
  ...SQLITE_RULES,
  ...MAIL_RULES_PL2,
  ...MAIL_RULES_PL3,
];

function inCrsOrder(rules: readonly CrsRule[]): readonly CrsRule[] {
  const byId = new Map(rules.map((rule) => [rule.id, rule]));
  if (byId.size !== CRS_ORDER.length || CRS_ORDER.some((id) => !byId.has(id)))
    throw new Error('932: the rules and CRS_ORDER disagree');
  return CRS_ORDER.map((id) => byId.get(id) as CrsRule);
}

export const RCE_RULES: readonly CrsRule[] = inCrsOrder(ALL);
