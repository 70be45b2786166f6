#!/usr/bin/env node
// The `cfrules` command. `npm ci` / `npm run build` (the `prepare` script) bundles the CLI into dist/ twice:
// dist/cli.cjs, one script, which runs here from V8's code cache (./code-cache.js), and dist/cli.js, ES
// modules split by command, imported when the cache is turned off or has no place to live. Cached code
// starts fastest; without it, the split modules start faster than the one script, which V8 must then
// pre-parse whole (issue 16; bench/RESULTS.md, section Start-up).
//
// bin/ is CommonJS (bin/package.json), unlike the rest of the package: Node starts a CommonJS entry point
// without setting up its ES module loader: some 18 million instructions, a sixth of what a cached
// `cfrules validate` adds to Node's own start-up. The loader is still set up when needed, for dist/cli.js.
'use strict';

const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');
const {
  cacheDirectory,
  cacheFile,
  compileScript,
  readCache,
  runCompiledScript,
  setRegExpFlags,
  writeCache,
} = require('./code-cache.js');

/** CFRULES_CACHE_DEBUG=1 says on standard error whether the cache was used and written (the tests read it). */
const debug = process.env.CFRULES_CACHE_DEBUG
  ? (text) => process.stderr.write(`cfrules: code cache ${text}\n`)
  : () => {};

const dist = join(__dirname, '..', 'dist');
const dir = cacheDirectory();
if (dir === null) runModules();
else runScript(dir);

function runModules() {
  const cli = join(dist, 'cli.js');
  import(pathToFileURL(cli).href).catch((error) => {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    // Node names what it could not find: the bundle itself, or a package the bundle imports.
    const missing = missingModule(error);
    if (missing === undefined || missing === cli) distMissing();
    cannotLoad(missing);
  });
}

/**
 * Runs dist/cli.cjs with the cached code of an earlier run of the same command, if there is one. If there
 * is none, or V8 rejects it, the cache is written when the process exits: by then V8 has also compiled the
 * functions the command ran, which it compiles only when first called, and those are most of the saving.
 */
function runScript(dir) {
  const path = join(dist, 'cli.cjs');
  let source;
  try {
    source = readFileSync(path, 'utf8');
  } catch (error) {
    if (error?.code === 'ENOENT') distMissing();
    throw error;
  }
  // The build's first line names it (scripts/bundle-options.mjs); a script without it is run, not cached.
  const header = /^\/\/cfrules-cli (\S+) ([0-9a-f]+)\n/.exec(source);
  const build = header && { version: header[1], hash: header[2] };
  const file = build && cacheFile(dir, build, process.argv[2]);
  if (file) setRegExpFlags();
  const { script, state } = compileScript(source, path, file ? readCache(file) : undefined);
  if (file) {
    debug(`${state}: ${file}`);
    if (state !== 'used') process.once('exit', (code) => saveCache(script, file, build, code));
  }
  try {
    runCompiledScript(script, path);
  } catch (error) {
    if (error?.code !== 'MODULE_NOT_FOUND') throw error;
    cannotLoad(missingModule(error));
  }
}

/**
 * Writes the cache, unless the run was a usage error (status 2: an unknown command would leave a file
 * named after it) and ran little of the CLI. Never fails: the command's output and status are final.
 */
function saveCache(script, file, build, code) {
  if (code === 2) return;
  let error;
  try {
    error = writeCache(file, build, script.createCachedData());
  } catch (thrown) {
    error = thrown;
  }
  debug(error ? `not written (${error.code ?? error.message}): ${file}` : `written: ${file}`);
}

function missingModule(error) {
  return /Cannot find (?:module|package) '([^']+)'/.exec(String(error.message))?.[1];
}

function distMissing() {
  process.stderr.write('cfrules: dist/ is missing; run `npm ci` or `npm run build` first\n');
  process.exit(2);
}

function cannotLoad(missing) {
  process.stderr.write(
    `cfrules: cannot load the module '${missing}', which cfrules needs; reinstall the dependencies ` +
      '(`npm ci`, or `npm install cfrules` where it is used)\n',
  );
  process.exit(2);
}
