import { escapeControlCharacters } from '../lang/escape.js';

/**
 * GitHub's workflow-command escaping: data escapes `%`, CR and LF; properties also `:` and `,`. The log
 * shows the commands on a terminal-like page, so control characters are escaped first.
 */
export const escapeData = (text: string) =>
  escapeControlCharacters(text).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
export const escapeProperty = (text: string) => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
