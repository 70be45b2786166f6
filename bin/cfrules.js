#!/usr/bin/env node
// The CLI is bundled into dist/ by `npm ci` / `npm run build` (the `prepare` script).
import('../dist/cli.js').catch((error) => {
  if (error?.code === 'ERR_MODULE_NOT_FOUND') {
    process.stderr.write('cfrules: dist/ is missing; run `npm ci` or `npm run build` first\n');
    process.exit(2);
  }
  throw error;
});
