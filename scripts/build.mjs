// Builds dist/: the library and the CLI as ESM bundles (chevrotain bundled in, so the CLI does not pay
// for loading hundreds of lodash-es modules at start-up), the CLI once more as one CommonJS script for V8's
// code cache (dist/cli.cjs, see scripts/bundle-options.mjs), plus type declarations for the library.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { bundleDist } from './bundle-options.mjs';

rmSync('dist', { recursive: true, force: true });
await bundleDist();
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
  stdio: 'inherit',
});
