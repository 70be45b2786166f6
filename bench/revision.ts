/**
 * The library as it was at another git revision (`--against REV`), to measure a change against the code
 * before it in the same process: alternating windows of the two then see the same machine, which figures
 * from another day or another process on this shared VM do not. scripts/run-bench.mjs bundles that
 * revision as it bundles the benchmark and passes the bundle's path.
 */
import { pathToFileURL } from 'node:url';

/** What the benchmarks compare: the public entry points they call. */
export interface Library {
  parse: typeof import('../src/index.js').parse;
  validate: typeof import('../src/index.js').validate;
}

/** The revision named by `--against`, with its library; undefined without the option. */
export async function againstRevision(): Promise<{ revision: string; library: Library } | undefined> {
  const option = (name: string) => {
    const at = process.argv.indexOf(name);
    return at === -1 ? undefined : process.argv[at + 1];
  };
  const revision = option('--against');
  const bundle = option('--against-bundle');
  if (revision === undefined) return undefined;
  if (bundle === undefined)
    throw new Error('--against works through scripts/run-bench.mjs (npm run bench:…)');
  return { revision, library: (await import(pathToFileURL(bundle).href)) as Library };
}
