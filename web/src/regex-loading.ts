import { prepareRe2 } from './regex/re2-browser.js';

// RE2 (some 860 kB of wasm) is fetched only when an expression first needs a regex, so that the page
// starts with the editor alone. The library's RE2 modules ask for it synchronously (loadRe2), so the page
// waits for it before it checks or runs such an expression.

/** Whether checking or running `text` may use a regex: `matches` (`~`) or `regex_replace`. */
export const mayUseRegex = (text: string): boolean => /matches|~|regex_replace/.test(text);

let failure: string | undefined;

/**
 * Resolves once RE2 is ready; rejects with the reason it could not be loaded. `prepare` is the loader of
 * the script that needs it: the page's own, or the zone engine's (./zone/engine.ts), which has its own copy
 * of the regex layer. Each loads once and then answers at once.
 */
export function regexReady(prepare: (baseUrl: string) => Promise<void> = prepareRe2): Promise<void> {
  return prepare(document.baseURI).then(
    () => {
      failure = undefined;
    },
    (error: unknown) => {
      failure = error instanceof Error ? error.message : String(error);
      throw error;
    },
  );
}

/**
 * Why RE2 could not be loaded, the last time the page tried; undefined when it loaded or was not needed.
 * A page opened from disk (file://) cannot fetch re2.wasm: browsers refuse `fetch` of local files.
 */
export function regexUnavailable(): string | undefined {
  if (failure === undefined) return undefined;
  const fromDisk = location.protocol === 'file:';
  return `Regular expressions need RE2 (re2.wasm), which the page could not load: ${failure}.${
    fromDisk
      ? ' Browsers do not let a page opened from disk fetch it: serve dist/web over HTTP (docs/web.md).'
      : ''
  }`;
}

/** Waits for RE2 when `text` may need it. */
export async function prepareFor(text: string): Promise<void> {
  if (mayUseRegex(text)) await regexReady();
}
