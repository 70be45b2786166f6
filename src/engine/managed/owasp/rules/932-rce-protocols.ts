import type { CrsRule } from '../crs.js';
import { ARGS_TARGETS, UNIX_TAGS } from './932-rce-unix.js';
import { SQLITE_DOT_COMMANDS } from './932-rce-words.js';

/**
 * CRS 932, commands of other interpreters a value may reach: SQLite's command-line shell (`.shell`,
 * `.system`), and mail servers' protocols — a CRLF in a value that is written to an SMTP, IMAP or POP3
 * connection starts a command of the attacker's. escapeSeqDecode first turns a written `\r\n` into CRLF.
 *
 * A mail command counts at the start of a line that follows a CRLF: a form's textarea also sends CRLF, and
 * a line of it that merely contains "list" or "user" is not a command.
 */

const MAIL_TAGS = ['application-multi', 'platform-multi', 'attack-rce'];

/** The start of a line after a CRLF: every command an attacker adds follows one. */
const AFTER_CRLF = String.raw`\r\n[ \t]*`;

/** The end of a command line. */
const LINE_END = String.raw`[ \t]*(?:\r?\n|$)`;

/**
 * An IMAP command's tag as clients write them: a number, letters and a number (`a001`, `A1`), or one
 * letter — not a word, so that a textarea line "please select one" is not a command.
 */
const IMAP_TAG = String.raw`(?:[a-z]*[0-9][\w.]*|[a-z]) `;

export const SQLITE_RULES: readonly CrsRule[] = [
  {
    id: 932210,
    description: 'Remote Command Execution: SQLite System Command Execution',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: UNIX_TAGS,
    targets: ARGS_TARGETS,
    transformations: 'none,escapeSeqDecode,compressWhitespace',
    // A statement ended and a dot-command started: `;.shell id`, `; .system nc …`, `;."shell`.
    test: { regex: String.raw`;\s*\.\s*["']?(?:${SQLITE_DOT_COMMANDS.join('|')})` },
  },
];

export const MAIL_RULES_PL2: readonly CrsRule[] = [
  {
    id: 932300,
    description: 'Remote Command Execution: SMTP Command Execution',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: [...MAIL_TAGS],
    targets: ARGS_TARGETS,
    transformations: 'none,escapeSeqDecode',
    // SMTP commands with their arguments (RFC 5321): `MAIL FROM:<a@b>`, `RCPT TO:<…>`, `EHLO host`…
    test: {
      regex: String.raw`(?i)${AFTER_CRLF}(?:(?:ehlo|helo)\s+[\w.-]+|expn\s+\S+|mail\s+from:\s*<[^>]*>|rcpt\s+to:\s*<[^>]*>|vrfy\s+\S+|auth\s+[\w-]+\s+[a-z0-9+/]+=|(?:rset|starttls|noop)\b)`,
    },
  },
  {
    id: 932310,
    description: 'Remote Command Execution: IMAP Command Execution',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: [...MAIL_TAGS],
    targets: ARGS_TARGETS,
    transformations: 'none,escapeSeqDecode',
    // A tagged IMAP4 command (RFC 3501) that no sentence starts with: `a1 APPEND box {310}`, `a1 UID STORE …`.
    test: {
      regex: String.raw`(?i)${AFTER_CRLF}${IMAP_TAG}(?:append\s+\S+|authenticate\s+[\w-]+|lsub\s+\S+\s+\S+|listrights\s+\S+|status\s+\S+\s+\(|setacl\s+\S+\s+\S+|uid\s+(?:copy|fetch|store)\s|(?:deleteacl|getacl|myrights)\s+\S+)`,
    },
  },
  {
    id: 932320,
    description: 'Remote Command Execution: POP3 Command Execution',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: [...MAIL_TAGS],
    targets: ARGS_TARGETS,
    transformations: 'none,escapeSeqDecode',
    // A POP3 command line (RFC 1939): `RETR 1`, `LIST 3`, `USER bob`, `APOP name <md5>`.
    test: {
      regex: String.raw`(?i)${AFTER_CRLF}(?:(?:list|uidl)(?:[ \t]+[0-9]+)?${LINE_END}|top\s+[0-9]+\s+[0-9]+|(?:retr|dele)\s+[0-9]+|(?:user|pass)[ \t]+\S+${LINE_END}|apop\s+\S+\s+[a-f0-9]{32}|auth\s+\S+\s+[a-z0-9+/]+=)`,
    },
  },
];

export const MAIL_RULES_PL3: readonly CrsRule[] = [
  {
    id: 932301,
    description: 'Remote Command Execution: SMTP Command Execution',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: [...MAIL_TAGS],
    targets: ARGS_TARGETS,
    transformations: 'none,escapeSeqDecode',
    // SMTP commands that are English words, in capitals as clients send them: `DATA`, `QUIT`, `HELP`.
    test: { regex: String.raw`${AFTER_CRLF}(?:DATA|QUIT|HELP)\b` },
  },
  {
    id: 932311,
    description: 'Remote Command Execution: IMAP Command Execution',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: [...MAIL_TAGS],
    targets: ARGS_TARGETS,
    transformations: 'none,escapeSeqDecode',
    // Tagged IMAP4 commands that are English words: `a1 SELECT INBOX`, `a1 SEARCH …`, `a1 STORE 2 +FLAGS`.
    test: {
      regex: String.raw`(?i)${AFTER_CRLF}${IMAP_TAG}(?:(?:capability|check|close|expunge|logout|starttls|unauthenticate|noop)\b|(?:create|delete|examine|select|subscribe|unsubscribe|fetch|search)\s+\S|(?:copy|list|login|rename)\s+\S+\s+\S|store\s+\S+\s+[+-]?flags)`,
    },
  },
  {
    id: 932321,
    description: 'Remote Command Execution: POP3 Command Execution',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: [...MAIL_TAGS],
    targets: ARGS_TARGETS,
    transformations: 'none,escapeSeqDecode',
    // POP3 commands that are English words, in capitals: `QUIT`, `STAT`, `NOOP`…
    test: { regex: String.raw`${AFTER_CRLF}(?:QUIT|STAT|RSET|NOOP|CAPA)\b` },
  },
];
