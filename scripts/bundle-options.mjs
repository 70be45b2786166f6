// esbuild options shared by every bundle of the project: scripts/build.mjs (dist/), the CLI tests' build
// (test/cli/build-once.ts) and the benchmarks (scripts/run-bench.mjs).
// External (loaded from node_modules at run time): re2-wasm loads its .wasm file relative to its own
// module, better-sqlite3 its compiled addon, and fastify and yaml are CommonJS packages with requires that
// an ESM bundle cannot keep. Only chevrotain, the slow one to load unbundled, is bundled in.
export const bundleOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: ['re2-wasm', 'better-sqlite3', 'fastify', 'yaml'],
};
