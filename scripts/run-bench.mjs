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

/** The library's modules (src/) as empty modules, for the measuring processes' bundle. */
const withoutLibrary = {
  name: 'without-library',
  setup(build) {
    const src = `${resolve('src')}/`;
    build.onResolve({ filter: /\/src\// }, ({ path, resolveDir }) =>
      resolve(resolveDir, path).startsWith(src) ? { path, namespace: 'without-library' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'without-library' }, () => ({ contents: 'export {};' }));
  },
};

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
  // The processes that measure each version run the benchmark bundled without the library (its modules
  // stubbed; the benchmarks load them only after measureIfChild): with the library's code present in the
  // measuring script, even unrun, the zone's figure came out some 20% slower and unsteady for the same
  // bundle (bench/RESULTS.md, Zone program).
  const child = `${cache}/child.mjs`;
  await build({
    ...bundleOptions,
    sourcemap: false,
    entryPoints: [entry],
    outfile: child,
    logLevel: 'warning',
    plugins: [withoutLibrary, ...bundleOptions.plugins],
  });
  args.push('--against-bundle', resolve(await bundleRevision(revision)), '--now-bundle', resolve(now));
  args.push('--child-bundle', resolve(child));
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
