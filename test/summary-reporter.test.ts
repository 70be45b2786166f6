import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** Runs the fixture file(s) matching `pattern` in a child Vitest with the summary reporter. */
function runFixtures(pattern: string): {
  status: number | null;
  summary: string | undefined;
  lines: string[];
} {
  const run = spawnSync(
    process.execPath,
    ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/fixtures/reporter/vitest.config.ts'],
    {
      encoding: 'utf8',
      env: { ...process.env, CFRULES_REPORTER_FIXTURE: pattern, CI: 'true' },
      timeout: 60_000,
    },
  );
  const summary = run.stdout.split('\n').find((line) => /^tests: \d+ passed, \d+ failed$/.test(line));
  return { status: run.status, summary, lines: run.stdout.split('\n') };
}

describe('the closing summary line', () => {
  it('counts a file that fails to load as a failure, and the run still fails', () => {
    const { status, summary } = runFixtures('{passes,fails-to-load}.fixture.ts');
    expect(summary).toBe('tests: 2 passed, 1 failed');
    expect(status).not.toBe(0);
  });

  it('counts failed tests', () => {
    const { status, summary } = runFixtures('{passes,fails-a-test}.fixture.ts');
    expect(summary).toBe('tests: 3 passed, 1 failed');
    expect(status).not.toBe(0);
  });

  it('says on a line of its own which tests could not run here', () => {
    const { status, summary, lines } = runFixtures('{passes,not-run}.fixture.ts');
    expect(lines).toContain('browser tests: not run: no Chromium here (a fixture)');
    expect(summary).toBe('tests: 3 passed, 0 failed');
    expect(status).toBe(0);
  });

  it('says 0 failed when everything passes', () => {
    const { status, summary } = runFixtures('passes.fixture.ts');
    expect(summary).toBe('tests: 2 passed, 0 failed');
    expect(status).toBe(0);
  });
});
