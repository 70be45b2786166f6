import { describe, expect, it } from 'vitest';
import type { TypedExpression, TypedValue } from '../../src/check/typed-ast.js';
import { validate } from '../../src/check/validate.js';
import { compile } from '../../src/eval/compile.js';
import { layoutFor } from '../../src/eval/context.js';
import { valueKey } from '../../src/eval/value-key.js';
import { readSampleRequest } from '../../src/request/index.js';
import { cloudflareScheme } from '../../src/scheme/scheme.js';

// A call with the same arguments is computed once per request, however many rules make it: the managed
// rulesets transform every argument the same way in hundreds of rules.

function contextOf(json: Record<string, unknown>) {
  const read = readSampleRequest(json);
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  return layoutFor(cloudflareScheme).context(read.request);
}

/** The left-hand value of a comparison expression. */
function lhsOf(expression: string): TypedValue {
  const result = validate(expression, { managedRuleset: true, phase: 'http_request_firewall_managed' });
  const ast = result.ast as TypedExpression;
  if (ast.kind === 'comparison') return ast.lhs;
  if (ast.kind === 'quantifier' && ast.operand.kind === 'comparison') return ast.operand.lhs;
  throw new Error(`not a comparison: ${expression}`);
}

describe('value keys', () => {
  it('name the same computation alike however it is written', () => {
    expect(valueKey(lhsOf('lower( http.host ) eq "a"'))).toBe(valueKey(lhsOf('lower(http.host) eq "b"')));
    expect(valueKey(lhsOf('lower(http.host) eq "a"'))).not.toBe(valueKey(lhsOf('upper(http.host) eq "a"')));
    expect(valueKey(lhsOf('http.request.headers["x-a"][0] eq "a"'))).toBe('http.request.headers["x-a"][0]');
  });

  it('leave out values computed element by element, which are not one value of the request', () => {
    expect(valueKey(lhsOf('any(lower(http.request.headers.names[*])[*] eq "a")'))).toBeUndefined();
  });
});

describe('computed values of a request', () => {
  it('are computed on first use, once per request, a missing value included', () => {
    const layout = layoutFor(cloudflareScheme);
    const slot = layout.computedSlotOf('test-only(computed-values)') as number;
    expect(layout.computedSlotOf('test-only(computed-values)')).toBe(slot);
    let runs = 0;
    const compute = () => {
      runs++;
      return runs === 1 ? undefined : 'again';
    };
    const first = contextOf({ url: 'https://a.example/' });
    expect(first.computed(slot, compute)).toBeUndefined();
    expect(first.computed(slot, compute)).toBeUndefined();
    expect(runs).toBe(1);
    // Another request computes its own.
    expect(contextOf({ url: 'https://a.example/' }).computed(slot, compute)).toBe('again');
    expect(runs).toBe(2);
  });

  it('keep what a request computed when the layout gains slots meanwhile (a rule compiled mid-request)', () => {
    const layout = layoutFor(cloudflareScheme);
    const first = layout.computedSlotOf('test-only(kept-a)') as number;
    const context = contextOf({ url: 'https://a.example/' });
    let runs = 0;
    expect(context.computed(first, () => `a${++runs}`)).toBe('a1');
    const later = layout.computedSlotOf(`test-only(kept-b-${layout.computedCount})`) as number;
    expect(later).toBeGreaterThan(first);
    expect(context.computed(later, () => 'b')).toBe('b');
    expect(context.computed(first, () => `a${++runs}`)).toBe('a1');
    expect(runs).toBe(1);
  });

  it('give every filter sharing a context the answers it would get alone', () => {
    const expressions = [
      'lower(http.host) eq "a.example"',
      'lower(http.host) contains "b"',
      'any(lower(http.request.headers["x-a"][*])[*] eq "yes")',
      'lower(http.request.headers["x-a"][0]) eq "yes"',
    ];
    const filters = expressions.map((expression) => {
      const result = compile(expression);
      if (!result.ok) throw new Error(expression);
      return result.filter;
    });
    for (const request of [
      { url: 'https://A.example/', headers: [['X-A', 'YES']] },
      { url: 'https://b.example/', headers: [['X-A', 'no']] },
      { url: 'https://b.example/' },
    ]) {
      const shared = contextOf(request);
      expect(filters.map((filter) => filter.match(shared))).toEqual(
        filters.map((filter) => filter.match(contextOf(request))),
      );
    }
  });
});

describe('which calls get a computed value', () => {
  it('not a test of fields and literals, which each rule writes for itself; a transformation does', () => {
    // A request's context makes room for every computed value of the layout: the tests of a thousand
    // firewall rules (`starts_with(http.request.uri.path, "/…")`) would lengthen every request's.
    const layout = layoutFor(cloudflareScheme);
    const before = layout.computedCount;
    for (let i = 0; i < 20; i++) {
      const tests = `starts_with(http.request.uri.path, "/slotless-${i}/") or ends_with(http.host, ".t${i}")`;
      expect(compile(tests).ok).toBe(true);
    }
    expect(layout.computedCount).toBe(before);
    expect(compile('lower(http.request.uri.path) eq "/slotted-transformation"').ok).toBe(true);
    expect(layout.computedCount).toBe(before + 1);
    // A test of a computed value keeps its slot: the detectors of the managed rules are costly.
    expect(compile('starts_with(lower(http.x_forwarded_for), "slotted-test")').ok).toBe(true);
    const withInner = layout.computedCount;
    expect(compile('starts_with(lower(http.x_forwarded_for), "another-slotted-test")').ok).toBe(true);
    expect(layout.computedCount).toBe(withInner + 1);
  });

  it('gives a test of fields the same answer with or without a slot', () => {
    const context = contextOf({ url: 'https://shop.example.com/api/v2/users' });
    for (const [expression, expected] of [
      ['starts_with(http.request.uri.path, "/api/")', true],
      ['ends_with(http.host, ".example.com")', true],
      ['starts_with(http.request.uri.path, "/admin")', false],
    ] as const) {
      const compiled = compile(expression);
      if (!compiled.ok) throw new Error(expression);
      expect(compiled.filter.match(context), expression).toBe(expected);
    }
  });
});
