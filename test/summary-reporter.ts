import type { Reporter, TestModule } from 'vitest/node';

type RunEnd = NonNullable<Reporter['onTestRunEnd']>;

/**
 * Ends the run with a plain `tests: N passed, N failed` line that any CI log reader understands.
 * Failures are everything that makes the run fail, not only failed tests: a test file that fails to load
 * (or throws outside its tests) counts as one failure, and so does each error raised outside any file.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(...[testModules, unhandledErrors]: Parameters<RunEnd>): void {
    const { passed, failed } = countResults(testModules, unhandledErrors.length);
    for (const note of notRunNotes(testModules)) process.stdout.write(`${note}\n`);
    process.stdout.write(`tests: ${passed} passed, ${failed} failed\n`);
  }
}

declare module 'vitest' {
  interface TaskMeta {
    /**
     * Set by a test that stands in for tests this machine cannot run (the browser tests without Chromium):
     * why they did not run. The summary prints it on a line of its own, so that nobody reads the passing
     * run as covering them.
     */
    notRun?: string;
    /** Set by a test to say on what it ran when that varies by machine (which PostgreSQL): printed likewise. */
    ranOn?: string;
  }
}

/** The distinct `notRun` and `ranOn` notes of the run's tests. */
export function notRunNotes(testModules: ReadonlyArray<TestModule>): string[] {
  const notes = new Set<string>();
  for (const module of testModules)
    for (const test of module.children.allTests()) {
      const { notRun, ranOn } = test.meta();
      if (notRun) notes.add(notRun);
      if (ranOn) notes.add(ranOn);
    }
  return [...notes];
}

/** Passed tests, and failures: failed tests, files that failed on their own, errors outside any file. */
export function countResults(
  testModules: ReadonlyArray<TestModule>,
  unhandledErrors: number,
): { passed: number; failed: number } {
  let passed = 0;
  let failed = unhandledErrors;
  for (const module of testModules) {
    let failedTests = 0;
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') passed++;
      else if (state === 'failed') failedTests++;
    }
    failed += failedTests;
    // A file that did not load, or whose hooks or top level threw, has errors of its own and may have
    // no failed test at all (or no test): it still counts once.
    if (failedTests === 0 && (module.errors().length > 0 || module.state() === 'failed')) failed++;
  }
  return { passed, failed };
}
