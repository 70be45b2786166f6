import { describe, expect, it } from 'vitest';
import { functionRuntimes } from '../../src/eval/functions.js';
import { cloudflareFunctions } from '../../src/scheme/functions.js';
import type { Value } from '../../src/scheme/values.js';

/** Calls a managed-only function as the compiler does (literals to `prepare`), and again without literals. */
function call(name: string, args: readonly (Value | undefined)[]): Value | undefined {
  const definition = cloudflareFunctions.get(name);
  const runtime = functionRuntimes.get(name);
  if (!definition || !runtime) throw new Error(`no function ${name}`);
  const literals = args.map((arg, i) => (definition.params[i]?.kind === 'literal' ? arg : undefined));
  const result = runtime.prepare(literals)(args);
  expect(runtime.prepare([])(args)).toEqual(result);
  return result;
}

describe('waf_count_bytes', () => {
  it('counts the bytes of the value that fall in the ranges', () => {
    expect(call('waf_count_bytes', ['a(b)c--', '40-41,45'])).toBe(4);
    expect(call('waf_count_bytes', ['plain words', '33-47'])).toBe(0);
    expect(call('waf_count_bytes', ['', '0-255'])).toBe(0);
  });

  it('counts bytes, not characters: each byte of a multi-byte character on its own', () => {
    expect(call('waf_count_bytes', ['\xe2\x80\x99x\xb4', '128-255'])).toBe(4);
  });

  it('gives a missing result for a missing value', () => {
    expect(call('waf_count_bytes', [undefined, '1-2'])).toBeUndefined();
  });

  it('refuses ranges that are not byte values', () => {
    const check = cloudflareFunctions.get('waf_count_bytes')?.params[1]?.checkValue;
    expect(check?.('1-300')).toBeDefined();
    expect(check?.('9,32-126')).toBeUndefined();
  });
});

describe('waf_captures_equal', () => {
  const operands = String.raw`(\w+)\s*=\s*(\w+)`;

  it("compares the first match's groups 1 and 2", () => {
    expect(call('waf_captures_equal', ['x 1=1', operands])).toBe(true);
    expect(call('waf_captures_equal', ['x 1=2', operands])).toBe(false);
  });

  it('looks at the first match only, and compares case and length exactly', () => {
    expect(call('waf_captures_equal', ['a=b c=c', operands])).toBe(false);
    expect(call('waf_captures_equal', ['A=a', operands])).toBe(false);
    expect(call('waf_captures_equal', ['11=1', operands])).toBe(false);
  });

  it('is false without a match, or when a group took no part', () => {
    expect(call('waf_captures_equal', ['no operator here', operands])).toBe(false);
    expect(call('waf_captures_equal', ['=', '(a)?=(a)?'])).toBe(false);
  });
});
