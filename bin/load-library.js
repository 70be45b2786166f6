// Runs the library for its entry point, dist/index.js, which the build writes to call this (issue 22: both
// managed rulesets ready in ≤ 100 ms). The library is one CommonJS script, dist/library.cjs, compiled with
// V8's code cache that the build wrote beside it after running a typical workload through it
// (scripts/library-cache.mjs): V8 then neither compiles the script nor, later, the functions that workload
// ran, which it would otherwise compile when each is first called. Node 20 has no code cache for ES
// modules. Without the cache (turned off, or rejected by another Node or other V8 flags), the same script is
// compiled as usual: slower to start, the same library. CommonJS, as bin/cfrules.js explains.
'use strict';

const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { OFF, compileScript, readCache, runCompiledScript, setRegExpFlags } = require('./code-cache.js');

/** The script's file in dist/. */
const SCRIPT = 'library.cjs';

/**
 * The script's path and text, and its cache file: named by the hash in the script's first line
 * (`//cfrules-library VERSION HASH`, scripts/bundle-options.mjs), since V8 checks cached data only against
 * the length of the text. No cache file when CFRULES_CACHE_DIR=off, which turns every cache of cfrules off.
 */
function libraryScript(dist) {
  const path = join(dist, SCRIPT);
  const source = readFileSync(path, 'utf8');
  const header = /^\/\/cfrules-library \S+ ([0-9a-f]+)\n/.exec(source);
  const off = process.env.CFRULES_CACHE_DIR === OFF;
  const cacheFile = header && !off ? join(dist, `library-${header[1]}.cache`) : undefined;
  return { path, source, cacheFile };
}

/**
 * Compiles and runs dist/library.cjs; its exports, the script (whose cache the build writes) and the
 * cache file. CFRULES_CACHE_DEBUG=1 says on standard error whether the cache was used.
 */
function loadLibrary(dist) {
  const { path, source, cacheFile } = libraryScript(dist);
  // Before V8 reads cached data, which it checks against the flags it was written under.
  if (cacheFile) setRegExpFlags();
  const { script, state } = compileScript(source, path, cacheFile ? readCache(cacheFile) : undefined);
  if (process.env.CFRULES_CACHE_DEBUG && cacheFile)
    process.stderr.write(`cfrules: library code cache ${state}: ${cacheFile}\n`);
  return { library: runCompiledScript(script, path), script, cacheFile };
}

module.exports = { loadLibrary };
