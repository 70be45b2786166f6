import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

// esbuild options shared by every bundle of the project: scripts/build.mjs (dist/), the CLI tests' build
// (test/cli/build-once.ts) and the benchmarks (scripts/run-bench.mjs).
// External (loaded from node_modules at run time): re2-wasm loads its .wasm file relative to its own
// module, better-sqlite3 its compiled addon, and fastify and yaml are CommonJS packages with requires that
// an ESM bundle cannot keep; the last three are optional peers, required on first use (src/peers.ts). Only
// chevrotain, the slow one to load unbundled, is bundled in.
export const bundleOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: ['re2-wasm', 'better-sqlite3', 'fastify', 'yaml'],
};

/**
 * Bundles dist/ as it ships, for scripts/build.mjs and the CLI tests alike (so that the tests run what
 * ships): the entry points, split into shared chunks, so that code reached only through a dynamic
 * `import()` — the service, which only `cfrules serve` loads — is a chunk of its own, read only by the
 * command that needs it (issue 16). The bundles already in dist/ are removed first: chunk names carry a
 * content hash, so a rebuild would leave stale chunks beside the new ones. Type declarations are not
 * touched (scripts/build.mjs writes them with tsc).
 */
export async function bundleDist({ root = '.', logLevel = 'warning' } = {}) {
  const outdir = join(root, 'dist');
  mkdirSync(outdir, { recursive: true });
  for (const name of readdirSync(outdir)) {
    if (/\.js(\.map)?$/.test(name)) rmSync(join(outdir, name));
  }
  await build({
    ...bundleOptions,
    absWorkingDir: resolve(root),
    logLevel,
    entryPoints: {
      index: 'src/index.ts',
      server: 'src/server.ts',
      cli: 'src/cli/bin.ts',
      // cfrules replay's worker threads load it by its name, beside the chunk that starts them.
      'replay-worker': 'src/cli/replay/worker.ts',
    },
    outdir: 'dist',
    splitting: true,
  });
}
