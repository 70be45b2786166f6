// Vitest global setup: bundles the CLI into dist/cli.js before any test runs, so that the tests which run
// the built binary (bin/cfrules.js) never run a stale bundle. Only the esbuild step of scripts/build.mjs:
// the binary needs nothing else, and type declarations take seconds.
//
// A failed build must not stop the other suites: the error is handed to the tests (inject('cliBuildError')),
// and the helper that runs the binary fails every CLI test with it instead of running the stale bundle.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { bundleOptions } from '../../scripts/bundle-options.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Why the CLI could not be bundled, or null when dist/cli.js is fresh. */
    cliBuildError: string | null;
  }
}

export default async function bundleCli(project: TestProject): Promise<void> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  try {
    await build({
      absWorkingDir: root,
      entryPoints: { cli: 'src/cli/bin.ts' },
      outdir: 'dist',
      ...bundleOptions,
      logLevel: 'silent',
    });
    project.provide('cliBuildError', null);
  } catch (error) {
    project.provide('cliBuildError', (error as Error).message);
  }
}
