import type { Reporter, TestModule } from 'vitest/node';

/** Ends the run with a plain `tests: N passed, N failed` line that any CI log reader understands. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
      }
    }
    process.stdout.write(`tests: ${passed} passed, ${failed} failed\n`);
  }
}
