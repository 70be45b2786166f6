// esbuild options shared by every bundle of the project: scripts/build.mjs (dist/), the CLI tests' build
// (test/cli/build-once.ts) and the benchmarks (scripts/run-bench.mjs).
// re2-wasm stays external: it loads its .wasm file relative to its own module, which bundling would break.
export const bundleOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: ['re2-wasm'],
};
