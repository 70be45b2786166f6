// Where problems of zone, request and test files are shown: the key of the offending member.
import { describe, expect, it } from 'vitest';
import { parseStructured } from '../../src/cli/structured-file.js';

describe('StructuredFile.positionOf', () => {
  const yaml = parseStructured(
    't.yaml',
    'zone: zone.json\ntests:\n  - name: é one\n    expect:\n      action: blok\n  - name: two\n',
  );

  it('points at the key of a YAML member, with its column in UTF-8 bytes', () => {
    expect(yaml.positionOf('/tests/0/expect/action')).toEqual({ line: 5, column: 7 });
    expect(yaml.positionOf('/zone')).toEqual({ line: 1, column: 1 });
    // The value's line is another: lineOf keeps giving it.
    expect(yaml.positionOf('/tests/0/expect')).toEqual({ line: 4, column: 5 });
    expect(yaml.lineOf('/tests/0/expect')).toBe(5);
  });

  it('points at an element of a YAML list, and at the nearest key for a missing member', () => {
    expect(yaml.positionOf('/tests/1')).toEqual({ line: 6, column: 5 });
    expect(yaml.positionOf('/tests/1/expect/action')).toEqual({ line: 6, column: 5 });
    expect(yaml.positionOf('/tests/0/expect/by')).toEqual({ line: 4, column: 5 });
    expect(yaml.positionOf('/tests/9')).toEqual({ line: 2, column: 1 });
  });

  it('counts columns after non-ASCII text in UTF-8 bytes', () => {
    const file = parseStructured('t.yaml', 'a: { é: 1, b: 2 }\n');
    expect(file.positionOf('/a/b')).toEqual({ line: 1, column: 13 });
  });

  it('points at the key of a JSON member', () => {
    const json = parseStructured('t.json', '{\n  "tests": [\n    {"expect": {"action": "blok"}}\n  ]\n}\n');
    expect(json.positionOf('/tests/0/expect/action')).toEqual({ line: 3, column: 17 });
    expect(json.positionOf('/tests/0/expect/by')).toEqual({ line: 3, column: 6 });
  });
});
