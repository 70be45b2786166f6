import { escapeControlCharacters } from '../lang/escape.js';

/** Text in a JUnit XML attribute or element. */
export const xml = (text: string) =>
  text
    // XML 1.0 cannot carry control characters even escaped; show them as the CLI does elsewhere.
    .split('\n')
    .map(escapeControlCharacters)
    .join('\n')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
