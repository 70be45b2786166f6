import { prepareRe2, re2Ready } from './regex/re2-browser.js';

// RE2 (some 860 kB of wasm) is fetched only when an expression first needs a regex, so that the page
// starts with the editor alone. The library's RE2 modules ask for it synchronously (loadRe2), so the page
// waits for it before it checks or runs such an expression.

/** Whether checking or running `text` may use a regex: `matches` (`~`) or `regex_replace`. */
export const mayUseRegex = (text: string): boolean => /matches|~|regex_replace/.test(text);

/** Resolves once RE2 is ready; rejects with the reason it could not be loaded. */
export function regexReady(): Promise<void> {
  if (re2Ready()) return Promise.resolve();
  return prepareRe2(document.baseURI);
}

/** Waits for RE2 when `text` may need it. */
export async function prepareFor(text: string): Promise<void> {
  if (mayUseRegex(text)) await regexReady();
}
