#!/usr/bin/env node
// The CLI is bundled into dist/ by `npm ci` / `npm run build` (the `prepare` script).
import { fileURLToPath } from 'node:url';

const cli = new URL('../dist/cli.js', import.meta.url);
import(cli.href).catch((error) => {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  // Node names what it could not find: the bundle itself, or a package the bundle imports.
  const missing = /Cannot find (?:module|package) '([^']+)'/.exec(String(error.message))?.[1];
  if (missing === undefined || missing === fileURLToPath(cli)) {
    process.stderr.write('cfrules: dist/ is missing; run `npm ci` or `npm run build` first\n');
  } else {
    process.stderr.write(
      `cfrules: cannot load the module '${missing}', which cfrules needs; reinstall the dependencies ` +
        '(`npm ci`, or `npm install cfrules` where it is used)\n',
    );
  }
  process.exit(2);
});
