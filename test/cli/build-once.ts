// Vitest global setup: bundles dist/ before any test runs, so that the tests which run the built binary
// (bin/cfrules.js) never run a stale bundle. The esbuild step of scripts/build.mjs, the same function, so
// that the tests run the chunks that ship; the playground too (scripts/web-bundle.mjs, a second), so that
// dist/web/ of an earlier `npm run build` is still there, and fresh, after the tests; not the type
// declarations, which take seconds: those of the current dist/ are kept. Built aside and swapped in as scripts/build.mjs does (scripts/replace-dist.mjs),
// so that a `cfrules` command run meanwhile, outside the tests, never finds dist/ half written.
//
// A failed build must not stop the other suites: the error is handed to the tests (inject('cliBuildError')),
// and the helper that runs the binary fails every CLI test with it instead of running the stale bundle.
//
// Every command the tests run keeps its code cache (bin/code-cache.js) in a directory of this run, removed
// at the end, never in the user's ~/.cache: CFRULES_CACHE_DIR, set here, is inherited by the test workers
// and the commands they start. One directory for all, so that the tests' concurrent commands also share it.
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { bundleDist } from '../../scripts/bundle-options.mjs';
import { replaceDist } from '../../scripts/replace-dist.mjs';
import { bundleWeb } from '../../scripts/web-bundle.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Why the CLI could not be bundled, or null when dist/ is fresh. */
    cliBuildError: string | null;
  }
}

export default async function bundleCli(project: TestProject): Promise<() => void> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'cfrules-test-cache-'));
  process.env.CFRULES_CACHE_DIR = cacheDir;
  const root = fileURLToPath(new URL('../..', import.meta.url));
  try {
    await replaceDist(root, async (outdir) => {
      await bundleDist({ root, outdir, logLevel: 'silent' });
      await bundleWeb({ root, outdir: join(outdir, 'web'), logLevel: 'silent' });
      const types = join(root, 'dist', 'types');
      if (existsSync(types)) cpSync(types, join(outdir, 'types'), { recursive: true });
    });
    project.provide('cliBuildError', null);
  } catch (error) {
    project.provide('cliBuildError', (error as Error).message);
  }
  return () => rmSync(cacheDir, { recursive: true, force: true });
}
