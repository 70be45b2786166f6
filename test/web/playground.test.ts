import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWeb } from '../../scripts/web-bundle.mjs';
import { format } from '../../src/index.js';
import type {} from '../summary-reporter.js';
import { browserMissing, inCI, launchChromium } from './browser.js';
import { type StaticServer, serveDirectory } from './static-server.js';

// The playground as a user sees it, in Chromium: the page is built as `npm run build` builds it, served
// with a strict Content-Security-Policy, and driven by typing and clicking. Screenshots of each view go to
// test/web/screenshots/ (git-ignored), to look at.

const SCREENSHOTS = join(import.meta.dirname, 'screenshots');
const missing = browserMissing();

if (missing && !inCI()) {
  describe('the playground in a browser', () => {
    it('needs Chromium, which this machine lacks', ({ task }) => {
      task.meta.notRun = missing;
    });
  });
} else {
  let outdir: string;
  let server: StaticServer;
  let browser: Browser;
  /** Problems the page reported: uncaught errors, console errors, CSP violations. */
  let pageProblems: string[] = [];

  beforeAll(async () => {
    if (missing) throw new Error(`${missing}; CI must have it (.ci/run installs it)`);
    outdir = mkdtempSync(join(tmpdir(), 'cfrules-web-'));
    await bundleWeb({ outdir });
    server = await serveDirectory(outdir);
    browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (outdir) rmSync(outdir, { recursive: true, force: true });
  });

  async function open(fragment = ''): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    pageProblems = [];
    page.on('pageerror', (error) => pageProblems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') pageProblems.push(`console: ${message.text()}`);
    });
    await page.goto(server.url + fragment);
    // Attached rather than visible: in zone mode the editor is hidden.
    await page.locator('.cm-content').waitFor({ state: 'attached' });
    return page;
  }

  /** Replaces the expression by typing it, as a user would. */
  async function typeExpression(page: Page, text: string): Promise<void> {
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(text);
  }

  const fragmentOf = (params: Record<string, string>) =>
    `#${new URLSearchParams(params).toString().replaceAll('+', '%20')}`;

  describe('the playground in a browser', () => {
    it('underlines an error with Cloudflare’s text at its place, in text with non-ASCII characters', async () => {
      const page = await open();
      const source = 'http.request.uri.path eq "é€😀" and ip.src eq 1.2.3.4.5';
      await typeExpression(page, source);
      const diagnostic = page.locator('.diagnostic-error .diagnostic-text');
      await expect.poll(() => diagnostic.textContent()).toContain('Filter parsing error (1:52):');
      expect(await diagnostic.textContent()).toContain(
        "couldn't parse address in network: invalid IP address syntax",
      );
      // The underline covers the address exactly, though the columns of the message count UTF-8 bytes.
      await expect.poll(() => page.locator('.cm-lintRange-error').allTextContents()).toEqual(['1.2.3.4.5']);
      await page.screenshot({ path: join(SCREENSHOTS, 'expression-error.png') });
      expect(pageProblems).toEqual([]);
      await page.close();
    });

    it('completes http.req to http.request.uri.path, with its type', async () => {
      const page = await open();
      await typeExpression(page, '');
      await page.keyboard.type('http.req');
      const option = page.locator('.cm-tooltip-autocomplete li', { hasText: /^http\.request\.uri\.path\b/ });
      await option.first().waitFor();
      expect(await option.first().textContent()).toContain('Bytes');
      await page.screenshot({ path: join(SCREENSHOTS, 'completion.png') });
      await page.keyboard.press('Escape');
      // After an operand, the operators.
      await typeExpression(page, '');
      await page.keyboard.type('http.host con');
      const operators = page.locator('.cm-tooltip-autocomplete li .cm-completionLabel');
      await expect.poll(() => operators.allTextContents()).toEqual(['contains']);
      await page.keyboard.press('Escape');
      // Inside the quotes of a comparison, the field's known values.
      await typeExpression(page, '');
      await page.keyboard.type('http.request.method eq "P');
      const methods = page.locator('.cm-tooltip-autocomplete li .cm-completionLabel');
      await expect.poll(() => methods.allTextContents()).toEqual(['PATCH', 'POST', 'PURGE', 'PUT']);
      await page.locator('.cm-tooltip-autocomplete li', { hasText: 'POST' }).click();
      await expect
        .poll(() => page.locator('.cm-content').textContent())
        .toBe('http.request.method eq "POST"');
      await page.close();
    });

    it('fixes from a hint, formats, checks again for another plan, and documents a name on hover', async () => {
      const page = await open();
      await typeExpression(page, 'ip.geoip.country eq "FR"');
      const fix = page.locator('.quick-fix');
      await expect.poll(() => fix.textContent()).toBe('Use ip.src.country');
      await fix.click();
      await expect.poll(() => page.locator('.cm-content').textContent()).toBe('ip.src.country eq "FR"');

      const messy = 'http.host   eq "a"   &&  ( ssl or  not ssl )';
      await typeExpression(page, messy);
      await page.locator('#format').click();
      await expect.poll(() => page.locator('.cm-content').textContent()).toBe(format(messy));

      await typeExpression(page, 'http.host matches "^a"');
      await page.locator('#plan').selectOption('free');
      const codes = page.locator('.diagnostic .diagnostic-code');
      await expect.poll(() => codes.allTextContents()).toEqual(['matches-plan']);
      await page.locator('#plan').selectOption('business');
      await expect.poll(() => page.locator('.diagnostic-ok').count()).toBe(1);

      await page.locator('.cm-content .cf-field').first().hover();
      const hover = page.locator('.cf-hover');
      await expect.poll(() => hover.textContent()).toContain('http.host Bytes');
      await page.screenshot({ path: join(SCREENSHOTS, 'hover.png') });
      expect(pageProblems).toEqual([]);
      await page.close();
    });

    it('evaluates the sample request and shows the explain tree', async () => {
      const page = await open();
      await typeExpression(page, 'http.request.uri.path eq "/index.html" and ip.src.country in {"FR" "DE"}');
      const verdict = page.locator('#verdict');
      await expect.poll(() => verdict.textContent()).toMatch(/^false/);
      const lines = page.locator('.explain-line');
      await expect
        .poll(() => lines.allTextContents())
        .toEqual([
          'falsehttp.request.uri.path eq "/index.html" and ip.src.country in {"FR" "DE"}',
          'truehttp.request.uri.path eq "/index.html"',
          'falseip.src.country in {"FR" "DE"}',
        ]);
      expect(await page.locator('.explain-fields').allTextContents()).toEqual([
        'http.request.uri.path = "/index.html"',
        'ip.src.country = "US"',
      ]);
      // Another preset: the request changes, and so does the answer.
      await page.locator('#req-ip').fill('192.0.2.1');
      await page.locator('#req-edge').fill('{"country": "FR"}');
      await expect.poll(() => verdict.textContent()).toMatch(/^true/);
      await page.screenshot({ path: join(SCREENSHOTS, 'explain.png'), fullPage: true });
      expect(pageProblems).toEqual([]);
      await page.close();
    });

    it('runs matches in the page with Cloudflare’s regex dialect, and reports a bad pattern', async () => {
      const page = await open();
      await typeExpression(page, 'http.request.uri.path matches "^/INDEX\\.(?i:HTML)$"');
      await expect.poll(() => page.locator('#verdict').textContent(), { timeout: 15_000 }).toMatch(/^false/);
      await typeExpression(page, 'http.request.uri.path matches "(?i)^/INDEX\\.HTML$"');
      await expect.poll(() => page.locator('#verdict').textContent(), { timeout: 15_000 }).toMatch(/^true/);
      await typeExpression(page, 'http.request.uri.path matches "a(b"');
      const diagnostic = page.locator('.diagnostic-error .diagnostic-text');
      await expect.poll(() => diagnostic.textContent()).toContain('error: unclosed group');
      expect(pageProblems).toEqual([]);
      await page.close();
    });

    it('simulates the example zone and draws the deciding rule', async () => {
      const page = await open();
      await page.locator('.tab[data-mode="zone"]').click();
      await page.locator('#req-preset').selectOption('scanner');
      const decision = page.locator('.decision');
      await expect
        .poll(() => decision.textContent(), { timeout: 20_000 })
        .toBe('block by scanner-block (firewall_rules)');
      const deciding = page.locator('.trace-deciding');
      expect(await deciding.getAttribute('data-rule')).toBe('scanner-block');
      expect(await deciding.locator('.trace-badge').textContent()).toBe('decided');
      await page.screenshot({ path: join(SCREENSHOTS, 'zone.png'), fullPage: true });
      // A page view passes every stage; the OWASP ruleset shows its score against the zone's threshold.
      await page.locator('#req-preset').selectOption('browser');
      await expect.poll(() => decision.textContent()).toBe('No rule decided: the request goes on.');
      expect(await page.locator('.trace-score').allTextContents()).toEqual([
        'anomaly score 0 / threshold 40',
      ]);
      await page.screenshot({ path: join(SCREENSHOTS, 'zone-owasp.png'), fullPage: true });
      expect(pageProblems).toEqual([]);
      await page.close();
    });

    it('draws what the Rules products did: the URL rewrite before the custom rules, its change before → after', async () => {
      const zone = readFileSync(new URL('../../examples/zone/zone.json', import.meta.url), 'utf8');
      const request = {
        url: 'https://example.com/api/v1/internal/users',
        headers: [['User-Agent', 'curl/8.5.0']],
      };
      const page = await open(fragmentOf({ mode: 'zone', zone, request: JSON.stringify(request) }));
      const decision = page.locator('.decision');
      await expect
        .poll(() => decision.textContent(), { timeout: 20_000 })
        .toBe('block by internal-api-block (http_request_firewall_custom)');
      const rewrite = page.locator('.trace-rule[data-rule="api-v1-to-v2"] .trace-note-effect');
      expect(await rewrite.textContent()).toBe(
        'http.request.uri.path: "/api/v1/internal/users" → "/api/v2/internal/users"',
      );
      await page.screenshot({ path: join(SCREENSHOTS, 'zone-pipeline.png'), fullPage: true });
      expect(pageProblems).toEqual([]);
      await page.close();
    });

    it('shows markup in names, descriptions and values as text', async () => {
      const markup = '<img src=x onerror="document.title=1">';
      const zone = {
        plan: 'enterprise',
        firewall_rules: [
          {
            id: '4540a1ec7fb11a4104fa293ecf1cc395',
            ref: markup,
            description: `<b>${markup}</b>`,
            action: 'block',
            priority: 1,
            paused: false,
            filter: { id: '73bf2335b69b63cfe31ac612ed0f671a', expression: 'true', paused: false },
          },
        ],
      };
      const request = {
        url: `https://example.com/${encodeURIComponent(markup)}`,
        headers: [['X-Test', markup]],
      };
      const page = await open(
        fragmentOf({ mode: 'zone', zone: JSON.stringify(zone), request: JSON.stringify(request) }),
      );
      const deciding = page.locator('.trace-deciding');
      await expect
        .poll(() => deciding.locator('.trace-name').textContent(), { timeout: 20_000 })
        .toBe(markup);
      expect(await deciding.locator('.trace-description').textContent()).toBe(`<b>${markup}</b>`);
      await page.locator('.tab[data-mode="expression"]').click();
      await typeExpression(
        page,
        `any(http.request.headers["x-test"][*] eq "${markup.replaceAll('"', '\\"')}")`,
      );
      await expect.poll(() => page.locator('#verdict').textContent()).toMatch(/^true/);
      expect(await page.locator('.explain-fields').first().textContent()).toContain(
        markup.replaceAll('"', '\\"'),
      );
      expect(await page.locator('main img, main b').count()).toBe(0);
      expect(await page.title()).toBe('cfrules playground');
      expect(pageProblems).toEqual([]);
      await page.close();
    });

    it('opened from disk, evaluates expressions and says why a regex cannot run there', async () => {
      const page = await browser.newPage();
      const fromDisk = (expr: string) =>
        `${pathToFileURL(join(outdir, 'index.html')).href}${fragmentOf({ expr })}`;
      await page.goto(fromDisk('http.request.uri.path eq "/index.html"'));
      await expect.poll(() => page.locator('#verdict').textContent()).toMatch(/^true/);
      await page.goto(fromDisk('http.host matches "(?i)^ex[a-z]+\\.com$"'));
      await page.reload();
      await expect
        .poll(() => page.locator('#result-error').textContent())
        .toContain('Regular expressions need RE2 (re2.wasm), which the page could not load');
      expect(await page.locator('#result-error').textContent()).toContain('serve dist/web over HTTP');
      await page.close();
    });

    it('restores the whole case from the URL fragment', async () => {
      const request = {
        method: 'POST',
        url: 'https://example.com/login',
        headers: [['User-Agent', 'curl/8']],
      };
      const page = await open(
        fragmentOf({
          mode: 'expression',
          plan: 'pro',
          phase: 'http_request_firewall_custom',
          expr: 'http.request.method eq "POST"',
          request: JSON.stringify(request),
        }),
      );
      expect(await page.locator('.cm-content').textContent()).toBe('http.request.method eq "POST"');
      expect(await page.locator('#plan').inputValue()).toBe('pro');
      expect(await page.locator('#req-method').inputValue()).toBe('POST');
      expect(await page.locator('#req-headers').inputValue()).toBe('User-Agent: curl/8');
      await expect.poll(() => page.locator('#verdict').textContent()).toMatch(/^true/);
      // Editing writes the fragment back: opening that address gives the same page.
      await typeExpression(page, 'http.request.method eq "GET"');
      await expect.poll(() => page.evaluate(() => location.hash)).toContain('GET');
      const again = await open((await page.evaluate(() => location.hash)) as string);
      expect(await again.locator('.cm-content').textContent()).toBe('http.request.method eq "GET"');
      await expect.poll(() => again.locator('#verdict').textContent()).toMatch(/^false/);
      await page.close();
      await again.close();
    });
  });
}
