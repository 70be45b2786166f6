import { escapeControlCharacters } from '../lang/escape.js';

/**
 * A command's message on standard error: `cfrules NAME: TEXT` and a line break. Messages quote file names,
 * arguments, values and lines of request logs, which come from users and, for logs, from anyone who sent a
 * request: their control characters are shown escaped (docs/cli.md, Control characters), so that no input
 * can clear the screen or retitle the window. Text escaped already is left as it is.
 */
export const commandMessage = (command: string, text: string): string =>
  `cfrules ${command}: ${escapeControlCharacters(text)}\n`;
