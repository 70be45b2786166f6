import { collectionRuntimes } from './functions/collections.js';
import { digestRuntimes } from './functions/digests.js';
import { encodingRuntimes } from './functions/encoding.js';
import { jsonRuntimes } from './functions/json.js';
import { networkRuntimes } from './functions/network.js';
import { replaceRuntimes } from './functions/replace.js';
import type { FunctionRuntime } from './functions/runtime.js';
import { stringRuntimes } from './functions/strings.js';
import { wafRuntimes } from './functions/waf/runtimes.js';

/**
 * The implementations of the Rules language's functions (the catalogue in src/scheme/functions.ts), over
 * the run-time values of src/scheme/values.ts. `any` and `all` are not here: the grammar makes them
 * quantifiers, which the compiler handles.
 *
 * Conventions shared by every implementation:
 * - Arguments arrive evaluated; a missing argument (undefined) makes the result missing, except in
 *   `concat`, which counts it as empty (rules-language §4).
 * - Literal arguments are handed to `prepare` once, so patterns, byte sets, keys and replacements are
 *   compiled once per call site; `args` still holds every argument, literals included, and is used when
 *   `prepare` did not get them, so the answers do not depend on whether the caller supplies literals.
 * - `[*]` (a call per element) is the compiler's business: it calls the implementation once per element.
 * - `bit_slice` expects, as argument #0, the bytes of the header its protocol literal names (see
 *   functions/network.ts): its signature marks the parameter `namesField`, and the compiler passes that
 *   field's value; `concat` would like the call's return type (in the optional context), to give
 *   an empty array when every argument of an Array concat is missing; `regex_replace` compiles its pattern
 *   with the context's regex engine.
 */

export type { CallContext, FunctionImplementation, FunctionRuntime } from './functions/runtime.js';

export const functionRuntimes: ReadonlyMap<string, FunctionRuntime> = new Map(
  [
    stringRuntimes,
    encodingRuntimes,
    jsonRuntimes,
    collectionRuntimes,
    networkRuntimes,
    digestRuntimes,
    replaceRuntimes,
    wafRuntimes,
  ].flatMap((runtimes) => [...runtimes]),
);
