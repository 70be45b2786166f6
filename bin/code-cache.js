// V8's code cache for the CLI (issue 16) and the library (issue 22): where the CLI's lives, what its files
// are called, reading and writing them, and compiling and running the scripts they are for. Starting from
// cached code rather than compiling dist/cli.cjs is what brings a short command such as `cfrules validate`
// under 1.6× a bare `node`. Nothing here may change what a command prints or its exit status: every failure
// to read or write means "no cache", silently. CommonJS, as bin/cfrules.js explains.
'use strict';

const {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} = require('node:fs');
const { createRequire } = require('node:module');
const { homedir } = require('node:os');
const { dirname, join, posix, win32 } = require('node:path');
const { pathToFileURL } = require('node:url');
const { Script } = require('node:vm');

/** The value of CFRULES_CACHE_DIR that turns the cache off. */
const OFF = 'off';

/**
 * The directory of the cache, or null when there is none: turned off (CFRULES_CACHE_DIR=off), or no
 * user directory to put it in. CFRULES_CACHE_DIR wins; otherwise the platform's per-user cache directory.
 * A relative XDG_CACHE_HOME, LOCALAPPDATA or home directory is ignored (the XDG specification says so,
 * and a cache that moved with the working directory would litter projects); CFRULES_CACHE_DIR is taken as
 * it is.
 */
function cacheDirectory(env = process.env, platform = process.platform, home = homeDirectory) {
  const chosen = env.CFRULES_CACHE_DIR;
  if (chosen) return chosen === OFF ? null : chosen;
  // The platform's own paths, so that the tests can ask about Windows on Linux.
  const path = platform === 'win32' ? win32 : posix;
  const absolute = (dir) => Boolean(dir) && path.isAbsolute(dir);
  if (platform === 'win32') {
    return absolute(env.LOCALAPPDATA) ? path.join(env.LOCALAPPDATA, 'cfrules', 'Cache') : null;
  }
  if (platform !== 'darwin' && absolute(env.XDG_CACHE_HOME)) return path.join(env.XDG_CACHE_HOME, 'cfrules');
  const user = home();
  if (!absolute(user)) return null;
  return platform === 'darwin'
    ? path.join(user, 'Library', 'Caches', 'cfrules')
    : path.join(user, '.cache', 'cfrules');
}

/** os.homedir(), or undefined where Node cannot tell (it throws when there is no passwd entry). */
function homeDirectory() {
  try {
    return homedir();
  } catch {
    return undefined;
  }
}

/**
 * The start of the names of this build's cache files: V8 takes cached data only from the same V8 and
 * flags, and checks the script only by its length, so the name carries the build (dist/cli.cjs's first
 * line: version and hash of the text), the Node version and the architecture.
 */
function buildPrefix(build) {
  return `cli-${build.version}-${build.hash}-node-${process.version}-${process.arch}-`;
}

/**
 * The cache file for a command: one per command, since V8 caches the functions a run has compiled, and a
 * cache left by `cfrules --version` holds little of what `validate` runs. The first argument names the
 * command when it is a word; anything else (options, nothing) shares one file.
 */
function cacheFile(dir, build, firstArgument) {
  const command = firstArgument && /^[a-z]{1,20}$/.test(firstArgument) ? firstArgument : 'cli';
  return join(dir, `${buildPrefix(build)}${command}.cache`);
}

// A cache file is a header of 8 bytes, the CRC-32 of the data and its length, then V8's data. V8 checks
// its data's header, but not its contents (the checksum is checked in debug builds only): a damaged file
// would crash the process. The check costs about a millisecond, mostly loading zlib.
const HEADER = 8;

/** The cached data in a file, or undefined when it is missing, unreadable or damaged. */
function readCache(file) {
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  if (bytes.length <= HEADER || bytes.readUInt32LE(4) !== bytes.length - HEADER) return undefined;
  // The data starts 8-byte aligned, as V8 wants it (it would copy it otherwise).
  const data = bytes.subarray(HEADER);
  // zlib only now: a run without a cache file does not load it.
  const { crc32 } = process.getBuiltinModule('node:zlib');
  return crc32(data) === bytes.readUInt32LE(0) ? data : undefined;
}

/** How long another build's cache files are kept: a day, in case that build is still in use. */
const KEEP_OTHER_BUILDS_MS = 24 * 60 * 60 * 1000;

/**
 * Writes the cached data, returning the error that stopped it (or undefined). Through a file of its own
 * renamed into place, so that a process starting meanwhile reads the old file or the new one, never half of
 * one.
 */
function writeCacheFile(file, data) {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    const header = Buffer.alloc(HEADER);
    const { crc32 } = process.getBuiltinModule('node:zlib');
    header.writeUInt32LE(crc32(data), 0);
    header.writeUInt32LE(data.length, 4);
    writeFileSync(temporary, Buffer.concat([header, data]));
    renameSync(temporary, file);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {}
    return error;
  }
  return undefined;
}

/**
 * A CLI command's cache: written as writeCacheFile writes, then what other builds left in the directory a
 * day ago or more is removed (a rebuild, or an upgrade of cfrules or of Node, makes new names): only when
 * writing, which is rare, and never a file another build may still be using today.
 */
function writeCache(file, build, data) {
  const error = writeCacheFile(file, data);
  if (error === undefined) removeOldFiles(dirname(file), buildPrefix(build));
  return error;
}

function removeOldFiles(dir, ownPrefix) {
  try {
    const before = Date.now() - KEEP_OTHER_BUILDS_MS;
    for (const name of readdirSync(dir)) {
      const own = name.startsWith(ownPrefix) && name.endsWith('.cache');
      if (own || !name.startsWith('cli-')) continue;
      const path = join(dir, name);
      if (statSync(path).mtimeMs < before) unlinkSync(path);
    }
  } catch {}
}

/**
 * Turns on the V8 flags that cfrules turns on itself when it first compiles a `matches` pattern
 * (src/regex/v8/linear.ts), before V8 reads or writes cached data, the CLI's and the library's alike. V8
 * stamps its data with a hash of the flags at the time it is written and rejects it under other flags:
 * data written at the exit of a command that ran a regex would be rejected by every next run, and written
 * again, and so on. They change nothing for a regex that does not backtrack excessively (see linear.ts);
 * test/cli/code-cache.test.ts fails if the CLI turns on a flag this list lacks.
 */
function setRegExpFlags() {
  const v8 = process.getBuiltinModule('node:v8');
  v8.setFlagsFromString('--enable-experimental-regexp-engine');
  v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
}

/**
 * Compiles a script that scripts/bundle-options.mjs built (cacheableScript) with V8's cached data, if any:
 * the script, and what became of the data (`used`, `missing` or `rejected`).
 */
function compileScript(source, path, cachedData) {
  const script = new Script(source, { filename: path, cachedData });
  const state = cachedData === undefined ? 'missing' : script.cachedDataRejected ? 'rejected' : 'used';
  return { script, state };
}

/**
 * Runs such a script: a function of what Node gives a CommonJS module, plus the script's own URL for its
 * `import.meta.url`. Returns its exports.
 */
function runCompiledScript(script, path) {
  const module = { exports: {} };
  script.runInThisContext()(
    module.exports,
    createRequire(path),
    module,
    path,
    dirname(path),
    pathToFileURL(path).href,
  );
  return module.exports;
}

module.exports = {
  OFF,
  cacheDirectory,
  buildPrefix,
  cacheFile,
  readCache,
  writeCache,
  writeCacheFile,
  setRegExpFlags,
  compileScript,
  runCompiledScript,
};
