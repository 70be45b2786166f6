import type { CrsRule } from '../crs.js';
import {
  anyOf,
  commandWords,
  type Evasion,
  UNIX_AFTER_NAME,
  UNIX_AFTER_NAME_OR_END,
  UNIX_AFTER_NAME_STRICT,
  UNIX_AFTER_NAME_STRICT_OR_END,
  UNIX_ARGUMENT_AFTER_NAME,
  UNIX_BEFORE_NAME,
  UNIX_WRAPPER,
  unixCommandStart,
} from './932-rce-shell.js';
import { anyValueMatching } from './932-rce-values.js';
import {
  UNIX_BARE,
  UNIX_BARE_ALONE,
  UNIX_BARE_PL3,
  UNIX_BIN_NAMES,
  UNIX_DIRECT,
  UNIX_DIRECT_ENGLISH,
  UNIX_ENGLISH,
  UNIX_LONG,
  UNIX_PL3,
  UNIX_PROBES,
  UNIX_SHORT,
  UNIX_SHORT_MORE,
  UNIX_SUFFIXED,
  UNIX_WORDS_PL2,
  USER_AGENT_WORDS,
} from './932-rce-words.js';

/**
 * CRS 932, Unix: a command injected into a value that reaches a shell. A rule looks for a command name where
 * sh would start a command — after `;`, `|`, `&`, a newline, a backtick, `$(`… — with sh's evasions (quotes
 * and backslashes inside the name, unset variables, paths). Which names a rule knows, and whether a name
 * may also stand first in the value, is what tells the rules apart; names that are English words need more
 * context at paranoia level 1, so that a sentence with a semicolon does not look like a command line.
 */

export const UNIX_TAGS = ['application-multi', 'language-shell', 'platform-unix', 'attack-rce'];
export const ARGS_TARGETS = 'REQUEST_COOKIES|REQUEST_COOKIES_NAMES|ARGS_NAMES|ARGS|XML:/*';
export const UA_REFERER = 'REQUEST_HEADERS:User-Agent|REQUEST_HEADERS:Referer';

/** Names that are a command wherever they end — also last in the value (`time ifconfig`, `;visudo`). */
const ENDS_ANYWHERE = [
  'ifconfig',
  'whoami',
  'visudo',
  'cscli',
  'netstat',
  'busybox',
  'nc.openbsd',
  'nc.traditional',
  'ansible',
  'ansible-',
  'chef-',
  'rmt-dump',
  'rmt-tar',
  'lastlog',
  'lastlogin',
  'dmesg',
  'htop',
  'iostat',
  'vmstat',
  'aptitude',
  'cpulimit',
];

/** `base64` and `base32` also name an encoding (`data:image/png;base64,…`): no comma after them. */
const ENCODINGS = ['base64', 'base32'];
const ENCODING_AFTER_NAME = String.raw`['"]*(?:[\s&|;<>)}\x60]|$)`;

/** Splits a list into the names that may end the value and the others. */
function byEnding(words: readonly string[]): { anywhere: string[]; separated: string[] } {
  const anywhere = words.filter((word) => ENDS_ANYWHERE.includes(word));
  const separated = words.filter((word) => !ENDS_ANYWHERE.includes(word) && !ENCODINGS.includes(word));
  return { anywhere, separated };
}

/**
 * A command from a list, ended as each name needs; `strict` (paranoia level 1): not a C-like call
 * (`printf (`), see UNIX_AFTER_NAME_STRICT.
 */
function commandFrom(
  words: readonly string[],
  evasive: Evasion,
  { english = [], strict = false }: { english?: readonly string[]; strict?: boolean } = {},
): string {
  const { anywhere, separated } = byEnding(words);
  const encodings = words.filter((word) => ENCODINGS.includes(word));
  const after = strict ? UNIX_AFTER_NAME_STRICT : UNIX_AFTER_NAME;
  const afterOrEnd = strict ? UNIX_AFTER_NAME_STRICT_OR_END : UNIX_AFTER_NAME_OR_END;
  const parts = [`${commandWords(separated, evasive)}${after}`];
  if (anywhere.length) parts.push(`${commandWords(anywhere, evasive)}${afterOrEnd}`);
  if (encodings.length) parts.push(`${commandWords(encodings, evasive)}${ENCODING_AFTER_NAME}`);
  if (english.length) parts.push(`${commandWords(english, evasive)}${UNIX_ARGUMENT_AFTER_NAME}`);
  return anyOf(parts);
}

const without = (words: readonly string[], out: readonly string[]) => words.filter((w) => !out.includes(w));

/** Every command name of the paranoia-level-2 lists (932236): `vi` is left to paranoia level 3. */
const ALL_COMMANDS = [
  ...new Set([
    ...UNIX_SHORT,
    ...UNIX_SUFFIXED,
    ...UNIX_SHORT_MORE,
    ...UNIX_LONG,
    ...UNIX_ENGLISH,
    ...UNIX_WORDS_PL2,
    'vim',
    'ex',
    'python2',
    'python3',
  ]),
];

/** The same without the names ordinary User-Agents carry (932239, 932237). */
const HEADER_COMMANDS = ALL_COMMANDS.filter(
  (word) => !USER_AGENT_WORDS.includes(word) && !word.startsWith('python') && !word.startsWith('lwp-'),
);

/** 932232/932238: `who`, `w` and `dnf` may end the value (`time who`), the others take an argument. */
function pl3Command(evasive: boolean): string {
  const ending = ['who', 'w', 'dnf'];
  return anyOf([
    `${commandWords(ending, evasive)}${UNIX_AFTER_NAME_OR_END}`,
    `${commandWords(without(UNIX_PL3, ending), evasive)}${UNIX_AFTER_NAME}`,
  ]);
}

/** A command with no argument that ends the value. */
const BARE_END = `['"]*$`;

/** A path to an interpreter or tool (`/bin/sh`, `/usr/bin/perl`), or a file a shell attack reads. */
const SHELL_PATH = String.raw`(?:^|[^\w.-])(?:(?:usr/(?:local/)?)?s?bin/${commandWords(UNIX_BIN_NAMES, false)}(?:[\s;|&<>)\x60]|$)|etc/(?:passwd|shadow|gshadow|group|sudoers|master\.passwd)\b|proc/self/(?:environ|cmdline|maps|mem|fd/)|dev/(?:tcp|udp)/)|\$\{?shell\}?\s+-`;

/**
 * sh's `source` shortcut, `. file`, after a separator — an HTML entity's `;` (`&#8221;. `) is not one, nor a
 * backtick (Markdown: ``…`main`. Then…``).
 */
const SOURCE_START = String.raw`(?:(?:^|[^&#\w])\w*;|[\n\r={|&]|\$\(\(?|\$\{|<\(|<<<|>\()`;

export const UNIX_COMMAND_RULES_PL1: readonly CrsRule[] = [
  {
    id: 932230,
    description: 'Remote Command Execution: Unix Command Injection (2-3 chars)',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: ARGS_TARGETS,
    transformations: 'none',
    // A short command (`;ls -la`, `$(sh -c id)`, `time sh`), evasions between its letters allowed.
    test: {
      regex: `(?i)${unixCommandStart()}${commandFrom([...UNIX_SHORT, ...UNIX_SUFFIXED], true, { strict: true })}`,
    },
  },
  {
    id: 932235,
    description: 'Remote Command Execution: Unix Command Injection (command without evasion)',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: ARGS_TARGETS,
    transformations: 'none',
    // A longer command written out (`;wget http://…`, `|base64 -d`, `;find /etc -name …`); names that are
    // also English words need an option, path or operator after them. The commonest probes also with
    // quotes inside (`;w'h'oami`).
    test: {
      regex: `(?i)${unixCommandStart()}${anyOf([
        commandFrom(UNIX_LONG, false, { english: UNIX_ENGLISH, strict: true }),
        commandFrom(UNIX_PROBES, 'quotes', { strict: true }),
      ])}`,
    },
  },
];

export const UNIX_DIRECT_RULES_PL1: readonly CrsRule[] = [
  {
    id: 932250,
    description: 'Remote Command Execution: Direct Unix Command Execution',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: ARGS_TARGETS,
    transformations: 'none',
    // 932230's commands also first in the value (`ls -l /etc`); the C compilers only after a separator.
    test: {
      regex: `(?i)${unixCommandStart({ atStart: true })}${commandFrom(
        without([...UNIX_SHORT, ...UNIX_SUFFIXED], ['c89', 'c99']),
        true,
        { strict: true },
      )}`,
    },
  },
  {
    id: 932260,
    description: 'Remote Command Execution: Direct Unix Command Execution',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: ARGS_TARGETS,
    transformations: 'none',
    // A value that is a command line (`gunzip -c /var/log/x.gz`, `python3 -c …`), with commands that are
    // not words of ordinary values.
    test: {
      regex: `(?i)${unixCommandStart({ atStart: true })}${commandFrom(
        [...UNIX_DIRECT, 'python2', 'python3'],
        false,
        {
          english: UNIX_DIRECT_ENGLISH,
          strict: true,
        },
      )}`,
    },
  },
  {
    id: 932261,
    description: 'Remote Command Execution: Direct Unix Command Execution (No Arguments)',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets:
      'REQUEST_COOKIES|REQUEST_COOKIES_NAMES|REQUEST_HEADERS:User-Agent|REQUEST_HEADERS:Referer|ARGS_NAMES|ARGS|XML:/*',
    transformations: 'none',
    // A command with no argument ending the value (`;ps`, `|whoami`); alone in a value only names that no
    // form would hold (`whoami`, not `last` or `w`), and not after `=` (`page=last` in a link).
    test: {
      regex: `(?i)${anyOf([
        `${unixCommandStart({ assignment: false })}${commandWords(UNIX_BARE, false)}`,
        `^${UNIX_BEFORE_NAME}${commandWords(UNIX_BARE_ALONE, false)}`,
      ])}${BARE_END}`,
    },
  },
];

export const UNIX_SHELL_RULES_PL1: readonly CrsRule[] = [
  {
    id: 932160,
    description: 'Remote Command Execution: Unix Shell Code Found',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: ARGS_TARGETS,
    transformations: 'none,cmdLine,normalizePath',
    // A shell, interpreter or tool named by its path (`/bin/bash`, `/usr/bin/python3`), a file shell attacks
    // read (`/etc/passwd`, `/proc/self/environ`, `/dev/tcp/…`), or `$SHELL -c`.
    test: { regex: SHELL_PATH },
  },
];

export const UNIX_RULES_PL2: readonly CrsRule[] = [
  {
    id: 932231,
    description: 'Remote Command Execution: Unix Command Injection',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: ARGS_TARGETS,
    transformations: 'none',
    // `. file` (source) after a separator: `;. /tmp/x.sh`.
    test: { regex: String.raw`${SOURCE_START}[\s!({]*['"]*(?:[\w.+?@~\]|'"/-]*/)?\.[ \x0b]` },
  },
  {
    id: 932220,
    description: 'Remote Command Execution: Unix Command Injection with pipe',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: UNIX_TAGS,
    // A pipe into a short command (`x | sh`, `|cat /etc/passwd`), evasions between its letters allowed,
    // also last in the value (`… | sh`); in two regexes, one would be too large for V8 to optimize.
    expression: anyValueMatching(
      ARGS_TARGETS,
      'none',
      [[...UNIX_SHORT, ...UNIX_SUFFIXED], UNIX_SHORT_MORE].map(
        (words) =>
          `(?i)\\|(?:\\s*${UNIX_WRAPPER})?${UNIX_BEFORE_NAME}${commandWords(words, true)}${UNIX_AFTER_NAME_OR_END}`,
      ),
    ),
  },
  {
    id: 932236,
    description: 'Remote Command Execution: Unix Command Injection (command without evasion)',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: UNIX_TAGS,
    // Any command name, English words included, first in the value or after a separator; after a
    // separator it may also end the value (`;top`), first in it not (`date` alone is an ordinary value).
    expression: anyValueMatching(ARGS_TARGETS, 'none', [
      `(?i)${unixCommandStart()}${commandWords(ALL_COMMANDS, false)}${UNIX_AFTER_NAME_OR_END}`,
      `(?i)^${UNIX_BEFORE_NAME}${commandFrom(ALL_COMMANDS, false)}`,
    ]),
  },
  {
    id: 932239,
    description: 'Remote Command Execution: Unix Command Injection found in user-agent or referer header',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: UNIX_TAGS,
    // 932236 on User-Agent and Referer, without the names clients put in their User-Agent (curl, wget…).
    expression: anyValueMatching(UA_REFERER, 'none', [
      `(?i)${unixCommandStart()}${commandWords(HEADER_COMMANDS, false)}${UNIX_AFTER_NAME_OR_END}`,
      `(?i)^${UNIX_BEFORE_NAME}${commandFrom(HEADER_COMMANDS, false)}`,
    ]),
  },
  {
    id: 932161,
    description: 'Remote Command Execution: Unix Shell Code Found in REQUEST_HEADERS',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: UA_REFERER,
    transformations: 'none,cmdLine,normalizePath',
    test: { regex: SHELL_PATH },
  },
];

export const UNIX_RULES_PL3: readonly CrsRule[] = [
  {
    id: 932232,
    description: 'Remote Command Execution: Unix Command Injection',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: ARGS_TARGETS,
    transformations: 'none',
    // Commands that are ordinary words or values (`w`, `who`, `ps`, `vi`) after a separator; lower case, as
    // sh's commands are.
    test: { regex: `${unixCommandStart()}${pl3Command(true)}` },
  },
  {
    id: 932237,
    description: 'Remote Command Execution: Unix Shell Code Found in REQUEST_HEADERS',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: UA_REFERER,
    transformations: 'none,cmdLine,normalizePath',
    // Any command word in User-Agent or Referer, anywhere, followed by an argument or ending the value.
    test: {
      regex: `(?i)\\b${commandWords([...HEADER_COMMANDS, ...UNIX_PL3], false)}${UNIX_AFTER_NAME_OR_END}`,
    },
  },
  {
    id: 932238,
    description: 'Remote Command Execution: Unix Shell Code Found in REQUEST_HEADERS',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: `${ARGS_TARGETS}|REQUEST_HEADERS:Referer|REQUEST_HEADERS:User-Agent`,
    transformations: 'none,cmdLine,normalizePath',
    // 932232's words also first in the value, and in User-Agent and Referer.
    test: { regex: `(?i)${unixCommandStart({ atStart: true })}${pl3Command(true)}` },
  },
  {
    id: 932262,
    description: 'Remote Command Execution: Direct Unix Command Execution (No Arguments)',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets:
      'REQUEST_COOKIES|REQUEST_COOKIES_NAMES|REQUEST_HEADERS:User-Agent|REQUEST_HEADERS:Referer|ARGS_NAMES|ARGS|XML:/*',
    transformations: 'none',
    // A command with no argument, alone in the value or ending it: `id`, `;top`; `pwd` alone is the
    // password field of WordPress's login form, not a command.
    test: {
      regex: `(?i)${anyOf([
        `${unixCommandStart()}${commandWords(UNIX_BARE_PL3, false)}`,
        `^${UNIX_BEFORE_NAME}${commandWords(without(UNIX_BARE_PL3, ['pwd']), false)}`,
      ])}${BARE_END}`,
    },
  },
];
