import type { CrsRule } from '../crs.js';
import { commandWord } from './932-rce-shell.js';
import { ARGS_TARGETS, UA_REFERER, UNIX_TAGS } from './932-rce-unix.js';
import { anyValueWhere, raw } from './932-rce-values.js';

/**
 * CRS 932, shell tricks: the expansions sh performs before it runs anything — command and parameter
 * substitution, globs, brace and tilde expansion, history — which let an attacker write a command without
 * writing its name, and the shapes such evasions leave in a value (932200, 932240); Shellshock's function
 * prefix; aliases; and file names an upload must not have.
 */

const MULTI_TAGS = ['application-multi', 'language-multi', 'platform-multi', 'attack-rce'];

/**
 * Substitutions and expansions (after cmdLine): `$(…)`, `$((…))`, `${…}`, `$[…]`, `<(…)`, `>(…)`, and a
 * glob bracket in a path (`/e[t]c`, `/bin/c[a]t`, `/[?]tc`).
 */
const EXPANSION = String.raw`\$(?:\(.*\)|\{.*\}|\[.*\])|[<>]\(.*\)|/\w*\[!?[^\]\s/]+\]`;

/** The same, also written URL-encoded, as it stands in a Referer (`%24%28cat%20…%29`). */
const EXPANSION_OR_ENCODED = String.raw`${EXPANSION}|(?:\$|%24)(?:\(|%28).*(?:\)|%29)|(?:\$|%24)(?:\{|%7b).*(?:\}|%7d)`;

/**
 * The shapes of sh's quoting evasions (932200), lower case: a quote, glob or backslash and later a `/`
 * (`/bin/ca? /et*`, `c'a't /etc`), a `/` and later one (`/et\c`), or a special variable (`$@`, `${a}`, `$(`).
 */
const BYPASS = String.raw`[*?\x60\\'][^/\n]+/|/[^/]+?[*?\x60\\']|\$[!#$(*\-0-9?@a-z\[_{]`;

/** The same shapes kept within a URL's query: none reaches into the fragment. */
const BYPASS_IN_QUERY = String.raw`[*?\x60\\'][^/\n#]+/|/[^/#]+?[*?\x60\\']|\$[!#$(*\-0-9?@a-z\[_{]`;

/**
 * 932200's conditions on the part of a value that `part` (a regex prefix) leads to: a bypass shape, and a
 * `/` and a space — a command followed by a path, not `pa$$word` or `$24.99`.
 */
function bypassIn(part: string, shapes = BYPASS): string[] {
  return [
    `matches ${raw(`${part}(?:${shapes})`)}`,
    `matches ${raw(`${part}/`)}`,
    `matches ${raw(String.raw`${part}\s`)}`,
  ];
}

/**
 * 932240's evasions inside a word: a quoted piece (`c'a't`, `kill '-'9`), doubled quotes (`py''thon`), a
 * backslash or bracket (`c\at`, `adduse[r]`), a special variable (`c$@at`, `un$$ame`), an empty substitution
 * (`pi$()ng`, ``ping`` ``). A word is letters, digits, `_` or `-`; the evasion must follow a letter, so that
 * digits grouped with quotes (`1'000'000`) are not one; a quoted piece is a few letters that touches the
 * next word (`the "copyright" line` and `O'Brien's` are prose); `$` and a digit only between letters
 * (`c$1at`, not `US$500`).
 */
const IN_WORD_TOKEN = String.raw`(?:\s*(?:'[^\s'",:]{1,3}'|"[^\s'",:]{1,3}")|''+|""+|[\[\\\]]+|(?:\$[!#$*\-?@\\_a-z{]|\x60\x60|[$<>]\(\))\s*)`;
const IN_WORD_EVASION = String.raw`(?i)[a-z]${IN_WORD_TOKEN}+[\w-]|[a-z]\$[0-9]+[a-z]`;

/** File names an upload must not have: server and application configuration, credentials, shell profiles. */
const RESTRICTED_UPLOADS = [
  '\\.htaccess',
  '\\.htpasswd',
  '\\.htdigest',
  '\\.user\\.ini',
  'php\\.ini',
  'web\\.config',
  'app\\.config',
  'appsettings\\.json',
  'global\\.asax?',
  'settings\\.php',
  'local\\.settings\\.php',
  'wp-config\\.php',
  'config\\.php',
  'configuration\\.php',
  'config\\.inc\\.php',
  'localsettings\\.php',
  'local\\.xml',
  'config\\.ya?ml',
  'parameters\\.ya?ml',
  'database\\.ya?ml',
  'secrets\\.ya?ml',
  'settings\\.py',
  'local_settings\\.py',
  'httpd\\.conf',
  'nginx\\.conf',
  '\\.env',
  '\\.gitconfig',
  '\\.git/config',
  '\\.npmrc',
  '\\.pypirc',
  '\\.netrc',
  '\\.bashrc',
  '\\.bash_profile',
  '\\.bash_logout',
  '\\.profile',
  '\\.zshrc',
  'authorized_keys',
  'id_rsa',
  'id_ed25519',
  'crossdomain\\.xml',
  'clientaccesspolicy\\.xml',
];
const RESTRICTED_UPLOAD = String.raw`(?i)(?:^|[/\\])(?:${RESTRICTED_UPLOADS.join('|')})$`;

export const TRICK_RULES_PL1: readonly CrsRule[] = [
  {
    id: 932130,
    description: 'Remote Command Execution: Unix Shell Expression Found',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: ARGS_TARGETS,
    transformations: 'none,cmdLine',
    // `$(id)`, `${IFS}`, `$[1+1]`, `<(cmd)`, `/etc/pa[s]swd` — and so Log4Shell's `${jndi:…}`.
    test: { regex: EXPANSION },
  },
  {
    id: 932270,
    description: 'Remote Command Execution: Unix Shell Expression Found',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: ARGS_TARGETS,
    transformations: 'none,cmdLine',
    // Tilde expansion to a directory of the stack: `~+`, `~-`, `~+2`, not inside a word (`abc~+1`).
    test: { regex: String.raw`(?:^|[^\w])~[+-](?:[0-9]|$)` },
  },
  {
    id: 932280,
    description: 'Remote Command Execution: Brace Expansion Found',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: ARGS_TARGETS,
    transformations: 'none',
    // Brace expansion of words: `{,ifconfig}`, `c{a,oun}t`, `{l,-lh}s`.
    test: { regex: String.raw`\{\w*,[\w,-]*\}` },
  },
];

export const TRICK_RULES_PL1_LATE: readonly CrsRule[] = [
  {
    id: 932330,
    description: 'Remote Command Execution: Unix shell history invocation',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: ARGS_TARGETS,
    transformations: 'none',
    // History expansion of an earlier command: `!-1`.
    test: { regex: '!-[0-9]' },
  },
];

export const SHELLSHOCK_RULES: readonly CrsRule[] = [
  {
    id: 932170,
    description: 'Remote Command Execution: Shellshock (CVE-2014-6271)',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: 'REQUEST_HEADERS|REQUEST_LINE',
    transformations: 'none,urlDecodeUni',
    // A bash function definition opening a header: `() { :; };`.
    test: { regex: String.raw`^\(\s*\)\s+\{` },
  },
  {
    id: 932171,
    description: 'Remote Command Execution: Shellshock (CVE-2014-6271)',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: 'ARGS_NAMES|ARGS|FILES_NAMES',
    transformations: 'none,urlDecodeUni',
    test: { regex: String.raw`^\(\s*\)\s+\{` },
  },
  {
    id: 932175,
    description: 'Remote Command Execution: Unix shell alias invocation',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: ARGS_TARGETS,
    transformations: 'none',
    // An alias definition, which renames a command past a filter: `alias a=c${x}url`, `alias -p x='id'`.
    test: {
      regex: String.raw`\b${commandWord('alias', true)}\s+(?:[-+][\w+-]*\s+)?[\w!"%',.@-]+=\S`,
    },
  },
  {
    id: 932180,
    description: 'Restricted File Upload Attempt',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: MULTI_TAGS,
    targets: 'FILES|REQUEST_HEADERS:X-Filename|REQUEST_HEADERS:X_Filename|REQUEST_HEADERS:X-File-Name',
    transformations: 'none',
    // An uploaded file named like a server's configuration (`.htaccess`, `web.config`, `settings.php`).
    test: { regex: RESTRICTED_UPLOAD },
  },
];

export const TRICK_RULES_PL2: readonly CrsRule[] = [
  {
    id: 932131,
    description: 'Remote Command Execution: Unix Shell Expression Found',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: UA_REFERER,
    transformations: 'none,cmdLine',
    // 932130 in User-Agent and Referer, where a URL may carry it percent-encoded.
    test: { regex: EXPANSION_OR_ENCODED },
  },
  {
    id: 932200,
    description: 'RCE Bypass Technique',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: MULTI_TAGS,
    expression: anyValueWhere(ARGS_TARGETS, 'none,lowercase,urlDecodeUni', bypassIn('')),
  },
  {
    id: 932205,
    description: 'RCE Bypass Technique',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: MULTI_TAGS,
    // The Referer's query (from its first `?` to the fragment): its path is a URL, not a command.
    expression: anyValueWhere(
      'REQUEST_HEADERS:Referer',
      'none,lowercase,urlDecodeUni',
      // The query's own `?` may lead a shape: `…;c$?at /etc/passwd`.
      [
        `matches ${raw(String.raw`^[^#?]*\?(?:[^#]*(?:${BYPASS_IN_QUERY})|[^/\n#]+/)`)}`,
        ...bypassIn(String.raw`^[^#?]*\?[^#]*`).slice(1),
      ],
    ),
  },
  {
    id: 932206,
    description: 'RCE Bypass Technique',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: MULTI_TAGS,
    // A Referer that is not a URL: the bypass comes before any `.` of a host name.
    expression: anyValueWhere('REQUEST_HEADERS:Referer', 'none,lowercase,urlDecodeUni', [
      `matches ${raw(String.raw`^[^.]*?(?:[*?\x60\\'][^/\n.]+/|/[^/.]+?[*?\x60\\']|\$[!#$(*\-0-9?@a-z\[_{])`)}`,
      `contains "/"`,
      `matches ${raw(String.raw`\s`)}`,
    ]),
  },
  {
    id: 932207,
    description: 'RCE Bypass Technique',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: MULTI_TAGS,
    // The Referer's fragment, unless it is a text fragment (`#:~:text=…`).
    expression: anyValueWhere('REQUEST_HEADERS:Referer', 'none,lowercase,urlDecodeUni', [
      ...bypassIn('^[^#]*#.*'),
      `not matches ${raw('^[^#]*#:~:text=')}`,
    ]),
  },
  {
    id: 932240,
    description: 'Remote Command Execution: Unix Command Injection evasion attempt detected',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: 'REQUEST_COOKIES|REQUEST_COOKIES_NAMES|ARGS|XML:/*',
    transformations: 'none',
    test: { regex: IN_WORD_EVASION },
  },
  {
    id: 932281,
    description: 'Remote Command Execution: Brace Expansion Found',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: ARGS_TARGETS,
    transformations: 'none',
    // Brace expansion of anything without spaces: `{,cd,/etc,}`, `{,/?s?/?i?/c?t,}`; not JSON (`{"a":1,…}`).
    test: { regex: String.raw`\{[^\s,:}]*,\S*\}` },
  },
];

export const TRICK_RULES_PL2_LATE: readonly CrsRule[] = [
  {
    id: 932271,
    description: 'Remote Command Execution: Unix Shell Expression Found',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: ARGS_TARGETS,
    transformations: 'none,cmdLine',
    // Tilde expansion to the directory stack: `~0`, `~4`.
    test: { regex: '~[0-9]' },
  },
];

export const TRICK_RULES_PL3: readonly CrsRule[] = [
  {
    id: 932190,
    description: 'Remote Command Execution: Wildcard bypass technique attempt',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: 'ARGS',
    transformations: 'none,normalizePath,cmdLine',
    // Path globs standing for a command or file: `/???/c?t`, `/et*/pa??wd`.
    test: { regex: '/(?:[?*]+[a-z/]+|[a-z/]+[?*]+)' },
  },
];

export const TRICK_RULES_PL3_LATE: readonly CrsRule[] = [
  {
    id: 932331,
    description: 'Remote Command Execution: Unix shell history invocation',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: ARGS_TARGETS,
    transformations: 'none',
    // History expansion by number or of the last command: `!1`, `!!`.
    test: { regex: '!(?:[0-9]|!)' },
  },
];
