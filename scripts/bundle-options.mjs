import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build } from 'esbuild';
import { writeLibraryCache } from './library-cache.mjs';

/**
 * JSON files as `JSON.parse('…')` instead of esbuild's object literal: V8 reads JSON text faster than the
 * same data written as code, and the field catalogue (src/scheme/fields.json, 45 kB) is read on every start
 * of a command that checks expressions (issue 16). The value is the same object.
 */
const jsonAsParse = {
  name: 'json-as-parse',
  setup(build) {
    build.onLoad({ filter: /\.json$/ }, ({ path }) => {
      const text = JSON.stringify(JSON.parse(readFileSync(path, 'utf8')));
      return { contents: `export default JSON.parse(${JSON.stringify(text)});`, loader: 'js' };
    });
  },
};

/** JSON files at least this long are written beside a Node bundle rather than into it (jsonBeside). */
const JSON_BESIDE_BYTES = 64 * 1024;

/**
 * Large JSON files (the managed rulesets' catalogue, conditions and regex plans: 2 MB) as files in `data/`
 * beside a Node bundle, which reads and parses them when the module is evaluated, rather than as string
 * literals inside a chunk: V8 reads the whole text of every module it loads, and the chunk holding them
 * took some 18 ms to compile, most of it the literals (issue 22: both rulesets ready in ≤ 100 ms). The
 * value is the same object, read at the same moment. A file's name is its path under the project, so
 * that two `index.json` cannot meet. Node bundles only: the browser's keep their JSON inline.
 */
function jsonBeside(root, outdir) {
  return {
    name: 'json-beside',
    setup(build) {
      build.onLoad({ filter: /\.json$/ }, ({ path }) => {
        // Written in ASCII (characters past it escaped, `\u2014`: the same JSON value), so that the module
        // reads it as Latin-1, which Node decodes in about half the time of UTF-8.
        const text = JSON.stringify(JSON.parse(readFileSync(path, 'utf8'))).replace(
          /[\u0080-\uffff]/g,
          (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
        );
        if (text.length < JSON_BESIDE_BYTES) return undefined;
        const name = relative(resolve(root), path).replaceAll(/[\\/]/g, '-');
        mkdirSync(join(outdir, 'data'), { recursive: true });
        writeFileSync(join(outdir, 'data', name), text);
        return {
          contents: [
            "import { readFileSync } from 'node:fs';",
            `export default JSON.parse(readFileSync(new URL(${JSON.stringify(`./data/${name}`)}, import.meta.url), 'latin1'));`,
          ].join('\n'),
          loader: 'js',
        };
      });
    },
  };
}

/**
 * Chevrotain's toFastProperties as a no-op. Chevrotain calls it on a new parser before recording the grammar;
 * it makes the parser a prototype object in V8, and the recording then adds some 90 properties to it and
 * deletes them again, each of which V8 pays for by copying the prototype's layout: 3.5 of the 4.7 ms a
 * parser took to build, warm (issue 16). ExpressionParser gets the same fast layout once the recording is
 * over (src/lang/parser.ts), which keeps parsing as fast. The tests run Chevrotain as it is.
 */
const chevrotainFastPropertiesLater = {
  name: 'chevrotain-fast-properties-later',
  setup(build) {
    build.onLoad(
      { filter: /[\\/]@chevrotain[\\/]utils[\\/]lib[\\/]src[\\/]to-fast-properties\.js$/ },
      () => ({
        contents: 'export function toFastProperties(object) { return object; }',
        loader: 'js',
      }),
    );
  },
};

// esbuild options shared by every bundle of the project: scripts/build.mjs (dist/), the CLI tests' build
// (test/cli/build-once.ts) and the benchmarks (scripts/run-bench.mjs).
// External (loaded from node_modules at run time): re2-wasm and web-tree-sitter load their .wasm files
// relative to their own modules, better-sqlite3 its compiled addon, and fastify and yaml are CommonJS packages
// with requires that an ESM bundle cannot keep; those three are optional peers, required on first use
// (src/peers.ts); vscode-languageserver (CommonJS too) and its text documents are required by `cfrules lsp`
// when it starts (src/lsp/protocol.ts). Only
// chevrotain, the slow one to load unbundled, is bundled in.
// Minified, because Node parses the whole text of every file it loads, and a short command such as
// `cfrules validate` is mostly loading (issue 16): the bundles are about half as long, and `validate` runs
// some 20 million fewer instructions (of about 230 million above `node -e 0`). The source maps
// (`node --enable-source-maps`) give stack traces their names back; no code depends on a function's or a
// class's name (Chevrotain's grammar validation names the parser's class, but only the tests run it).
export const bundleOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // CFRULES_BUILD_MINIFY=0 keeps names readable, for CPU profiles of the built CLI.
  minify: process.env.CFRULES_BUILD_MINIFY !== '0',
  sourcemap: true,
  external: [
    're2-wasm',
    'web-tree-sitter',
    'better-sqlite3',
    'pg',
    '@electric-sql/pglite',
    'fastify',
    'yaml',
    'vscode-languageserver',
    'vscode-languageserver-textdocument',
  ],
  plugins: [jsonAsParse, chevrotainFastPropertiesLater],
};

/**
 * Bundles dist/ as it ships, for scripts/build.mjs and the CLI tests alike (so that the tests run what
 * ships): the entry points, split into shared chunks, so that code reached only through a dynamic
 * `import()` — the service, which only `cfrules serve` loads — is a chunk of its own, read only by the
 * command that needs it (issue 16); the CLI once more as one script for V8's code cache (cliScript); and
 * the library as one script too, which dist/index.js runs from the code cache that writeLibraryCache makes
 * (libraryScript; the library is no entry point of the split bundle, so that it is loaded once).
 * `outdir` is a new directory, which scripts/replace-dist.mjs then puts in the place of dist/: chunk names
 * carry a content hash, so building over an old tree would leave stale chunks beside the new ones, and a
 * command run meanwhile would find a tree half written. Type declarations are not written here
 * (scripts/build.mjs writes them with tsc).
 */
export async function bundleDist({ root = '.', outdir, logLevel = 'warning' }) {
  await build({
    ...bundleOptions,
    absWorkingDir: resolve(root),
    logLevel,
    entryPoints: {
      server: 'src/server.ts',
      cli: 'src/cli/bin.ts',
      // cfrules replay's worker threads load it by its name, beside the chunk that starts them.
      'replay-worker': 'src/cli/replay/worker.ts',
      // The service's simulation worker (src/service/simulate-runner.ts), likewise.
      'simulate-worker': 'src/service/simulate-worker.ts',
    },
    outdir: resolve(root, outdir),
    splitting: true,
    plugins: [jsonBeside(root, resolve(root, outdir)), ...bundleOptions.plugins],
  });
  await cliScript({ root, outdir, logLevel });
  await libraryScript({ root, outdir, logLevel });
  writeLibraryCache(resolve(root, outdir));
}

/** The first line of a script, before the build knows the hash it ends with. */
const HEADER_PLACEHOLDER = '0'.repeat(16);

/**
 * dist/cli.cjs: the whole CLI as one CommonJS script, which bin/cfrules.js compiles with `vm.Script` and
 * V8's code cache (bin/code-cache.js). Starting from cached code is what brings `cfrules validate` under
 * 1.6× a bare `node` (issue 16); Node 20 has no cache for ES modules, and one script is one cache entry.
 */
const cliScript = (options) => cacheableScript({ ...options, entry: 'src/cli/bin.ts', name: 'cli' });

/**
 * dist/library.cjs: the library as one CommonJS script, which dist/index.js runs through
 * bin/load-library.js with the code cache that scripts/library-cache.mjs writes after the bundles.
 */
const libraryScript = (options) => cacheableScript({ ...options, entry: 'src/index.ts', name: 'library' });

/**
 * dist/NAME.cjs, the bundle of `entry` as one CommonJS script for V8's code cache.
 *
 * The file is exactly the text V8 compiles: a function expression taking what Node gives a CommonJS
 * module, plus `import.meta.url` (the bundle's own URL, for createRequire and the replay worker's path).
 * Its first line, `//cfrules-NAME VERSION HASH`, names the build: V8 checks cached data only against the
 * source's length, not its text, so the cache's file name carries a hash of this text, read with the
 * script rather than computed at every start. The hash is taken with the placeholder in place, and the
 * placeholder has the hash's length, so that the source map's positions stay right.
 */
async function cacheableScript({ root, outdir, logLevel, entry, name }) {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const outfile = join(resolve(root, outdir), `${name}.cjs`);
  const result = await build({
    ...bundleOptions,
    absWorkingDir: resolve(root),
    logLevel,
    format: 'cjs',
    entryPoints: [entry],
    outfile,
    write: false,
    plugins: [jsonBeside(root, resolve(root, outdir)), ...bundleOptions.plugins],
    define: { 'import.meta.url': '__cfrules_import_meta_url' },
    banner: {
      js: `//cfrules-${name} ${version} ${HEADER_PLACEHOLDER}\n(function (exports, require, module, __filename, __dirname, __cfrules_import_meta_url) {`,
    },
    footer: { js: '})' },
  });
  for (const { path, text } of result.outputFiles) {
    if (path !== outfile) {
      writeFileSync(path, text);
      continue;
    }
    const hash = createHash('sha256').update(text).digest('hex').slice(0, HEADER_PLACEHOLDER.length);
    writeFileSync(path, text.replace(HEADER_PLACEHOLDER, hash));
  }
}
