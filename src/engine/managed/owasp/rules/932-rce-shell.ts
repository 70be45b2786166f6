/**
 * Building blocks of the CRS 932 regexes: where a shell (sh or cmd.exe) starts a new command, what it lets
 * stand between the letters of a command name without changing it, and what follows a command. Every rule
 * that looks for "a command here" is written from these, so that they agree on what a command looks like.
 *
 * Regexes are in Cloudflare's dialect (Rust `regex`: no look-around, no back-references).
 */

/** A word's letters, escaped for a regex. */
export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, (c) => `\\${c}`);
}

/** Alternation of several regexes as one non-capturing group. */
export function anyOf(patterns: readonly string[]): string {
  return `(?:${patterns.join('|')})`;
}

// ——— Unix shells ———

/**
 * What sh lets stand inside a word and expands to nothing: quotes (`c'a't`, `c""at`), a backslash
 * (`c\at`), a glob bracket of one letter's width (`c[a]t` is matched as `c` `[` `a` `]` `t`), a `)` closing a
 * substitution, or an empty or unset variable (`c$@at`, `c${x}at`, `sh$XX`) or an empty substitution.
 */
const UNIX_FILLER = String.raw`(?:["'\\\[\])]|\$(?:[@*#?!$_0-9-]|\{[^}\s]*\}|\(\)|[a-z_]\w*)|\x60\x60)*`;

/** A quote or backslash that sh drops from inside a word (`ti''me`, `t\ime`). */
const QUOTED = `["'\\\\]*`;

/**
 * A command word, optionally with sh's evasions between its letters. A word ending in `-` is a prefix
 * (`ansible-` for `ansible-playbook`…); `gcc` and `python`-like names take a version suffix.
 */
export function commandWord(word: string, evasive: boolean): string {
  const letters = [...word];
  const core = evasive
    ? letters.map(escapeRegex).join(UNIX_FILLER) + UNIX_FILLER
    : letters.map(escapeRegex).join('');
  if (word.endsWith('-')) return `${core}[\\w.-]+`;
  return core;
}

/** Commands that take a version suffix: `python3.10`, `gcc-12`, `ruby2.7`, `pip3`. */
const VERSIONED = new Set([
  'gcc',
  'python',
  'python2',
  'python3',
  'ruby',
  'pip',
  'perl',
  'php',
  'lua',
  'pypy',
]);

/** The words of a list as one alternation, longest first so that a name is not cut short. */
export function commandWords(words: readonly string[], evasive: boolean): string {
  const unique = [...new Set(words)].sort((a, b) => b.length - a.length || a.localeCompare(b));
  return anyOf(
    unique.map((word) => {
      const pattern = commandWord(word, evasive);
      return VERSIONED.has(word) ? `${pattern}(?:[-.]?[0-9][\\w.]{0,9})?` : pattern;
    }),
  );
}

/**
 * Where sh starts a new command: after a newline, `;`, `|`, `&` (so also `||` and `&&`), a backtick, `{`,
 * `=` (an assignment whose value is a command: `a=nc&&$a`), in a substitution `$(…)`, `$((…))`, `${…}`,
 * `$[…]`, a process substitution `<(…)` or `>(…)`, a here-string `<<<`, or after `()`.
 */
const UNIX_SEPARATOR = String.raw`(?:[\n\r;=\x60{|&]|\$\(\(?|\$\{|\$\[|<\(|<<<|>\(|\(\s*\))`;

/** Commands that run the command after them: `time sh`, `nohup wget …`, `env X=1 cmd`. */
const WRAPPERS = [
  'busybox',
  'command',
  'env',
  'eval',
  'watch',
  'ltrace',
  'strace',
  'nohup',
  'time',
  'timeout',
];
export const UNIX_WRAPPER = String.raw`\b${anyOf(WRAPPERS.map((word) => [...word].join(QUOTED)))}[\s&),<>|]`;

/**
 * What may stand between where a command starts and its name: spaces, `!`, `(`, `{`, an unset variable
 * (`|$u wget`), variable assignments (`a=1 b='x' cmd`), quotes, and a path (`/usr/bin/`, `"/bin/"`, `./`).
 */
export const UNIX_BEFORE_NAME = String.raw`(?:[\s!({]|\$\{?\w*\}?)*(?:\w+=(?:'[^']*'|"[^"]*"|[^\s'"]*)\s+)*['"]*(?:[\w.+?@~\]|'"/-]*/)?["'\\]*`;

/**
 * The start of a Unix command: after a separator or a wrapper, or (`atStart`) also at the start of the
 * value — a value that is a command line by itself.
 */
export function unixCommandStart(atStart: boolean, evasiveWrappers = true): string {
  const wrapper = evasiveWrappers ? UNIX_WRAPPER : String.raw`\b${anyOf(WRAPPERS)}[\s&),<>|]`;
  return `${anyOf([...(atStart ? ['^'] : []), UNIX_SEPARATOR, wrapper])}${UNIX_BEFORE_NAME}`;
}

/** What ends a command name: a closing quote, then a space, an operator, or the end of a substitution. */
export const UNIX_AFTER_NAME = String.raw`['"]*[\s&|;<>),}\x60]`;

/** The same, or the end of the value (a command that needs no argument). */
export const UNIX_AFTER_NAME_OR_END = String.raw`['"]*(?:[\s&|;<>),}\x60]|$)`;

/**
 * After a command name that is also an English word: what a command takes (an option, a path, a number, a
 * quote, a variable, a glob, a redirection), not the next word of a sentence.
 */
export const UNIX_ARGUMENT_AFTER_NAME = String.raw`(?:\s+['"]*[-/~.$'"<>|&;\\*%0-9{(\x60+]|['"]*[|&;<>)\x60])`;

// ——— cmd.exe and PowerShell ———

/** Where cmd.exe starts a new command: a newline, `;`, `&`, `&&`, `|`, `||`, a backtick or `{`. */
const WINDOWS_SEPARATOR = String.raw`[\n\r;\x60{|&]`;

/**
 * Between the separator and the name: spaces, quotes, `(`, `,`, `@` (echo off), and a path — `C:\Windows\`,
 * `..\`, `\\host\share\`, or a Unix-style `dir/`.
 */
const WINDOWS_BEFORE_NAME = String.raw`[\s"'(,@]*(?:[\w'".-]*/|(?:[a-z]["'^\\]*:)?[\w\s'".^\\~%$-]*\\)?["^]*`;

/** cmd.exe's escapes inside a name: `c^md`, `"c"md`, `c""md`. */
const CARETS = `["^]*`;

/** A Windows command name with cmd.exe's escapes allowed between its letters. */
export function windowsWord(word: string): string {
  return [...word].map(escapeRegex).join(CARETS);
}

/** A list of Windows names as one alternation, longest first. */
export function windowsWords(words: readonly string[]): string {
  const unique = [...new Set(words)].sort((a, b) => b.length - a.length || a.localeCompare(b));
  return anyOf(unique.map(windowsWord));
}

/** The start of a Windows command: a separator, then what may stand before the name. */
export const WINDOWS_COMMAND_START = `${WINDOWS_SEPARATOR}${WINDOWS_BEFORE_NAME}`;

/** An optional extension (`.exe`, `.c"o"m`) and the end of the name. */
export const WINDOWS_AFTER_NAME = String.raw`${CARETS}(?:\.["^\w]+)?\b`;

/** What must follow a short or ambiguous Windows name: a space, an option, a redirection, or the end. */
export const WINDOWS_SEPARATOR_AFTER_NAME = String.raw`${CARETS}(?:\.["^\w]+)?(?:[\s,./;<>(]|$)`;
