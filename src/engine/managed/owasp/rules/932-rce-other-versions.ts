import type { CrsRule } from '../crs.js';
import {
  anyOf,
  commandWords,
  UNIX_AFTER_NAME_OR_END,
  UNIX_BEFORE_NAME,
  unixCommandStart,
  WINDOWS_COMMAND_START,
  windowsWords,
} from './932-rce-shell.js';
import {
  UNIX_COMMAND_RULES_PL1,
  UNIX_DIRECT_RULES_PL1,
  UNIX_RULES_PL2,
  UNIX_RULES_PL3,
  UNIX_TAGS,
} from './932-rce-unix.js';
import { anyValueMatching } from './932-rce-values.js';
import { WINDOWS_RULES_PL1 } from './932-rce-windows.js';
import { UNIX_BARE, UNIX_BARE_PL3, UNIX_PL3, UNIX_SHORT_MORE, WINDOWS_COMMANDS } from './932-rce-words.js';

/**
 * CRS 932 rules under the numbers of other CRS versions. CRS 3.3 numbered its command-injection rules
 * 932100–932115 and 932150; CRS 4's development split them into 932101, 932106, 932151 and 932152 before
 * renumbering them 932230–932262 and 932370–932380 (the rules of 932-rce-unix.ts and 932-rce-windows.ts);
 * CRS's main branch, after 4.23, numbers its no-argument rules 932340–932350 (with 932291 before them) and
 * adds 932290 (quotes inside a word) and 932390 (fork bombs). A rule whose detection is one of this
 * version's keeps that detection here under its own number, paranoia level and targets, so that an
 * override written for any of these numbers finds its rule.
 */

/** CRS 3.3's targets: Google Analytics' `__utm*` cookies are left out. */
const V3_TARGETS = 'REQUEST_COOKIES|!REQUEST_COOKIES:/__utm/|REQUEST_COOKIES_NAMES|ARGS_NAMES|ARGS|XML:/*';

const BARE_TARGETS =
  'REQUEST_COOKIES|REQUEST_COOKIES_NAMES|REQUEST_HEADERS:User-Agent|REQUEST_HEADERS:Referer|ARGS_NAMES|ARGS|XML:/*';

/**
 * CRS main's newest rules also look at the last path segment (`/x/%3Bid`), which the request carries
 * encoded: the arguments as they are, the segment URL-decoded.
 */
function withLastSegment(targets: string, regex: string): string {
  return `${anyValueMatching(targets, 'none', [regex])} or ${anyValueMatching('REQUEST_BASENAME', 'urlDecodeUni', [regex])}`;
}

const WINDOWS_TAGS = WINDOWS_RULES_PL1.find((rule) => rule.id === 932370)?.tags ?? [];

const BASES: ReadonlyMap<number, CrsRule> = new Map(
  [
    ...UNIX_COMMAND_RULES_PL1,
    ...UNIX_DIRECT_RULES_PL1,
    ...UNIX_RULES_PL2,
    ...UNIX_RULES_PL3,
    ...WINDOWS_RULES_PL1,
  ].map((rule) => [rule.id, rule]),
);

type Renumbering = Pick<CrsRule, 'id' | 'paranoiaLevel'> & Partial<Pick<CrsRule, 'description' | 'targets'>>;

/** `base`'s detection under another number (and level, targets); a whole expression keeps its targets. */
function renumbered(base: number, renumbering: Renumbering): CrsRule {
  const rule = BASES.get(base);
  if (!rule) throw new Error(`932: no rule ${base} to renumber`);
  if (renumbering.targets && rule.expression !== undefined)
    throw new Error(`932: ${base} is a whole expression, its targets cannot change`);
  return { ...rule, ...renumbering };
}

/**
 * cmd.exe built-ins that are English words (left out of 932380's list), with the argument that makes them
 * a command line: a drive to format, files to delete (932110); a path to print, an option or input of sort (932115).
 */
const WINDOWS_DESTRUCTIVE = String.raw`(?:format\s+["']?[a-z]:|(?:del|erase)\s+/[fpqsa]|r(?:md|d)\s+/[sq])`;
const WINDOWS_READING = String.raw`(?:type\s+["']?(?:%\w+%|[a-z]:\\|\\\\|\.{0,2}\\|[\w.-]+\\)|sort\s*(?:/[a-z+]|<))`;

/**
 * CRS 3.3's rules and this version's detect one injection twice: `;ifconfig` is 3.3's 932100 and 4's
 * 932235, and a Markdown post with a shell snippet would score twice its due. Each 3.3 number tests what
 * its successors leave to paranoia level 2 and above: the short names of 932236 (`cat`, `rm`, `nc`) with
 * an option, path or operator after them (`;rm -rf /`, `|nc -e`), and cmd.exe's English-word built-ins with
 * their arguments. CRS 3.3 split its names between 932100 and 932105, and between 932110 and 932115, by
 * their place in one list; here files and text go to the first, network and interpreters to the second.
 */
const NETWORK_AND_INTERPRETERS = [
  'ab',
  'apt',
  'arp',
  'aws',
  'dig',
  'ftp',
  'gem',
  'git',
  'go',
  'ip',
  'lua',
  'nc',
  'npm',
  'npx',
  'php',
  'pip',
  'pip3',
  'pry',
  'rpm',
  'ss',
];
const FILES_AND_TEXT = UNIX_SHORT_MORE.filter((word) => !NETWORK_AND_INTERPRETERS.includes(word));

/** An option, a path or an operator after the name: not a number (`cp 75001`) nor a word. */
const V3_ARGUMENT = String.raw`['"]*(?:\s+(?:-{1,2}[a-z]|\.{0,2}/|~/|\$\w)|[|&;<>])`;

const v3Unix = (words: readonly string[], start: string) =>
  `(?i)${start}${commandWords(words, true)}${V3_ARGUMENT}`;

/** cmd.exe's `time`, which runs the command after it, first in the value (`time tracert`). */
const WINDOWS_TIME = String.raw`(?i)^\s*time\s+${windowsWords(WINDOWS_COMMANDS)}\b`;

/** A command with no argument that ends the value, optionally quoted (`;id`, `'id'`). */
const BARE_END = `['"]*$`;

export const OTHER_VERSION_RULES_EARLY: readonly CrsRule[] = [
  {
    // CRS 3.3: a command after a separator (4: 932230 and 932235; see NETWORK_AND_INTERPRETERS).
    id: 932100,
    description: 'Remote Command Execution: Unix Command Injection',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: V3_TARGETS,
    transformations: 'none',
    test: { regex: v3Unix(FILES_AND_TEXT, unixCommandStart()) },
  },
  // CRS 4's development: the `. file` source shortcut after a separator (4: 932231).
  renumbered(932231, { id: 932101, paranoiaLevel: 2 }),
  {
    // CRS 3.3: the second half of 932100's names (see NETWORK_AND_INTERPRETERS).
    id: 932105,
    description: 'Remote Command Execution: Unix Command Injection',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: V3_TARGETS,
    transformations: 'none',
    test: { regex: v3Unix(NETWORK_AND_INTERPRETERS, unixCommandStart()) },
  },
  {
    // CRS 3.3: the commands likeliest to be words (`ps`, `vi`, `w`) after a separator, also ending the
    // value (`;ps`); 4's 932232 wants an argument after some of them.
    id: 932106,
    description: 'Remote Command Execution: Unix Command Injection',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: V3_TARGETS,
    transformations: 'none',
    test: {
      regex: `(?i)${unixCommandStart()}${commandWords(
        UNIX_PL3.filter((word) => word !== 'aptitude'),
        true,
      )}${UNIX_AFTER_NAME_OR_END}`,
    },
  },
  {
    // CRS 3.3: a Windows command after a separator (4: 932370 and 932380), and the built-ins that are
    // English words with their arguments (`&format c:`, `|type %WINDIR%\win.ini`).
    id: 932110,
    description: 'Remote Command Execution: Windows Command Injection',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: WINDOWS_TAGS,
    targets: V3_TARGETS,
    transformations: 'none',
    test: { regex: `(?i)${WINDOWS_COMMAND_START}${WINDOWS_DESTRUCTIVE}` },
  },
  {
    // CRS 3.3: the second half of 932110's names, and `time` (WINDOWS_TIME).
    id: 932115,
    description: 'Remote Command Execution: Windows Command Injection',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: WINDOWS_TAGS,
    targets: V3_TARGETS,
    transformations: 'none',
    test: {
      regex: anyOf([`(?i)${WINDOWS_COMMAND_START}${WINDOWS_READING}`, WINDOWS_TIME]),
    },
  },
];

export const OTHER_VERSION_RULES_DIRECT: readonly CrsRule[] = [
  {
    // CRS 3.3: a value that is a command line (4: 932250 and 932260); as 932100, the short names
    // those leave to paranoia level 2, first in the value (`cat /etc/hosts`).
    id: 932150,
    description: 'Remote Command Execution: Direct Unix Command Execution',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: V3_TARGETS,
    transformations: 'none',
    test: { regex: v3Unix(UNIX_SHORT_MORE, `^${UNIX_BEFORE_NAME}`) },
  },
  {
    // CRS 4's development: a command at the start of the value that an empty command substitution cuts in
    // two (`wh$()oami`, `ca\`\`t`), sh joining the halves; or `find` with an option or a start directory,
    // the start of a `-exec` injection.
    id: 932151,
    description: 'Remote Command Execution: Direct Unix Command Execution',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: 'REQUEST_COOKIES|REQUEST_COOKIES_NAMES|ARGS_NAMES|ARGS|XML:/*',
    transformations: 'none',
    test: {
      regex: String.raw`^\w+(?:\x60\s*\x60|\$\(\s*\)|\$\(\(\s*\d*\s*\)\)|[<>]\(\s*\))[\w\s]|^find\s+(?:-{1,2}[a-z]|\.{1,2}/?\s|/[\w\s.-])`,
    },
  },
  // CRS 4's development: a command line as the User-Agent or Referer (4: 932237).
  renumbered(932237, { id: 932152, paranoiaLevel: 3 }),
];

export const OTHER_VERSION_RULES_LATE: readonly CrsRule[] = [
  {
    // CRS main: a quoted part inside a word (`'w'get`, `c"ur"l`), which sh joins into a command name
    // that no list of names would see. Names and contractions (`O'Neil's`) look alike: paranoia level 4.
    id: 932290,
    description: 'Remote Command Execution: Bash Quote Evasion',
    paranoiaLevel: 4,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: 'REQUEST_COOKIES|REQUEST_COOKIES_NAMES|ARGS_NAMES|ARGS|XML:/*',
    transformations: 'none',
    test: { regex: String.raw`['"]\w+['"]\w` },
  },
  // CRS main, first number of its paranoia-level-3 no-argument rule (4.23: 932262).
  renumbered(932262, { id: 932291, paranoiaLevel: 3 }),
  {
    // CRS main (4.23: 932261): a command with no argument ending the value after a separator (`;env`,
    // `|whoami`), also in the last path segment.
    id: 932340,
    description: 'Remote Command Execution: Direct Unix Command Execution (No Arguments)',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: UNIX_TAGS,
    expression: withLastSegment(
      BARE_TARGETS,
      `(?i)${unixCommandStart({ assignment: false })}${commandWords([...UNIX_BARE, 'aptitude', 'env', 'set'], false)}${BARE_END}`,
    ),
  },
  // CRS main, second number of its paranoia-level-3 no-argument rule (4.23: 932262).
  renumbered(932262, { id: 932341, paranoiaLevel: 3 }),
  {
    // CRS main: 932341 also in the last path segment; any command of the list alone in a value, quoted or
    // not (`id`, `"id"`).
    id: 932350,
    description: 'Remote Command Execution: Direct Unix Command Execution (No Arguments)',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: UNIX_TAGS,
    expression: withLastSegment(
      BARE_TARGETS,
      `(?i)${anyOf([
        `${unixCommandStart()}${commandWords(UNIX_BARE_PL3, false)}`,
        `^${UNIX_BEFORE_NAME}${commandWords(UNIX_BARE_PL3, false)}`,
      ])}${BARE_END}`,
    ),
  },
  {
    // CRS main: a fork bomb — a shell function (`:`, `.` and words are names) whose body pipes or
    // backgrounds calls (`:(){ :|:& };:`). A single `|` or `&`: `||` and `&&` are JavaScript's and the
    // shell's conditions, which a function body of ordinary code holds.
    id: 932390,
    description: 'Remote Command Execution: Shell Fork Bomb',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: UNIX_TAGS,
    expression: withLastSegment(
      BARE_TARGETS,
      String.raw`[\w:.]\s*\(\s*\)\s*\{(?:[^{}|&]|\|\||&&)*[|&](?:[^{}|&][^{}]*)?\}`,
    ),
  },
];
