// The page's stand-in for src/regex/re2/module.ts (scripts/web-bundle.mjs swaps it in for the library's
// RE2 modules): the same `loadRe2`, over the wasm module the page fetched and compiled beforehand.
// In Node, re2-wasm is required synchronously; a browser compiles wasm asynchronously, so the page calls
// `prepareRe2()` before it first checks or runs an expression with a regex (see ../regex-loading.ts).
import type { Re2Class } from '../../../src/regex/re2/module.js';
import { loadScript } from '../load-script.js';

export {
  isHeapFailure,
  type Re2Class,
  type Re2Match,
  type Re2Object,
} from '../../../src/regex/re2/module.js';

/** What re2-runtime.js defines: runs re2-wasm's runtime afresh with Emscripten's `Module` settings. */
type Re2Factory = (settings: Record<string, unknown>) => { WrappedRE2?: Re2Class };

let compiled: WebAssembly.Module | undefined;
let factory: Re2Factory | undefined;
let preparing: Promise<void> | undefined;

/** Fetches and compiles re2.wasm and loads its runtime, once; `baseUrl` is where the page's files are. */
export function prepareRe2(baseUrl: string): Promise<void> {
  preparing ??= (async () => {
    const [module] = await Promise.all([
      compileWasm(new URL('re2.wasm', baseUrl).href),
      loadRuntime(baseUrl),
    ]);
    compiled = module;
  })();
  preparing.catch(() => {
    preparing = undefined; // let a later call try again (the network may come back)
  });
  return preparing;
}

async function compileWasm(url: string): Promise<WebAssembly.Module> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`could not load ${url}: HTTP ${response.status}`);
  return WebAssembly.compile(await response.arrayBuffer());
}

async function loadRuntime(baseUrl: string): Promise<void> {
  factory = await loadScript<Re2Factory>(baseUrl, 're2-runtime.js', 'cfrulesRe2Factory');
}

/**
 * A fresh RE2 instance (a heap of its own), as the library's loadRe2 gives: instantiated synchronously
 * from the module compiled by prepareRe2. Throws until that is done; the library then treats RE2 as
 * unavailable for that call.
 */
export function loadRe2(): Re2Class {
  const module = compiled;
  if (!module || !factory) throw new Error('RE2 is not loaded yet in this page');
  const loaded = factory({
    instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance) => void) {
      const instance = new WebAssembly.Instance(module, imports);
      receive(instance);
      return instance.exports;
    },
    // The runtime's abort handler prints; aborts reach the library as errors, as in Node.
    printErr() {},
    print() {},
  });
  if (!loaded.WrappedRE2) throw new Error('re2-wasm did not load (no WrappedRE2 export)');
  return loaded.WrappedRE2;
}
