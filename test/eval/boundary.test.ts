// The library's public functions, called from JavaScript with the wrong kind of input: a clear answer
// (a diagnostic from validate and compile, a TypeError naming what was expected from a filter), never a
// TypeError from deep inside. And lists given by items are the only lists.
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/check/validate.js';
import { compile, EvaluationError, evaluate } from '../../src/eval/compile.js';
import { explain, formatExplanation } from '../../src/eval/explain.js';
import { readSampleRequest } from '../../src/request/index.js';

// Calls as plain JavaScript would make them.
const loose = <T>(value: unknown) => value as T;

describe('validate with the wrong kind of input', () => {
  it('answers with an invalid-input diagnostic, never a throw', () => {
    const cases: [unknown, unknown, string][] = [
      [undefined, undefined, 'expected the expression as a string, got undefined'],
      [42, undefined, 'expected the expression as a string, got a number (42)'],
      [{ expression: 'ssl' }, undefined, 'expected the expression as a string, got a plain object'],
      ['ssl', null, 'expected the options as an object, got null'],
      ['ssl', 'pro', 'expected the options as an object, got the string "pro"'],
      [
        'ssl',
        { expression: 'condition' },
        'expected options.expression to be "filter" or "rewrite", got the string "condition"',
      ],
      [
        'ssl',
        { maxLength: '10' },
        'expected options.maxLength to be a number of characters, got the string "10"',
      ],
      [
        'ssl',
        { lists: { office: 'ips' } },
        'expected the kind of list $office to be "ip", "hostname" or "asn", got the string "ips"',
      ],
      ['ssl', { lints: 'none' }, 'expected options.lints to be false or an object, got the string "none"'],
    ];
    for (const [source, options, message] of cases) {
      const result = validate(loose<string>(source), loose(options));
      expect(result, message).toEqual({
        ok: false,
        diagnostics: [
          {
            severity: 'error',
            code: 'invalid-input',
            message,
            span: { start: 0, end: 0, line: 1, column: 1 },
          },
        ],
      });
    }
  });
});

describe('compile and evaluate with the wrong kind of input', () => {
  it('report a wrong expression or options as a diagnostic (evaluate: in an EvaluationError)', () => {
    expect(compile(loose<string>(undefined))).toMatchObject({
      ok: false,
      diagnostics: [{ code: 'invalid-input' }],
    });
    expect(compile('ssl', loose({ listItems: ['a'] }))).toMatchObject({
      ok: false,
      diagnostics: [
        {
          code: 'invalid-input',
          message: expect.stringMatching(/^expected options.listItems to be an object/),
        },
      ],
    });
    expect(() => evaluate(loose<string>(null), new Map())).toThrow(EvaluationError);
    expect(() => evaluate(loose<string>(null), new Map())).toThrow(
      'expected the expression as a string, got null',
    );
  });

  it('refuse a request that is neither a SampleRequest, a Map nor a context, saying what to pass', () => {
    const message =
      /^cfrules: expected the request as a SampleRequest \(from readSampleRequest\(\)\), a Map of field values or a RequestContext, got a plain object; for a request written as JSON, pass it through readSampleRequest\(\) first/;
    expect(() => evaluate('ssl', loose({ ssl: true }))).toThrow(TypeError);
    expect(() => evaluate('ssl', loose({ ssl: true }))).toThrow(message);
    expect(() => evaluate('ssl', loose(undefined))).toThrow(/got undefined$/);
    const compiled = compile('http.host eq "a"', { generateCode: false });
    if (!compiled.ok) throw new Error('invalid');
    expect(() => compiled.filter.match(loose({ url: 'http://a/' }))).toThrow(message);
    expect(() => compiled.filter.value(loose('http://a/'))).toThrow(/got the string "http:\/\/a\/"$/);
    expect(() => compiled.filter.context(loose([]))).toThrow(/got an array$/);
    // What is documented still works.
    expect(evaluate('ssl', new Map([['ssl', true]]))).toBe(true);
    const read = readSampleRequest({ url: 'https://a/' });
    if (!read.ok) throw new Error('bad request');
    expect(evaluate('ssl', read.request)).toBe(true);
  });
});

describe('lists given by items', () => {
  it('are the only lists: another name is unknown-list, with a suggestion', () => {
    const result = compile('ip.src in $offce', { listItems: { office: ['192.0.2.0/24'] } });
    expect(result).toMatchObject({
      ok: false,
      diagnostics: [{ code: 'unknown-list', message: 'unknown list $offce', hint: 'did you mean $office?' }],
    });
    expect(compile('ip.src in $office', { listItems: { office: [] } }).ok).toBe(true);
    expect(compile('ip.src in $cf.open_proxies', { listItems: {} }).ok).toBe(true); // Cloudflare's own
    expect(compile('ip.src in $anything').ok).toBe(true); // no items given: any account list may exist
  });
});

describe('explanations of rewrite expressions', () => {
  it('show the value the expression yields', () => {
    const source = 'concat("/v2", http.request.uri.path)';
    const compiled = compile(source, { expression: 'rewrite' });
    if (!compiled.ok) throw new Error('invalid');
    const ctx = compiled.filter.context(new Map([['http.request.uri.path', '/users']]));
    const explanation = explain(source, compiled.filter.ast, ctx, { expression: 'rewrite' });
    expect(explanation).toMatchObject({ result: true, value: '"/v2/users"' });
    expect(formatExplanation(explanation).split('\n')[0]).toBe(`"/v2/users" ${source}`);
    const host = compile('http.host', { expression: 'rewrite' });
    if (!host.ok) throw new Error('invalid');
    const missing = explain('http.host', host.filter.ast, host.filter.context(new Map()), {
      expression: 'rewrite',
    });
    expect(missing).toMatchObject({ result: false, value: 'missing' });
  });
});
