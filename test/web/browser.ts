import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

// The browser of the browser tests: Debian's Chromium, never one downloaded by Playwright. Where it is
// missing, the tests say so (the summary prints the reason on its own line: test/summary-reporter.ts),
// except in CI, where a missing browser is a failure: CI installs it (.ci/run).

export const CHROMIUM = '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when they can. */
export function browserMissing(): string | undefined {
  return existsSync(CHROMIUM)
    ? undefined
    : `browser tests: not run: no Chromium at ${CHROMIUM} (install it with: apt-get install -y chromium)`;
}

export const inCI = (): boolean => process.env.CI === 'true';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
