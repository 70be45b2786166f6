import { defineConfig } from 'vitest/config';

// Property and corpus tests run thousands of cases: 3–4 s on a quiet 2-core machine, over Vitest's 5 s
// default when other work shares it. A timeout only catches a hang here (speed is measured in bench/).
const testTimeout = 30_000;

export default defineConfig({
  test: {
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      {
        test: {
          name: 'all',
          include: ['test/**/*.test.ts'],
          // The CLI tests run the built binary: bundle it once, before any test.
          globalSetup: ['./test/cli/build-once.ts'],
          testTimeout,
        },
      },
      {
        // The API and SDK suites once more, on the PostgreSQL store: a server when CFRULES_TEST_POSTGRES
        // names one (.ci/run does when the machine has one), else PGlite (test/support/postgres.ts).
        test: {
          name: 'postgres',
          include: ['test/api/**/*.test.ts'],
          env: { CFRULES_TEST_STORE: 'postgres' },
          testTimeout,
        },
      },
    ],
  },
});
