import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServeProcess, startServe } from '../cli/serve-process.js';
import type {} from '../summary-reporter.js';
import { browserMissing, inCI, launchChromium } from './browser.js';

// The console of `cfrules serve` as a user sees it, in Chromium: the built `cfrules serve` on a database
// file of its own, signed in with a token of its config, driven by typing and clicking. Screenshots of each
// view go to test/web/screenshots/ (git-ignored), to look at.

const SCREENSHOTS = join(import.meta.dirname, 'screenshots');
const missing = browserMissing();

const ACCOUNT = '0123456789abcdef0123456789abcdef';
const TOKEN = 'C'.repeat(40);
const READ_TOKEN = 'r'.repeat(40);
const ZONES = { enterprise: 'e'.repeat(32), pro: 'a'.repeat(32), free: 'f'.repeat(32) } as const;
const MARKUP = '<img src=x id=injected><b>bold</b>';
const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';
const ANOMALY_RULE = '6179ae15870a4bb7b2d480d4843b323c';

if (missing && !inCI()) {
  describe('the console in a browser', () => {
    it('needs Chromium, which this machine lacks', ({ task }) => {
      task.meta.notRun = missing;
    });
  });
} else {
  let scratch: string;
  let server: ServeProcess;
  let base: string;
  let browser: Browser;
  /** Problems the page reported: uncaught errors, console errors, CSP violations. */
  let pageProblems: string[] = [];

  /** A call of the API as a script would make it, to set zones up. */
  async function api(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const envelope = (await response.json()) as { success: boolean; result: unknown; errors: unknown };
    if (!envelope.success) throw new Error(`${method} ${path}: ${JSON.stringify(envelope.errors)}`);
    return envelope.result;
  }

  beforeAll(async () => {
    if (missing) throw new Error(`${missing}; CI must have it (.ci/run installs it)`);
    scratch = mkdtempSync(join(tmpdir(), 'cfrules-console-'));
    const config = join(scratch, 'cfrules.json');
    writeFileSync(
      config,
      JSON.stringify({
        accounts: [
          {
            id: ACCOUNT,
            email: 'ops@example.com',
            tokens: [
              { value: TOKEN, zones: ['*'], permissions: ['read', 'edit'] },
              { value: READ_TOKEN, zones: ['*'], permissions: ['read'] },
            ],
          },
        ],
        zones: [
          { id: ZONES.enterprise, name: 'example.com', plan: 'enterprise', account: ACCOUNT },
          { id: ZONES.pro, name: 'pro.example', plan: 'pro', account: ACCOUNT },
          { id: ZONES.free, name: 'free.example', plan: 'free', account: ACCOUNT },
        ],
      }),
    );
    server = await startServe(['--port', '0', '--db', join(scratch, 'cfrules.db'), '--config', config]);
    base = server.url.replace(/\/client\/v4$/, '/');
    const zone = (id: string, rest: string) => `/zones/${id}${rest}`;
    // Two firewall rules, listed out of their evaluation order, one with markup in its description.
    await api('POST', zone(ZONES.enterprise, '/firewall/rules'), [
      {
        action: 'block',
        priority: 20,
        description: MARKUP,
        filter: { expression: 'http.request.uri.path eq "/admin"' },
      },
      {
        action: 'log',
        priority: 10,
        description: 'log the API',
        filter: { expression: 'starts_with(http.request.uri.path, "/api")' },
      },
    ]);
    await api('PUT', zone(ZONES.enterprise, '/rulesets/phases/http_request_firewall_managed/entrypoint'), {
      rules: [
        {
          action: 'execute',
          expression: 'true',
          description: 'OWASP core ruleset',
          action_parameters: {
            id: OWASP,
            overrides: {
              categories: [{ category: 'paranoia-level-2', enabled: true }],
              rules: [{ id: ANOMALY_RULE, action: 'block', score_threshold: 25 }],
            },
          },
        },
      ],
    });
    // The Pro zone's previous WAF, changed: the migration carries it over.
    await api('PATCH', zone(ZONES.pro, `/firewall/waf/packages/a25a9a7e9c00afc1fb2e0245519d725b`), {
      sensitivity: 'medium',
      action_mode: 'challenge',
    });
    await api('POST', zone(ZONES.pro, '/firewall/rules'), [
      {
        action: 'bypass',
        products: ['waf'],
        description: 'office',
        filter: { expression: 'ip.src eq 192.0.2.10' },
      },
    ]);
    await api('POST', zone(ZONES.pro, '/pagerules'), {
      targets: [{ target: 'url', constraint: { operator: 'matches', value: 'pro.example/legacy/*' } }],
      actions: [{ id: 'disable_security' }],
      status: 'active',
    });
    browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (server) await server.stop('SIGTERM');
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  async function open(path = ''): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    pageProblems = [];
    page.on('pageerror', (error) => pageProblems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      // The API's refusals (4xx) are part of what the tests show; Chromium logs each failed fetch.
      if (message.type() === 'error' && !/^Failed to load resource: .* status of 4\d\d/.test(message.text()))
        pageProblems.push(`console: ${message.text()}`);
    });
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(base + path);
    return page;
  }

  async function signIn(page: Page, token = TOKEN): Promise<void> {
    await page.locator('#token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#zones').waitFor();
  }

  async function openZone(page: Page, zone: string, tab: string): Promise<void> {
    await page.goto(`${base}#/zones/${zone}/${tab}`);
    await page.locator('.zone-page').waitFor();
  }

  /** Replaces the rule editor's expression by typing it, as a user would. */
  async function typeExpression(page: Page, text: string): Promise<void> {
    await page.locator('#rule-expression .cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(text);
  }

  describe('the console in a browser', () => {
    it('is served at / with a strict Content-Security-Policy, beside an API that is unchanged', async () => {
      for (const path of ['', 'console.js', 'console-replay.js', 'playground', 're2.wasm']) {
        const response = await fetch(base + path);
        expect(response.status, path).toBe(200);
        expect(response.headers.get('content-security-policy'), path).toMatch(
          /^default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self';/,
        );
        expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
        expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      }
      const unauthenticated = await fetch(`${server.url}/zones`);
      expect(unauthenticated.status).toBe(400);
      expect(((await unauthenticated.json()) as { errors: { code: number }[] }).errors[0]?.code).toBe(9106);
      const unknown = await fetch(`${base}no-such-page`);
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('content-type')).toMatch(/json/);
    });

    it('signs in with a token kept in the tab’s session only, and lists the zones it sees', async () => {
      const page = await open();
      const refused = page.locator('#sign-in .api-error');
      await page.locator('#token').fill('not-a-token');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => refused.textContent()).toMatch(/\d{4}/);
      await page.screenshot({ path: join(SCREENSHOTS, 'console-sign-in.png') });
      await signIn(page);
      const zones = await page.locator('#zones .zone-link').allTextContents();
      expect(zones).toEqual(['example.com', 'pro.example', 'free.example']);
      const storage = await page.evaluate(() => ({
        local: JSON.stringify({ ...localStorage }),
        session: JSON.stringify({ ...sessionStorage }),
        cookies: document.cookie,
        url: location.href,
      }));
      expect(storage.local).not.toContain(TOKEN);
      expect(storage.cookies).toBe('');
      expect(storage.url).not.toContain(TOKEN);
      expect(storage.session).toContain(TOKEN);
      await page.screenshot({ path: join(SCREENSHOTS, 'console-zones.png') });
      await page.locator('#sign-out').click();
      await page.locator('#token').waitFor();
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
      expect(pageProblems).toEqual([]);
      await page.close();
    });

    it('shows the firewall rules in evaluation order, markup as text, and the managed deployment', async () => {
      const page = await open();
      await signIn(page);
      await openZone(page, ZONES.enterprise, 'rules');
      const rows = page.locator('#firewall-rules tbody tr');
      await expect.poll(() => rows.count()).toBe(2);
      expect(await rows.nth(0).locator('.action').textContent()).toBe('log');
      expect(await rows.nth(1).locator('td.description').textContent()).toBe(MARKUP);
      expect(await page.locator('#injected').count()).toBe(0);
      const deployment = page.locator('#managed-deployment');
      expect(await deployment.locator('.managed-name').textContent()).toBe('Cloudflare OWASP Core Ruleset');
      expect(await deployment.locator('.override-rule').textContent()).toContain('score threshold 25');
      expect(await deployment.locator('.override-category').textContent()).toContain('paranoia-level-2');
      await page.screenshot({ path: join(SCREENSHOTS, 'console-rules.png'), fullPage: true });
      expect(pageProblems).toEqual([]);
      await page.close();
    });

    it('creates a custom rule: the error shown live and by the API, then fixed and saved', async () => {
      const page = await open();
      await signIn(page);
      await openZone(page, ZONES.enterprise, 'rules');
      await page.locator('#new-custom-rule').click();
      await page.locator('#rule-description').fill('no <script> here');
      await typeExpression(page, 'http.request.uri.path eq "/login" and ip.src eq 1.2.3.4.5');
      const diagnostic = page.locator('#rule-diagnostics .diagnostic-error .diagnostic-text');
      await expect.poll(() => diagnostic.textContent()).toContain('Filter parsing error (1:49):');
      await expect
        .poll(() => page.locator('#rule-expression .cm-lintRange-error').count())
        .toBeGreaterThan(0);
      await page.locator('#rule-save').click();
      const refusal = page.locator('#rule-answer .api-error');
      await expect.poll(() => refusal.textContent()).toContain('20217');
      expect(await refusal.textContent()).toContain('Filter parsing error (1:49)');
      await page.screenshot({ path: join(SCREENSHOTS, 'console-rule-error.png'), fullPage: true });
      await typeExpression(page, 'http.request.uri.path eq "/login" and ip.src eq 1.2.3.4');
      await expect.poll(() => page.locator('#rule-diagnostics .diagnostic-ok').count()).toBe(1);
      await page.locator('#rule-save').click();
      const custom = page.locator('[data-phase="http_request_firewall_custom"] tbody tr');
      await expect.poll(() => custom.count()).toBe(1);
      expect(await custom.locator('td.description').textContent()).toBe('no <script> here');
      expect(await custom.locator('.expression').textContent()).toBe(
        'http.request.uri.path eq "/login" and ip.src eq 1.2.3.4',
      );
      // Edited: the action changes.
      await custom.locator('.edit-rule').click();
      await page.locator('#rule-action').selectOption('managed_challenge');
      await page.locator('#rule-save').click();
      await expect.poll(() => custom.locator('.action').textContent()).toBe('managed_challenge');
      await page.screenshot({ path: join(SCREENSHOTS, 'console-rule-saved.png'), fullPage: true });
      // Deleted, after a confirmation.
      await custom.locator('.edit-rule').click();
      await page.locator('#rule-delete').click();
      await expect
        .poll(() => page.locator('[data-phase="http_request_firewall_custom"] .ruleset-rules').count())
        .toBe(0);
      expect(await page.locator('[data-phase="http_request_firewall_custom"]').textContent()).toContain(
        'No rules.',
      );
      expect(pageProblems).toEqual([]);
      await page.close();
    });

    it('shows the 10202 error of a firewall rule with an invalid filter, and the API’s permissions', async () => {
      const page = await open();
      await signIn(page);
      await openZone(page, ZONES.enterprise, 'rules');
      await page.locator('#new-firewall-rule').click();
      await typeExpression(page, 'http.host eq');
      await page.locator('#rule-save').click();
      await expect.poll(() => page.locator('#rule-answer [data-code="10202"]').count()).toBe(1);
      // A read-only token sees the zone and may not write.
      await page.locator('#sign-out').click();
      await signIn(page, READ_TOKEN);
      await openZone(page, ZONES.enterprise, 'rules');
      await page.locator('#new-custom-rule').click();
      await typeExpression(page, 'http.host eq "example.com"');
      await page.locator('#rule-save').click();
      await expect.poll(() => page.locator('#rule-answer [data-code="10000"]').count()).toBe(1);
      expect(pageProblems).toEqual([]);
      await page.close();
    });

    it('simulates a request against the live zone and draws the trace', async () => {
      const page = await open();
      await signIn(page);
      await openZone(page, ZONES.enterprise, 'simulate');
      await page.locator('#req-url').fill('https://example.com/admin');
      await page.locator('#simulate').click();
      const decision = page.locator('#simulation .decision');
      await expect.poll(() => decision.textContent()).toContain('block');
      expect(await decision.textContent()).toContain(MARKUP);
      expect(await page.locator('#simulation .trace-deciding .trace-name').count()).toBe(1);
      expect(await page.locator('#simulation .trace-stage-name').allTextContents()).toContain(
        'firewall_rules',
      );
      expect(await page.locator('#injected').count()).toBe(0);
      await page.screenshot({ path: join(SCREENSHOTS, 'console-simulate.png'), fullPage: true });
      expect(pageProblems).toEqual([]);
      await page.close();
    });

    it('walks a Pro zone through its WAF migration', async () => {
      const page = await open();
      await signIn(page);
      await openZone(page, ZONES.pro, 'migration');
      await expect.poll(() => page.locator('#migration-state').textContent()).toBe('start');
      expect(await page.locator('#migration-compatible').textContent()).toContain('Compatible');
      expect(await page.locator('#previous-waf').textContent()).toContain(
        'sensitivity medium, action challenge',
      );
      expect(await page.locator('#previous-waf .waf-bypass').textContent()).toContain(
        'office: ip.src eq 192.0.2.10',
      );
      expect(await page.locator('#previous-waf .waf-page-rules').textContent()).toContain(
        'pro.example/legacy/* (active): disable_security',
      );
      const proposed = page.locator('#migration-config');
      expect(await proposed.locator('.action-skip').count()).toBe(2);
      expect(await proposed.locator('.managed-name').allTextContents()).toEqual([
        'Cloudflare Managed Ruleset',
        'Cloudflare OWASP Core Ruleset',
      ]);
      expect(await proposed.textContent()).toContain('score threshold 25');
      await page.screenshot({ path: join(SCREENSHOTS, 'console-migration.png'), fullPage: true });
      // Validation mode is Enterprise only: the API's refusal is shown.
      await page.locator('#migrate-validation').click();
      await expect.poll(() => page.locator('#migrate-answer [data-code="10631"]').count()).toBe(1);
      await page.locator('#migrate-pending').click();
      await expect.poll(() => page.locator('#migration-state').textContent()).toBe('complete');
      // The previous WAF is gone; what is deployed now is shown in its place.
      await expect.poll(() => page.locator('#migration-deployed .managed-name').count()).toBe(2);
      expect(await page.locator('#migration-compatible').textContent()).toBe('Not compatible');
      expect(await page.locator('#migration-check').textContent()).toContain('10632');
      await page.screenshot({ path: join(SCREENSHOTS, 'console-migrated.png'), fullPage: true });
      // A Free zone never had the previous WAF: said once.
      await openZone(page, ZONES.free, 'migration');
      expect(await page.locator('#migration-unavailable [data-code="10600"]').count()).toBe(1);
      expect(pageProblems).toEqual([]);
      await page.close();
    });

    it('replays a gzipped log in a worker and draws its charts', async () => {
      const lines: string[] = [];
      // Browsers (which the previous WAF lets through), with more requests for /admin in the middle.
      for (let i = 0; i < 240; i++) {
        const admin = i >= 80 && i < 160 ? i % 2 === 0 : i % 8 === 0;
        const path = admin ? '/admin' : i % 3 === 0 ? '/api/items' : '/';
        lines.push(
          JSON.stringify({
            method: 'GET',
            url: `https://example.com${path}?n=${i}`,
            headers: [
              ['User-Agent', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0'],
              ['Accept', 'text/html'],
            ],
          }),
        );
      }
      // A Logpush record, and a line that is no request.
      lines.push(
        JSON.stringify({
          ClientIP: '192.0.2.1',
          ClientRequestHost: 'example.com',
          ClientRequestURI: '/admin',
        }),
      );
      lines.push('{"method": "GET"');
      const log = join(scratch, 'requests.jsonl.gz');
      writeFileSync(log, gzipSync(`${lines.join('\n')}\n`));

      const page = await open();
      await signIn(page);
      await openZone(page, ZONES.enterprise, 'replay');
      await page.locator('#replay-file').setInputFiles(log);
      await page.locator('#replay-start').click();
      await page.locator('#chart-along svg').waitFor();
      expect(await page.locator('#replay-status').textContent()).toBe(
        '241 requests replayed (gzipped), 1 line was not a request.',
      );
      expect(
        await page.locator('#replay-progress').evaluate((bar) => (bar as HTMLProgressElement).value),
      ).toBe(1);
      expect(await page.locator('#chart-actions .chart-label').allTextContents()).toEqual(['none', 'block']);
      expect(await page.locator('#chart-actions .chart-value').allTextContents()).toEqual(['180', '61']);
      const matches = await page.locator('#chart-matches .chart-label').allTextContents();
      expect(matches).toContain(`${MARKUP.slice(0, 29)}…`);
      expect(matches).toContain('log the API');
      const decisions = await page.locator('#chart-decisions .chart-label').allTextContents();
      expect(decisions).toContain(`${MARKUP.slice(0, 29)}…`);
      expect(decisions).not.toContain('log the API');
      expect(await page.locator('#chart-along .chart-column').count()).toBeGreaterThan(10);
      expect(await page.locator('#replay-problems').textContent()).toContain('line 242');
      expect(await page.locator('#injected').count()).toBe(0);
      await page.screenshot({ path: join(SCREENSHOTS, 'console-replay.png'), fullPage: true });
      expect(pageProblems).toEqual([]);
      await page.close();
    });

    it('serves the playground at /playground under the same policy', async () => {
      const page = await open('playground');
      await page.locator('.cm-content').waitFor({ state: 'attached' });
      await expect.poll(() => page.locator('#verdict').count()).toBe(1);
      expect(pageProblems).toEqual([]);
      await page.close();
    });
  });
}
