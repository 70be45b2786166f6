// Loading re2-wasm (RE2 compiled to WebAssembly), shared by the checker (./writer.ts) and the
// evaluator's regex runtime (./cache.ts).

/** What re2-wasm's embind class returns: `index` is -1 without a match; groups exclude group 0. */
export interface Re2Match {
  match: string;
  index: number;
  groups: (string | undefined)[];
}

/** re2-wasm's embind class `WrappedRE2`, used directly: the public `RE2` wrapper rewrites patterns and leaks. */
export interface Re2Object {
  ok(): boolean;
  error(): string;
  match(input: string, start: number, groups: boolean): Re2Match;
  delete(): void;
}

export type Re2Class = new (
  pattern: string,
  ignoreCase: boolean,
  multiline: boolean,
  dotAll: boolean,
) => Re2Object;

/**
 * Loads a fresh re2-wasm instance: each caller gets a heap of its own (a fixed 16 MiB), so that one
 * cannot starve another, and a heap spoilt by an abort can be dropped whole. The package compiles its wasm
 * synchronously on require (about 40 ms for the first instance in a process, 14 ms for another), through
 * `process.getBuiltinModule`, so that importing this module needs no Node built-in. Its abort handler
 * prints to `console.warn`, bound at load time; aborts surface as errors to the caller, so that printer is
 * silenced. Throws where re2-wasm cannot be loaded (outside Node.js).
 */
export function loadRe2(): Re2Class {
  const nodeModule = globalThis.process?.getBuiltinModule?.('node:module');
  if (!nodeModule) throw new Error('cfrules runs regular expressions with re2-wasm, which needs Node.js');
  const require = nodeModule.createRequire(import.meta.url);
  const path = require.resolve('re2-wasm/build/wasm/re2.js');
  const cached = require.cache[path];
  delete require.cache[path];
  const warn = console.warn;
  console.warn = () => {};
  try {
    const loaded = require(path) as { WrappedRE2?: Re2Class };
    if (!loaded.WrappedRE2) throw new Error('re2-wasm did not load (no WrappedRE2 export)');
    return loaded.WrappedRE2;
  } finally {
    console.warn = warn;
    // Leave the module cache as it was.
    if (cached) require.cache[path] = cached;
    else delete require.cache[path];
  }
}

/** re2-wasm's abort (heap exhausted) and wasm traps are RuntimeErrors. */
export function isHeapFailure(err: unknown): boolean {
  return err instanceof Error && (err.name === 'RuntimeError' || err.message.startsWith('abort('));
}
