import type { CrsRule } from '../crs.js';
import {
  anyOf,
  WINDOWS_AFTER_NAME,
  WINDOWS_COMMAND_START,
  WINDOWS_SEPARATOR_AFTER_NAME,
  windowsWord,
  windowsWords,
} from './932-rce-shell.js';
import { ARGS_TARGETS } from './932-rce-unix.js';
import { anyValueWhere, raw } from './932-rce-values.js';
import { POWERSHELL_ALIASES, WINDOWS_COMMANDS, WINDOWS_LOLBINS } from './932-rce-words.js';

/**
 * CRS 932, Windows: a cmd.exe or PowerShell command injected into a value. cmd.exe starts a command after
 * `&`, `|`, `;`, a newline…; it drops `^` and `""` inside a name (`c^md`, `w"h"oami`), so those may stand
 * between letters. A name may come with a path (`C:\Windows\System32\`) and an extension (`.exe`).
 */

const WINDOWS_TAGS = ['application-multi', 'language-shell', 'platform-windows', 'attack-rce'];

/** The loader names short enough to be something else (`sc`, `wt`) need an argument after them. */
const SHORT_LOLBINS = ['sc', 'wt'];

/**
 * A batch `if` compares (`==`, `equ`…) or tests (`exist`, `defined`…); C-like code (`if (a == b) {`) is not
 * batch, which has no braces after a condition.
 */
const BATCH_FOR = String.raw`\bfor(?:/[dflr][^%]*)?\s+%+\S*\s+in\(.*\)\s*do\b`;
const BATCH_IF = String.raw`\bif(?:/i)?(?:\s+not)?(?:\s+(?:exist|errorlevel|defined|cmdextversion)\b|[\s(].*(?:\b(?:equ|neq|lss|leq|gtr|geq)\b|==))`;
const C_LIKE_IF = String.raw`\bif\s*\(.*\)\s*\{`;

export const WINDOWS_RULES_PL1: readonly CrsRule[] = [
  {
    id: 932120,
    description: 'Remote Command Execution: Windows PowerShell Command Found',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: [...WINDOWS_TAGS.slice(0, 2), 'language-powershell', ...WINDOWS_TAGS.slice(2)],
    targets: ARGS_TARGETS,
    transformations: 'none,cmdLine',
    // PowerShell's cmdlets (verb-noun: Invoke-WebRequest…), its switches and .NET calls of a download cradle.
    test: { phrases: 'powershell-commands' },
  },
  {
    id: 932125,
    description: 'Remote Command Execution: Windows Powershell Alias Command Injection',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: WINDOWS_TAGS,
    targets: ARGS_TARGETS,
    transformations: 'none',
    // A PowerShell alias after a separator: `;iex (iwr http://…)`.
    test: {
      regex: `(?i)${WINDOWS_COMMAND_START}${windowsWords(POWERSHELL_ALIASES)}${WINDOWS_SEPARATOR_AFTER_NAME}`,
    },
  },
  {
    id: 932140,
    description: 'Remote Command Execution: Windows FOR/IF Command Found',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: WINDOWS_TAGS,
    // A batch FOR loop (`for /f %i in (…) do …`) or IF test, after cmdLine (lower case, no quotes, no space
    // before `/` or `(`).
    expression: anyValueWhere(ARGS_TARGETS, 'none,cmdLine', [
      `matches ${raw(`${BATCH_FOR}|${BATCH_IF}`)}`,
      `not matches ${raw(C_LIKE_IF)}`,
    ]),
  },
  {
    id: 932370,
    description: 'Remote Command Execution: Windows Command Injection',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: WINDOWS_TAGS,
    targets: ARGS_TARGETS,
    transformations: 'none',
    // A Windows binary that fetches or runs code (`mshta`, `certutil`, `rundll32`…) after a separator.
    test: {
      regex: `(?i)${WINDOWS_COMMAND_START}${anyOf([
        `${windowsWords(WINDOWS_LOLBINS)}${WINDOWS_AFTER_NAME}`,
        `${windowsWords(SHORT_LOLBINS)}${WINDOWS_SEPARATOR_AFTER_NAME}`,
      ])}`,
    },
  },
  {
    id: 932380,
    description: 'Remote Command Execution: Windows Command Injection',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: WINDOWS_TAGS,
    targets: ARGS_TARGETS,
    transformations: 'none',
    // A Windows administration command (`whoami`, `net`-like tools, `reg`, `schtasks`…) after a separator.
    test: { regex: `(?i)${WINDOWS_COMMAND_START}${windowsWords(WINDOWS_COMMANDS)}${WINDOWS_AFTER_NAME}` },
  },
];

export const WINDOWS_RULES_PL2: readonly CrsRule[] = [
  {
    id: 932371,
    description: 'Remote Command Execution: Windows Command Injection',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: WINDOWS_TAGS,
    targets: ARGS_TARGETS,
    transformations: 'none',
    // `at` (the old scheduler) after a separator, with an argument: `;at 2:00 "cmd"`.
    test: { regex: `(?i)${WINDOWS_COMMAND_START}${windowsWord('at')}${WINDOWS_SEPARATOR_AFTER_NAME}` },
  },
];
