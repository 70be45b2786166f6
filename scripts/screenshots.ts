/**
 * Takes the README's pictures of the playground and the console (docs/images/), from the built CLI's
 * `serve` with the example configuration (examples/service/cfrules.yaml) on an empty database in a
 * temporary directory, in Debian's Chromium. The console's zone gets a few rules through the API first,
 * so that the picture shows a simulation decided by one of them. Run it after changing the pages:
 * `npm run build && npm run screenshots`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { browserMissing, launchChromium } from '../test/web/browser.js';

const missing = browserMissing();
if (missing) {
  console.error(`screenshots: ${missing}`);
  process.exit(1);
}
const TOKEN = 'cfrules_example_token_0123456789abcdefgh';
const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
const IMAGES = 'docs/images';

/** `cfrules serve` on a free port; resolves with its base URL once it listens. */
function serve(db: string): Promise<{ base: string; process: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['bin/cfrules.js', 'serve', '--port', '0', '--db', db, '--config', 'examples/service/cfrules.yaml'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on (http:\/\/\S+)\/client\/v4/.exec(output);
      if (listening) resolve({ base: listening[1] as string, process: child });
    });
    child.on('exit', (code) => reject(new Error(`serve exited (${code}) before listening:\n${output}`)));
  });
}

async function api(base: string, method: string, path: string, body: unknown): Promise<void> {
  const response = await fetch(`${base}/client/v4${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
}

const dir = mkdtempSync(join(tmpdir(), 'cfrules-screenshots-'));
const server = await serve(join(dir, 'cfrules.db'));
const browser = await launchChromium();
try {
  mkdirSync(IMAGES, { recursive: true });
  await api(server.base, 'PUT', `/zones/${ZONE}/rulesets/phases/http_request_firewall_custom/entrypoint`, {
    rules: [
      {
        description: 'Admin area from the office only',
        action: 'block',
        expression: 'starts_with(http.request.uri.path, "/admin") and not ip.src in {192.0.2.0/24}',
      },
      {
        description: 'Scanners by user agent',
        action: 'managed_challenge',
        expression: 'lower(http.user_agent) contains "sqlmap" or lower(http.user_agent) contains "nikto"',
      },
    ],
  });

  const page = await browser.newPage({ viewport: { width: 1360, height: 820 } });
  await page.goto(`${server.base}/`);
  await page.locator('#token').fill(TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('#zones').waitFor();
  await page.goto(`${server.base}/#/zones/${ZONE}/simulate`);
  await page.locator('.zone-page').waitFor();
  await page.locator('#req-url').fill('https://example.com/admin/users');
  await page.getByRole('button', { name: 'Simulate' }).last().click();
  await page.locator('.trace-badge', { hasText: 'decided' }).waitFor();
  await page.screenshot({ path: join(IMAGES, 'console.png') });

  const expression = 'http.request.uri.path contains "/admin" and not ip.src in {192.0.2.0/24}';
  await page.goto(`${server.base}/playground#${new URLSearchParams({ expr: expression })}`);
  await page.locator('#req-url').fill('https://example.com/admin/users');
  await page.locator('#verdict').filter({ hasText: /^true/ }).waitFor();
  await page.screenshot({ path: join(IMAGES, 'playground.png') });
  console.log(`wrote ${IMAGES}/console.png and ${IMAGES}/playground.png`);
} finally {
  await browser.close();
  server.process.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
