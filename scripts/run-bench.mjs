// Runs a benchmark from bench/ after bundling it with esbuild, exactly as the library is shipped
// (running TypeScript through a loader adds instrumentation that distorts timings).
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node scripts/run-bench.mjs bench/NAME.ts [args...]');
  process.exit(2);
}
const outfile = join(mkdtempSync(join(tmpdir(), 'cfrules-bench-')), 'bench.mjs');
await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
});
const result = spawnSync(process.execPath, [outfile, ...args], { stdio: 'inherit' });
process.exit(result.status ?? 1);
