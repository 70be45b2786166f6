// Runs a benchmark from bench/ after bundling it with esbuild, exactly as the library is shipped
// (running TypeScript through a loader adds instrumentation that distorts timings).
// `--against REV` also bundles the library as it is and as it was at git revision REV, for benchmarks that
// compare the two (bench/revision.ts).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { bundleOptions } from './bundle-options.mjs';

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node scripts/run-bench.mjs bench/NAME.ts [--against REV] [args...]');
  process.exit(2);
}
// Inside the project, so that external packages (re2-wasm) resolve from node_modules.
const cache = 'node_modules/.cache/cfrules-bench';
const outfile = `${cache}/bench.mjs`;
await build({ ...bundleOptions, sourcemap: false, entryPoints: [entry], outfile, logLevel: 'warning' });

const against = args.indexOf('--against');
if (against !== -1) {
  const revision = args[against + 1];
  if (!revision) {
    console.error('--against needs a git revision');
    process.exit(2);
  }
  // The current code is bundled the same way, so that the two differ only in their source.
  const now = `${cache}/now.mjs`;
  await build({
    ...bundleOptions,
    sourcemap: false,
    entryPoints: ['src/index.ts'],
    outfile: now,
    logLevel: 'warning',
  });
  args.push('--against-bundle', resolve(await bundleRevision(revision)), '--now-bundle', resolve(now));
}
const result = spawnSync(process.execPath, ['--expose-gc', outfile, ...args], { stdio: 'inherit' });
process.exit(result.status ?? 1);

/** The library's `src/` at `revision` (git archive: the working tree is untouched), bundled alike. */
async function bundleRevision(revision) {
  const tree = mkdtempSync(join(tmpdir(), 'cfrules-revision-'));
  try {
    const archive = execFileSync('git', ['archive', '--format=tar', revision, 'src'], {
      maxBuffer: 512 * 1024 * 1024,
    });
    execFileSync('tar', ['-x', '-C', tree], { input: archive });
    const bundle = `${cache}/before.mjs`;
    await build({
      ...bundleOptions,
      sourcemap: false,
      entryPoints: [join(tree, 'src/index.ts')],
      outfile: bundle,
      nodePaths: [resolve('node_modules')],
      logLevel: 'warning',
    });
    return bundle;
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}
