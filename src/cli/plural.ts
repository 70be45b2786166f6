/** `1 request`, `2 requests`: a count and its noun; `shown` writes the number (e.g. with separators). */
export function plural(n: number, word: string, shown: string = String(n)): string {
  return `${shown} ${word}${n === 1 ? '' : 's'}`;
}
