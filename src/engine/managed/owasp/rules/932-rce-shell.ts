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
 * substitution, an empty or unset variable or substitution (`c$@at`, `c${x}at`, `sh$XX`, `c$()at`), or an
 * empty pair of backticks. Kept short: it stands between every two letters of every name of a list, and
 * V8 optimizes a regex less once its source passes 20 KB.
 */
const UNIX_FILLER = String.raw`(?:["'\\\[\])]|\$[\w@*#?!{}()$-]*|\x60\x60)*`;

/** A quote or backslash that sh drops from inside a word (`ti''me`, `t\ime`). */
const QUOTED = `["'\\\\]*`;

/** The suffix a name takes: a prefix (`ansible-…`) any name characters, a versioned one a version. */
function suffixOf(word: string): string {
  if (word.endsWith('-')) return '[\\w.-]+';
  if (VERSIONED.has(word)) return '(?:[-.]?[0-9][\\w.]{0,9})?';
  return '';
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

/**
 * What a rule lets stand between the letters of a command name: nothing, every evasion of UNIX_FILLER
 * (`true`), or only quotes and backslashes (`'quotes'`: `w'h'oami`, `c\url`), which cost less.
 */
export type Evasion = boolean | 'quotes';

/** A command word, optionally with sh's evasions between its letters (and after its last one: `sh$XX`). */
export function commandWord(word: string, evasive: Evasion): string {
  return commandWords([word], evasive);
}

interface TrieNode {
  readonly children: Map<string, TrieNode>;
  /** The suffix pattern of a word ending here, if one does. */
  end?: string;
}

/**
 * The words of a list as one regex, written as a trie (`c(?:at|hmod|url)`): a regex engine that tries
 * alternatives one by one then reads each letter once, not once per word — the lists have hundreds.
 */
export function commandWords(words: readonly string[], evasive: Evasion): string {
  const root: TrieNode = { children: new Map() };
  for (const word of new Set(words)) {
    let node = root;
    for (const letter of word) {
      let child = node.children.get(letter);
      if (!child) {
        child = { children: new Map() };
        node.children.set(letter, child);
      }
      node = child;
    }
    node.end = suffixOf(word);
  }
  const filler = evasive === 'quotes' ? QUOTED : evasive ? UNIX_FILLER : '';
  const write = (node: TrieNode, first: boolean): string => {
    const branches = [...node.children].map(
      ([letter, child]) => `${escapeRegex(letter)}${write(child, false)}`,
    );
    if (node.end !== undefined) branches.push(node.end);
    const body = branches.length === 1 ? branches[0] : `(?:${branches.join('|')})`;
    // Between two letters, and after the last one, sh's evasions may stand.
    return first ? body : `${filler}${body}`;
  };
  return `(?:${write(root, true)})`;
}

/**
 * Where sh starts a new command: after a newline, `;`, `|`, `&` (so also `||` and `&&`), a backtick (not
 * one of a Markdown code fence, ```` ```python ````), `{`, in a substitution `$(…)`, `$((…))`, `${…}`,
 * `$[…]`, a process substitution `<(…)` or `>(…)`, a here-string `<<<`, or after `()`; and after `=`, an
 * assignment whose value is a command (`a=nc&&$a`), where a rule allows it.
 */
const UNIX_SEPARATORS = String.raw`[\n\r;{|&]|(?:^|[^\x60])\x60|\$\(\(?|\$\{|\$\[|<\(|<<<|>\(|\(\s*\)`;

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

/** Where a rule lets a command start. */
export interface UnixStart {
  /** Also first in the value: a value that is a command line by itself. */
  readonly atStart?: boolean;
  /** Also after `=` (default: yes). */
  readonly assignment?: boolean;
  /** Wrappers with quotes or backslashes inside (`ti''me sh`) (default: yes). */
  readonly evasiveWrappers?: boolean;
}

/** The start of a Unix command: where it may start, then what may stand before its name. */
export function unixCommandStart(start: UnixStart = {}): string {
  const { atStart = false, assignment = true, evasiveWrappers = true } = start;
  const wrapper = evasiveWrappers ? UNIX_WRAPPER : String.raw`\b${anyOf(WRAPPERS)}[\s&),<>|]`;
  const starts = [...(atStart ? ['^'] : []), UNIX_SEPARATORS, ...(assignment ? ['='] : []), wrapper];
  return `${anyOf(starts)}${UNIX_BEFORE_NAME}`;
}

/** What ends a command name: a closing quote, then a space, an operator, or the end of a substitution. */
export const UNIX_AFTER_NAME = String.raw`['"]*[\s&|;<>),}\x60]`;

/** The same, or the end of the value (a command that needs no argument). */
export const UNIX_AFTER_NAME_OR_END = String.raw`['"]*(?:[\s&|;<>),}\x60]|$)`;

/**
 * At paranoia level 1, a space then `(` does not end a command name: that is a C-like call in a code
 * snippet (`{ printf ("%s", s); }`), which sh would not run.
 */
export const UNIX_AFTER_NAME_STRICT = String.raw`['"]*(?:\s+(?:[^\s(]|$)|[&|;<>),}\x60])`;
export const UNIX_AFTER_NAME_STRICT_OR_END = String.raw`['"]*(?:\s+(?:[^\s(]|$)|[&|;<>),}\x60]|$)`;

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
