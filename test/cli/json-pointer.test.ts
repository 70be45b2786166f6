// Where a JSON pointer leads in a JSON text (rule findings are reported by pointer, files by line).
import { describe, expect, it } from 'vitest';
import { jsonPointerKeyOffset, jsonPointerOffset } from '../../src/cli/json-pointer.js';

/** The text from the pointer's offset on, shortened: what the pointer lands on. */
const at = (text: string, pointer: string) => text.slice(jsonPointerOffset(text, pointer)).slice(0, 12);

describe('jsonPointerOffset', () => {
  const text = ` { "a": [1, {"b}": "x]", "c/d": {"e~f": true}}, [ 3 ]],
    "a2": "}{", "g": null }`;

  it('finds members and elements, past strings holding brackets and quotes', () => {
    expect(at(text, '')).toBe(text.trimStart().slice(0, 12));
    expect(at(text, '/a/0')).toBe('1, {"b}": "x');
    expect(at(text, '/a/1/b}')).toBe('"x]", "c/d":');
    expect(at(text, '/a/1/c~1d/e~0f')).toBe('true}}, [ 3 ');
    expect(at(text, '/a/2/0')).toBe('3 ]],\n    "a');
    expect(at(text, '/g')).toBe('null }');
  });

  it('stops at the deepest container there when a member or element is missing', () => {
    expect(at(text, '/a/1/missing')).toBe('{"b}": "x]",');
    expect(at(text, '/a/9')).toBe('[1, {"b}": "');
    expect(at(text, '/a2/x')).toBe('"}{", "g": n');
    expect(at(text, '/a/-')).toBe('[1, {"b}": "');
  });
});

describe('jsonPointerKeyOffset', () => {
  const text = '{"tests": [{"name": "a",\n  "expect": {"action": "blok"}}]}';
  const at = (pointer: string) => text.slice(jsonPointerKeyOffset(text, pointer)).slice(0, 10);

  it('lands on the key of a member, and on an element itself', () => {
    expect(at('/tests/0/expect/action')).toBe('"action": ');
    expect(at('/tests/0')).toBe('{"name": "');
    expect(at('')).toBe('{"tests": ');
  });

  it('lands on the key of the deepest member there when one is missing', () => {
    expect(at('/tests/0/expect/by')).toBe('"expect": ');
    expect(at('/tests/3/name')).toBe('"tests": [');
  });
});
