/**
 * The playground's budgets (issue 24), in Debian's Chromium driven by playwright-core, on the page as
 * `npm run build` writes it, served from localhost with the page's Content-Security-Policy:
 *
 * - the JavaScript a visit loads before the regex engine (which loads on the first `matches`): ≤ 400 KB
 *   gzipped;
 * - interactive: the first result (the verdict of the sample request) drawn ≤ 1 s after navigation, in a
 *   fresh browser context each time (nothing cached);
 * - the first diagnostic: an error underlined ≤ 30 ms after the keystroke that makes a 4,096-character
 *   expression invalid, and the underline gone as soon after the keystroke that makes it valid again.
 *
 * Times are taken inside the page (`performance.now()` at the keystroke's event and when the editor's
 * marks change, seen by a MutationObserver), so the browser's remote control adds nothing to them.
 * Run through tsx rather than bundled as the library benchmarks are: it times the browser, not Node.
 * Usage: npm run bench:web [-- --write]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { bundleWeb } from '../scripts/web-bundle.mjs';
import { browserMissing, launchChromium } from '../test/web/browser.js';
import { serveDirectory } from '../test/web/static-server.js';
import { machineDescription } from './machine.js';
import { median } from './measure.js';
import { publish } from './results.js';

const missing = browserMissing();
if (missing) {
  console.error(`bench:web: ${missing}`);
  process.exit(1);
}
const machine = machineDescription();
const outdir = mkdtempSync(join(tmpdir(), 'cfrules-bench-web-'));
await bundleWeb({ outdir });
const server = await serveDirectory(outdir);
const browser: Browser = await launchChromium();

const range = (values: number[], digits = 0) =>
  `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

// --- what a visit loads, and when the first result is drawn -------------------------------------------
const LOADS = 7;
const scripts = new Map<string, number>();
const interactive: number[] = [];
for (let load = 0; load < LOADS; load++) {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    const name = new URL(response.url()).pathname.slice(1);
    void response.body().then((body) => scripts.set(name, gzipSync(body).length));
  });
  // Injected by the browser's remote control before the page's own scripts (the page's CSP does not
  // apply to it): the time the verdict first has text, on the page's clock (0 = navigation start).
  await page.addInitScript(() => {
    const seen = new MutationObserver(() => {
      const verdict = document.getElementById('verdict');
      if (verdict?.textContent) {
        (window as unknown as { drawnAt: number }).drawnAt = performance.now();
        seen.disconnect();
      }
    });
    seen.observe(document, { childList: true, subtree: true, characterData: true });
  });
  await page.goto(server.url);
  await page.waitForFunction(() => (window as unknown as { drawnAt?: number }).drawnAt !== undefined);
  interactive.push(await page.evaluate(() => (window as unknown as { drawnAt: number }).drawnAt));
  await context.close();
}
const startScripts = [...scripts].filter(([name]) => !name.startsWith('re2'));
const startBytes = startScripts.reduce((sum, [, bytes]) => sum + bytes, 0);
if (startScripts.length === 0) throw new Error('bench:web: the page loaded no script');

// --- the first diagnostic on a 4,096-character expression --------------------------------------------
const LENGTH = 4096;
/** A valid expression of exactly LENGTH characters: host comparisons, the last one padded. */
function longExpression(): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length + 40 < LENGTH; i++) {
    const part = `http.host eq "host-${i}.example.com"`;
    parts.push(part);
    length += part.length + 4;
  }
  const head = parts.join(' or ');
  const padding = LENGTH - head.length - ' or http.host eq ""'.length;
  return `${head} or http.host eq "${'x'.repeat(padding)}"`;
}
const expression = longExpression();
if (expression.length !== LENGTH) throw new Error(`the expression has ${expression.length} characters`);

async function diagnosticTimes(page: Page, rounds: number): Promise<{ error: number[]; valid: number[] }> {
  const error: number[] = [];
  const valid: number[] = [];
  // The time an error mark appears or goes, whatever else the page redraws meanwhile.
  await page.evaluate(() => {
    const state = window as unknown as {
      keyAt: number;
      flipAt: number;
      marked: boolean;
      observer: MutationObserver;
    };
    state.marked = false;
    document.addEventListener('keydown', (event) => (state.keyAt = event.timeStamp), true);
    // The editor lives in a shadow root of its own (web/src/editor/expression-editor.ts).
    const host = Array.from(document.querySelectorAll('*')).find((element) =>
      element.shadowRoot?.querySelector('.cm-editor'),
    );
    const root = host?.shadowRoot;
    if (!root) throw new Error("the editor's shadow root was not found");
    // Kept by the page, so that it lives as long as the page.
    state.observer = new MutationObserver(() => {
      const marked = root.querySelector('.cm-lintRange-error') !== null;
      if (marked === state.marked) return;
      state.marked = marked;
      state.flipAt = performance.now();
    });
    state.observer.observe(root, { childList: true, subtree: true, attributes: true });
  });
  const marks = page.locator('.cm-lintRange-error');
  const elapsed = () =>
    page.evaluate(() => {
      const state = window as unknown as { keyAt: number; flipAt: number };
      return state.flipAt - state.keyAt;
    });
  for (let round = 0; round < rounds; round++) {
    // `)` at the end makes it invalid; Backspace makes it valid again.
    await page.keyboard.press('End');
    await page.keyboard.press(')');
    await marks.first().waitFor({ state: 'attached' });
    error.push(await elapsed());
    await page.keyboard.press('Backspace');
    await marks.first().waitFor({ state: 'detached' });
    valid.push(await elapsed());
  }
  return { error, valid };
}

const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
await page.goto(server.url);
await page.locator('.cm-content').click();
await page.keyboard.press('Control+A');
await page.keyboard.press('Delete');
await page.keyboard.insertText(expression);
await page.locator('.diagnostic-ok').waitFor();
// The first rounds warm the page's code up; they are measured like the others.
const times = await diagnosticTimes(page, 15);
await browser.close();
await server.close();
rmSync(outdir, { recursive: true, force: true });

const firstError = median(times.error);
const firstValid = median(times.valid);
const ready = median(interactive);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const chromium = readFileSync('/usr/bin/chromium', 'latin1').match(/Chromium \d+\.\d+\.\d+\.\d+/)?.[0];

publish(`## Playground in the browser (bench/web.ts)

Machine: ${machine}. Browser: ${chromium ?? "Debian's chromium"}, headless. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench:web -- --write\`.

| budget | measured | target |
|---|---:|---|
| JavaScript loaded before the regex engine, gzipped | ${kb(startBytes)} (${startScripts.map(([name, bytes]) => `${name} ${kb(bytes)}`).join(', ')}) | ≤ 400 KB: ${startBytes <= 400 * 1024 ? 'met' : '**missed**'} |
| first result drawn after navigation (fresh context) | ${ready.toFixed(0)} ms (median of ${LOADS}, ${range(interactive)} ms) | ≤ 1 s: ${ready <= 1000 ? 'met' : '**missed**'} |
| error underlined after the keystroke, ${LENGTH}-character expression | ${firstError.toFixed(1)} ms (median of ${times.error.length}, ${range(times.error, 1)} ms) | ≤ 30 ms: ${firstError <= 30 ? 'met' : '**missed**'} |
| underline gone after the keystroke that mends it | ${firstValid.toFixed(1)} ms (median of ${times.valid.length}, ${range(times.valid, 1)} ms) | |

The page is served from localhost with the playground's Content-Security-Policy (test/web/static-server.ts).
Sizes are the scripts the page fetched, gzipped by this benchmark (a server's own compression may differ a
little); zone mode's script (\`playground-zone.js\`) and RE2 load later, on first use. Times are read on the
page's clock: the first result is when the verdict of the sample request first has text; a diagnostic's
time runs from the keystroke's event to the editor's marks changing (a MutationObserver), so it includes
the editor's own wait before it checks the text (its lint delay).
`);
