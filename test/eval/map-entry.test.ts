// `http.request.headers["name"]` is read from the message's header lines without building the map of all
// headers (src/request/index.ts, mapEntryDeriver): the value must be the map's entry for any request.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TypedExpression, TypedValue } from '../../src/check/typed-ast.js';
import { validate } from '../../src/check/validate.js';
import { compileValue } from '../../src/eval/compile.js';
import { layoutFor } from '../../src/eval/context.js';
import { fieldValue, readSampleRequest, type SampleRequest } from '../../src/request/index.js';
import { cloudflareScheme } from '../../src/scheme/scheme.js';
import type { Value } from '../../src/scheme/values.js';

function lhsOf(expression: string): TypedValue {
  const ast = validate(expression).ast as TypedExpression;
  if (ast.kind !== 'comparison') throw new Error(`not a comparison: ${expression}`);
  return ast.lhs;
}

/** The entry `key` of the request's headers through the compiled reader, and through the whole map. */
function both(request: SampleRequest, key: string): [Value | undefined, Value | undefined] {
  // The left-hand side is `headers[key][0]`: its target is the entry itself.
  const first = lhsOf(`http.request.headers[${JSON.stringify(key)}][0] eq ""`);
  if (first.kind !== 'index') throw new Error('not an index');
  const read = compileValue(first.target);
  const map = fieldValue(request, 'http.request.headers');
  return [read(layoutFor(cloudflareScheme).context(request)), map instanceof Map ? map.get(key) : undefined];
}

const sample = (json: Record<string, unknown>): SampleRequest => {
  const read = readSampleRequest(json);
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  return read.request;
};

describe('a header by name', () => {
  it('is every value of the headers of that name, in order, whatever their case', () => {
    const request = sample({
      url: 'https://example.com/',
      headers: [
        ['X-Api-Key', 'one'],
        ['Accept', 'text/html'],
        ['x-api-key', 'two'],
      ],
    });
    expect(both(request, 'x-api-key')).toEqual([
      ['one', 'two'],
      ['one', 'two'],
    ]);
    expect(both(request, 'X-Api-Key')).toEqual([undefined, undefined]);
    expect(both(request, 'referer')).toEqual([undefined, undefined]);
  });

  it('is the given map’s entry when the request gives the headers in `fields`', () => {
    const request = sample({
      url: 'https://example.com/',
      headers: [['X-Api-Key', 'from the message']],
      fields: { 'http.request.headers': { 'x-api-key': ['given'] } },
    });
    expect(both(request, 'x-api-key')).toEqual([['given'], ['given']]);
  });

  it('agrees with the map for any header lines and any name asked', () => {
    const name = fc.constantFrom(
      'X-Api-Key',
      'x-api-key',
      'X-API-KEY',
      'Accept',
      'accept',
      'Cookie',
      'X-Key',
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(name, fc.string({ unit: 'binary-ascii', maxLength: 8 })), { maxLength: 8 }),
        fc.constantFrom('x-api-key', 'accept', 'cookie', 'x-key', 'X-Api-Key', 'absent'),
        (lines, key) => {
          const headers = lines.map(([n, v]) => [n, v.replace(/[\r\n\0]/g, '')]);
          const [compiled, map] = both(sample({ url: 'https://example.com/', headers }), key);
          expect(compiled).toEqual(map);
        },
      ),
    );
  });
});
