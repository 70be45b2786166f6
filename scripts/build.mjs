// Builds dist/: the library and the CLI as ESM bundles (chevrotain bundled in, so the CLI does not pay
// for loading hundreds of lodash-es modules at start-up), the CLI once more as one CommonJS script for V8's
// code cache (dist/cli.cjs, see scripts/bundle-options.mjs), the browser playground (dist/web/, see
// scripts/web-bundle.mjs), plus type declarations for the library. The
// new tree is built aside and swapped in (scripts/replace-dist.mjs): a `cfrules` command run meanwhile
// uses the old one.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { bundleDist } from './bundle-options.mjs';
import { replaceDist } from './replace-dist.mjs';
import { bundleWeb } from './web-bundle.mjs';

await replaceDist('.', async (outdir) => {
  await bundleDist({ outdir });
  await bundleWeb({ outdir: join(outdir, 'web') });
  execFileSync(
    process.execPath,
    ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--outDir', join(outdir, 'types')],
    { stdio: 'inherit' },
  );
});
