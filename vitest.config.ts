import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The CLI tests run the built binary: bundle it once, before any test.
    globalSetup: ['./test/cli/build-once.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
    // Property and corpus tests run thousands of cases: 3–4 s on a quiet 2-core machine, over Vitest's 5 s
    // default when other work shares it. A timeout only catches a hang here (speed is measured in bench/).
    testTimeout: 30_000,
  },
});
