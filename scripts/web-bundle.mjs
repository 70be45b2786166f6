// Builds the browser pages (web/) into OUTDIR/web: the playground (index.html, its script and style sheet),
// the console that `cfrules serve` serves (console.html, its script, style sheet and replay worker), and
// RE2 for the browser (the wasm module and its JavaScript runtime), which the pages load only when an
// expression first needs a regex. Called by scripts/build.mjs; the browser tests build it the same way.
import { readFileSync, writeFileSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { bundleOptions } from './bundle-options.mjs';

/**
 * The library loads re2-wasm through Node's `require` (src/regex/re2/module.ts). In the page, that one
 * module is replaced by web/src/regex/re2-browser.ts, which instantiates the wasm module the page fetched;
 * the library itself stays free of browser code.
 */
const re2InTheBrowser = (root) => ({
  name: 're2-in-the-browser',
  setup(build) {
    build.onResolve({ filter: /^\.\/module\.js$/ }, ({ importer }) => {
      if (!/[\\/]src[\\/]regex[\\/]re2[\\/][^\\/]+\.ts$/.test(importer)) return undefined;
      return { path: resolve(root, 'web/src/regex/re2-browser.ts') };
    });
  },
});

/**
 * re2-wasm's Emscripten runtime as a classic script that defines `cfrulesRe2Factory(Module)`: each call
 * runs the runtime afresh and returns a new instance (a heap of its own, as the library expects of
 * `loadRe2`). The runtime is not strict-mode code, hence a script of its own rather than part of the
 * bundle. Two of embind's helpers build functions from source text (`new Function`), which a strict
 * Content-Security-Policy forbids; the declarations appended after the runtime replace them (in one
 * function scope, the last declaration of a name wins) with closures that do the same work.
 */
function re2RuntimeScript(runtimeText) {
  return `// re2-wasm's runtime for the cfrules playground (scripts/web-bundle.mjs)
globalThis.cfrulesRe2Factory = function (Module) {
${runtimeText}
${CSP_SAFE_EMBIND}
return Module;
};
`;
}

const CSP_SAFE_EMBIND = `
function createNamedFunction(name, body) {
  return function () {
    return body.apply(this, arguments);
  };
}
function craftInvokerFunction(humanName, argTypes, classType, cppInvokerFunc, cppTargetFunc) {
  var argCount = argTypes.length;
  if (argCount < 2) throwBindingError("argTypes array size mismatch! Must at least get return value and 'this' types!");
  var isClassMethod = argTypes[1] !== null && classType !== null;
  var needsDestructorStack = false;
  for (var t = 1; t < argCount; ++t) {
    if (argTypes[t] !== null && argTypes[t].destructorFunction === undefined) needsDestructorStack = true;
  }
  var returns = argTypes[0].name !== 'void';
  return function () {
    if (arguments.length !== argCount - 2) {
      throwBindingError('function ' + humanName + ' called with ' + arguments.length + ' arguments, expected ' + (argCount - 2) + ' args!');
    }
    var destructors = needsDestructorStack ? [] : null;
    var wired = [cppTargetFunc];
    var types = [];
    if (isClassMethod) {
      wired.push(argTypes[1].toWireType(destructors, this));
      types.push(argTypes[1]);
    }
    for (var i = 0; i < argCount - 2; ++i) {
      wired.push(argTypes[i + 2].toWireType(destructors, arguments[i]));
      types.push(argTypes[i + 2]);
    }
    var rv = cppInvokerFunc.apply(null, wired);
    if (needsDestructorStack) runDestructors(destructors);
    else {
      for (var j = 0; j < types.length; ++j) {
        if (types[j].destructorFunction !== null) types[j].destructorFunction(wired[j + 1]);
      }
    }
    return returns ? argTypes[0].fromWireType(rv) : undefined;
  };
}
`;

/**
 * Bundles the playground into `outdir` (a new directory, like bundleDist's). Classic scripts (IIFE), not
 * ES modules: browsers refuse module scripts on file:// pages, and the page should open from disk. Returns
 * esbuild's metafile (what each output is made of).
 */
export async function bundleWeb({ root = '.', outdir, logLevel = 'warning' }) {
  const absRoot = resolve(root);
  const out = resolve(absRoot, outdir);
  await mkdir(out, { recursive: true });
  const { metafile } = await build({
    ...bundleOptions,
    absWorkingDir: absRoot,
    logLevel,
    platform: 'browser',
    format: 'iife',
    target: ['chrome110', 'firefox110', 'safari16'],
    external: [],
    // No source maps: they would quadruple what the installed package carries for the page.
    sourcemap: false,
    // Zone mode's engine is a script of its own, loaded when zone mode is first opened
    // (web/src/zone/engine.ts): Expression mode starts without the managed rulesets.
    entryPoints: {
      playground: 'web/src/main.ts',
      'playground-zone': 'web/src/zone/entry.ts',
      'playground-style': 'web/playground.css',
      // The console of `cfrules serve` (src/http/web-pages.ts): its page, and its replay's Web Worker.
      console: 'web/src/console/main.ts',
      'console-replay': 'web/src/console/replay/worker.ts',
      'console-style': 'web/console.css',
    },
    outdir: out,
    // src/regex/re2/module.ts (Node's loader, replaced in the page) still reaches the bundle for the helper
    // the page's loader re-exports; its `import.meta.url` is never used there.
    logOverride: { 'empty-import-meta': 'silent' },
    metafile: true,
    plugins: [...bundleOptions.plugins, re2InTheBrowser(absRoot)],
  });
  const require = createRequire(join(absRoot, 'package.json'));
  const runtime = require.resolve('re2-wasm/build/wasm/re2.js');
  writeFileSync(join(out, 're2-runtime.js'), re2RuntimeScript(readFileSync(runtime, 'utf8')));
  await copyFile(join(dirname(runtime), 're2.wasm'), join(out, 're2.wasm'));
  await copyFile(join(absRoot, 'web/index.html'), join(out, 'index.html'));
  await copyFile(join(absRoot, 'web/console.html'), join(out, 'console.html'));
  return metafile;
}
