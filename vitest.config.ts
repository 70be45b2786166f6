import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The CLI tests run the built binary: bundle it once, before any test.
    globalSetup: ['./test/cli/build-once.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
