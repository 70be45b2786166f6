// Runs a benchmark from bench/ after bundling it with esbuild, exactly as the library is shipped
// (running TypeScript through a loader adds instrumentation that distorts timings).
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import { bundleOptions } from './bundle-options.mjs';

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node scripts/run-bench.mjs bench/NAME.ts [args...]');
  process.exit(2);
}
// Inside the project, so that external packages (re2-wasm) resolve from node_modules.
const outfile = 'node_modules/.cache/cfrules-bench/bench.mjs';
await build({ ...bundleOptions, sourcemap: false, entryPoints: [entry], outfile, logLevel: 'warning' });
const result = spawnSync(process.execPath, ['--expose-gc', outfile, ...args], { stdio: 'inherit' });
process.exit(result.status ?? 1);
