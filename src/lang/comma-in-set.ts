import { scanQuotedString, scanRawString } from './literals.js';

/**
 * The set shown in the hint for a comma between set items (the catalogue's `commaInSet`), the same from
 * `parse` (which knows no types) and `validate` (which reads the set by type and so reports Cloudflare's
 * message for that type): the user's own set, rewritten with spaces (at most three items), e.g. `{80 443}`
 * for `{80, 443}`.
 */
export function commaInSetHint(source: string, comma: number): string {
  const open = source.lastIndexOf('{', comma);
  const items: string[] = [];
  let item = '';
  const flush = () => {
    if (item) items.push(item);
    item = '';
  };
  for (let i = open + 1; i < source.length && source[i] !== '}'; i++) {
    const char = source[i] as string;
    if (char === ',' || /\s/.test(char)) {
      flush();
      continue;
    }
    // A string item is taken whole: the commas and braces in it are its own.
    const string =
      char === '"'
        ? scanQuotedString(source, i, source.length)
        : char === 'r' && /^r#*"/.test(source.slice(i, i + 258))
          ? scanRawString(source, i, source.length)
          : undefined;
    const end = string?.ok ? string.end : i + 1;
    item += source.slice(i, end);
    i = end - 1;
  }
  flush();
  const shown = items.length > 3 ? [...items.slice(0, 3), '…'] : items;
  return `{${shown.join(' ')}}`;
}
