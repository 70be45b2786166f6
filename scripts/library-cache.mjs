import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * After the bundles: runs a typical workload through dist/library.cjs in a fresh `node`, which then writes
 * V8's code cache for it (scripts/library-warm-up.cjs), and writes the library's entry point,
 * dist/index.js, which runs the script from that cache (bin/load-library.js) and exports what it exports.
 *
 * The child runs with no Node options (NODE_OPTIONS removed too): V8 rejects cached data written under
 * other flags, and a user's `node` has none. The cache holds the functions the workload ran; any other
 * function is compiled when first called, as without a cache. A failed workload fails the build.
 */
export function writeLibraryCache(outdir) {
  // CFRULES_CACHE_DIR=off in the builder's environment turns the cache off for running cfrules, not for
  // building it.
  const { NODE_OPTIONS: _, CFRULES_CACHE_DIR: __, ...env } = process.env;
  const warmUp = fileURLToPath(new URL('./library-warm-up.cjs', import.meta.url));
  const run = spawnSync(process.execPath, [warmUp, outdir], { encoding: 'utf8', env });
  if (run.status !== 0) {
    // A line of the minified script is long: each line of the report is cut.
    const report = (run.stderr || String(run.error)).split('\n').map((line) => line.slice(0, 300));
    throw new Error(`the library's warm-up failed:\n${report.join('\n')}`);
  }
  const names = JSON.parse(run.stdout);
  writeFileSync(join(outdir, 'index.js'), entryPoint(names));
}

/** dist/index.js: the library's exports, which bin/load-library.js reads from dist/library.cjs. */
function entryPoint(names) {
  return [
    "// cfrules' library: dist/library.cjs run from V8's code cache by bin/load-library.js (written by",
    '// scripts/library-cache.mjs).',
    "import { createRequire } from 'node:module';",
    "import { fileURLToPath } from 'node:url';",
    "const { loadLibrary } = createRequire(import.meta.url)('../bin/load-library.js');",
    "const { library } = loadLibrary(fileURLToPath(new URL('.', import.meta.url)));",
    `export const { ${names.join(', ')} } = library;`,
    '',
  ].join('\n');
}
