import type { RegexEngine } from '../../regex/index.js';
import type { Type } from '../../scheme/types.js';
import type { IpAddress, Value } from '../../scheme/values.js';

/**
 * An implementation receives its evaluated arguments (undefined = missing) and returns a value or
 * undefined (no result = missing).
 */
export type FunctionImplementation = (args: readonly (Value | undefined)[]) => Value | undefined;

/**
 * What the compiler passes to `prepare` besides the literals. Optional, field by field, so that a caller
 * that knows less (a reference interpreter, a test) still gets the documented defaults.
 */
export interface CallContext {
  /** The call's return type as the checker computed it (only concat uses it). */
  returnType?: Type;
  /** The engine regex_replace compiles its pattern with; default re2RegexEngine (src/regex/engine.ts). */
  regexEngine?: RegexEngine;
}

/**
 * Literal arguments are known at compile time: `prepare` may precompute from them (compile a pattern once)
 * and returns the implementation to call per request.
 *
 * `literals[i]` is undefined where argument i is not a literal; `args` always holds every argument,
 * literal ones included. Implementations prefer what `prepare` precomputed and fall back on `args`, so a
 * caller that passes no literals (a reference interpreter) gets the same answers.
 */
export interface FunctionRuntime {
  prepare(literals: readonly (Value | undefined)[], context?: CallContext): FunctionImplementation;
}

/** A runtime with nothing to precompute. */
export const plain = (implementation: FunctionImplementation): FunctionRuntime => ({
  prepare: () => implementation,
});

/**
 * Something built from an argument that is a literal in practice (a pattern, a set of bytes): built once
 * when `prepare` has the literal, else built from the argument at the first call and rebuilt only when the
 * argument changes. Returns undefined for a missing argument.
 */
export function builtFrom<T>(
  literal: Value | undefined,
  build: (value: Value) => T,
): (argument: Value | undefined) => T | undefined {
  if (literal !== undefined) {
    const built = build(literal);
    return () => built;
  }
  let lastArgument: Value | undefined;
  let last: T | undefined;
  return (argument) => {
    if (argument === undefined) return undefined;
    if (argument !== lastArgument) {
      last = build(argument);
      lastArgument = argument;
    }
    return last;
  };
}

export const isBytes = (value: Value | undefined): value is string => typeof value === 'string';

export const isInt = (value: Value | undefined): value is number => typeof value === 'number';

export const isIp = (value: Value | undefined): value is IpAddress =>
  typeof value === 'object' && !Array.isArray(value) && 'family' in value;

/** The UTF-8 bytes of a code point, as a binary string. */
export function utf8Bytes(codePoint: number): string {
  if (codePoint < 0x80) return String.fromCharCode(codePoint);
  if (codePoint < 0x800) return String.fromCharCode(0xc0 | (codePoint >> 6), 0x80 | (codePoint & 0x3f));
  if (codePoint < 0x10000) {
    return String.fromCharCode(
      0xe0 | (codePoint >> 12),
      0x80 | ((codePoint >> 6) & 0x3f),
      0x80 | (codePoint & 0x3f),
    );
  }
  return String.fromCharCode(
    0xf0 | (codePoint >> 18),
    0x80 | ((codePoint >> 12) & 0x3f),
    0x80 | ((codePoint >> 6) & 0x3f),
    0x80 | (codePoint & 0x3f),
  );
}

/** The value of an ASCII hex digit's char code, or -1. */
export function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
  return -1;
}
