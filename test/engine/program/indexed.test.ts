import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileZone } from '../../../src/engine/index.js';
import { ruleByRuleMatcher } from '../../../src/engine/matcher.js';
import { indexedMatcher } from '../../../src/engine/program/index.js';
import { compile, type Filter } from '../../../src/eval/compile.js';
import { layoutFor } from '../../../src/eval/context.js';
import { readSampleRequest } from '../../../src/request/index.js';
import { cloudflareScheme } from '../../../src/scheme/scheme.js';

// The indexed program answers exactly as running every rule does: on hand-picked cases for each index, and
// on random zones and requests.

function filterOf(expression: string): Filter {
  const result = compile(expression, { plan: 'enterprise', phase: 'firewall_rules', lints: false });
  if (!result.ok) throw new Error(`${expression}: ${result.diagnostics.map((d) => d.message).join('; ')}`);
  return result.filter;
}

function contextOf(json: Record<string, unknown>) {
  const read = readSampleRequest(json);
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  return layoutFor(cloudflareScheme).context(read.request);
}

/** The indices of the rules that match, by both matchers (they must agree). */
function matching(expressions: string[], json: Record<string, unknown>): number[] {
  const filters = expressions.map(filterOf);
  const indexed = indexedMatcher(filters).forRequest(contextOf(json));
  const reference = ruleByRuleMatcher(filters).forRequest(contextOf(json));
  const answers = filters.map((_, i) => indexed(i));
  expect(answers).toEqual(filters.map((_, i) => reference(i)));
  // The candidates' list names each marked rule once, and only those (the engine visits it alone).
  const candidates = indexedMatcher(filters).candidates?.(contextOf(json));
  const marked = [...(candidates?.marks ?? [])].flatMap((mark, i) => (mark === 1 ? [i] : []));
  expect([...(candidates?.indices ?? [])].sort((a, b) => a - b)).toEqual(marked);
  return answers.flatMap((answer, i) => (answer ? [i] : []));
}

describe('the indexed program', () => {
  it('finds exact values of a field (eq, in)', () => {
    const rules = [
      'http.host eq "a.example"',
      'http.host in {"b.example" "a.example"}',
      'http.host eq "c.example"',
    ];
    expect(matching(rules, { url: 'https://a.example/' })).toEqual([0, 1]);
    expect(matching(rules, { url: 'https://z.example/' })).toEqual([]);
  });

  it('finds addresses in ranges, v4 and v6, nested and overlapping', () => {
    const rules = [
      'ip.src in {10.0.0.0/8}',
      'ip.src in {10.1.0.0/16 192.0.2.1}',
      'ip.src eq 10.1.2.3',
      'ip.src in {2001:db8::/32}',
      'ip.src in {0.0.0.0/0}',
    ];
    expect(matching(rules, { clientIp: '10.1.2.3' })).toEqual([0, 1, 2, 4]);
    expect(matching(rules, { clientIp: '10.2.0.0' })).toEqual([0, 4]);
    expect(matching(rules, { clientIp: '192.0.2.1' })).toEqual([1, 4]);
    expect(matching(rules, { clientIp: '2001:db8::5' })).toEqual([3]);
    expect(matching(rules, { clientIp: '11.0.0.0' })).toEqual([4]);
  });

  it('finds literals anywhere, at the start or at the end of a field, exact case', () => {
    const rules = [
      'http.request.uri.path contains "admin"',
      'starts_with(http.request.uri.path, "/admin")',
      'ends_with(http.request.uri.path, ".php")',
      'http.request.uri.path contains "Admin"',
      'starts_with(http.request.uri.path, "admin")',
    ];
    expect(matching(rules, { url: 'https://e.example/admin/x.php' })).toEqual([0, 1, 2]);
    expect(matching(rules, { url: 'https://e.example/x/admin' })).toEqual([0]);
    expect(matching(rules, { url: 'https://e.example/x.php/y' })).toEqual([]);
  });

  it('runs the whole expression of a candidate, and every rule it cannot index', () => {
    const rules = [
      'http.host eq "a.example" and http.request.method eq "POST"',
      'not http.host eq "a.example"',
      'http.host eq "a.example" or lower(http.user_agent) contains "bot"',
      'http.request.uri.path matches "^/x"',
    ];
    expect(matching(rules, { method: 'GET', url: 'https://a.example/x' })).toEqual([2, 3]);
    expect(
      matching(rules, { method: 'POST', url: 'https://b.example/', headers: [['User-Agent', 'Bot']] }),
    ).toEqual([1, 2]);
  });

  it('indexes values computed from fields: header lookups, lower()', () => {
    const rules = [
      'http.request.headers["x-api-key"][0] eq "k1"',
      'lower(http.user_agent) contains "bot"',
      'starts_with(lower(http.request.uri.path), "/admin")',
    ];
    expect(
      matching(rules, {
        url: 'https://e.example/ADMIN',
        headers: [
          ['X-Api-Key', 'k1'],
          ['User-Agent', 'GoodBot'],
        ],
      }),
    ).toEqual([0, 1, 2]);
    expect(matching(rules, { url: 'https://e.example/', headers: [['X-Api-Key', 'k2']] })).toEqual([]);
  });

  it('finds literals in the elements of an array tested with any(…[*] …), as managed rules test them', () => {
    const rules = [
      'any(http.request.uri.args.values[*] contains "union")',
      'any(http.request.uri.args.names[*] eq "ID")',
      'any(http.request.uri.args.values[*] matches "(?i)^select\\b")',
      'all(http.request.uri.args.values[*] contains "x")',
      'any(not http.request.uri.args.values[*] contains "z")',
    ];
    expect(matching(rules, { url: 'https://e.example/?ID=1+union&q=SELECT%20a' })).toEqual([0, 1, 2, 4]);
    expect(matching(rules, { url: 'https://e.example/?q=select+x' })).toEqual([2, 3, 4]);
    expect(matching(rules, { url: 'https://e.example/' })).toEqual([3]);
  });

  it('indexes array elements compared lower-cased, as managed rules compare header names', () => {
    const rules = [
      'any(lower(http.request.headers.names[*])[*] eq "x-scanner")',
      'any(lower(http.request.headers.names[*])[*] in {"proxy" "x-wipp"})',
      'any(lower(http.request.uri.args.values[*])[*] eq "ab")',
      'any(lower(http.request.uri.args.values[*])[*] eq "Ab")',
    ];
    const request = (headers: [string, string][], query = '') => ({
      url: `https://e.example/${query}`,
      headers,
    });
    expect(matching(rules, request([['X-Scanner', '1']]))).toEqual([0]);
    expect(
      matching(
        rules,
        request([
          ['PROXY', 'a'],
          ['x-wipp', 'b'],
        ]),
      ),
    ).toEqual([1]);
    expect(matching(rules, request([['x-scanner-2', '1']], '?q=AB&r=abc'))).toEqual([2]);
    // Indexed: without the name, the rule is not even a candidate. ("Ab" is never a lower-cased value,
    // so that rule has no condition and is a candidate for every request.)
    const candidates = indexedMatcher(rules.map(filterOf)).candidates?.(contextOf(request([['a', 'b']])));
    expect([...(candidates?.indices ?? [])]).toEqual([3]);
  });

  it('answers for each request when the answers of several are asked in turn (the marks are reused)', () => {
    const rules = ['http.host eq "a.example"', 'http.host eq "b.example"', 'ip.src in {10.0.0.0/8}'];
    const matcher = indexedMatcher(rules.map(filterOf));
    const a = matcher.forRequest(contextOf({ url: 'https://a.example/' }));
    const b = matcher.forRequest(contextOf({ url: 'https://b.example/', clientIp: '10.1.2.3' }));
    // Each asks after the other has: a's rule 0 is asked after b has marked its own candidates.
    expect([a(1), b(1), a(0), b(0), a(2), b(2)]).toEqual([false, true, true, false, false, true]);
    // A request's candidates list only its own rules, whatever was asked before.
    const first = matcher.candidates?.(contextOf({ url: 'https://b.example/', clientIp: '10.1.2.3' }));
    expect([...(first?.indices ?? [])].sort()).toEqual([1, 2]);
    const second = matcher.candidates?.(contextOf({ url: 'https://a.example/' }));
    expect([...(second?.indices ?? [])]).toEqual([0]);
    expect([...(second?.marks ?? [])]).toEqual([1, 0, 0]);
  });

  it('treats a missing field as matching nothing', () => {
    expect(matching(['ip.src in {0.0.0.0/0}', 'http.host eq ""'], {})).toEqual([]);
  });
});

describe('the indexed program and rule-by-rule evaluation', () => {
  const hosts = ['a.example', 'b.example', 'api.example', 'A.example'];
  const paths = [
    '/',
    '/admin',
    '/admin/users',
    '/api/v1/x.php',
    '/wp-login.php',
    '/x/admin',
    '/static/app.js',
  ];
  const ips = ['10.0.0.1', '10.1.2.3', '192.0.2.7', '203.0.113.9', '2001:db8::1', '2001:db8:1::9', '::1'];
  const literals = ['admin', '/admin', '.php', 'api', 'x', 'login', '/', 'A'];
  const cidrs = [
    '10.0.0.0/8',
    '10.1.0.0/16',
    '192.0.2.0/24',
    '10.1.2.3',
    '2001:db8::/32',
    '2001:db8:1::/48',
    '0.0.0.0/0',
    '::/0',
  ];
  const quoted = (text: string) => JSON.stringify(text);

  const leaf = fc.oneof(
    fc.constantFrom(...hosts).map((h) => `http.host eq ${quoted(h)}`),
    fc.subarray(hosts, { minLength: 1 }).map((set) => `http.host in {${set.map(quoted).join(' ')}}`),
    fc.constantFrom(...literals).map((l) => `http.request.uri.path contains ${quoted(l)}`),
    fc.constantFrom(...literals).map((l) => `starts_with(http.request.uri.path, ${quoted(l)})`),
    fc.constantFrom(...literals).map((l) => `ends_with(http.request.uri.path, ${quoted(l)})`),
    fc.constantFrom(...paths).map((p) => `http.request.uri.path eq ${quoted(p)}`),
    fc.subarray(cidrs, { minLength: 1 }).map((set) => `ip.src in {${set.join(' ')}}`),
    fc.constantFrom(...ips).map((ip) => `ip.src eq ${ip}`),
    fc.constantFrom('GET', 'POST').map((m) => `http.request.method ne ${quoted(m)}`),
    fc
      .constantFrom(...literals)
      .map((l) => `lower(http.request.uri.path) contains ${quoted(l.toLowerCase())}`),
    fc.constantFrom('^/a', 'php$', '(?i)ADMIN').map((r) => `http.request.uri.path matches ${quoted(r)}`),
    fc.constantFrom('k1', 'k2', '').map((k) => `http.request.headers["x-key"][0] eq ${quoted(k)}`),
    fc.constantFrom(...hosts).map((h) => `lower(http.host) eq ${quoted(h.toLowerCase())}`),
    fc.constantFrom(...literals).map((l) => `ends_with(lower(http.request.uri.path), ${quoted(l)})`),
    // Tests of each element of an array (the managed rules' shape).
    fc.constantFrom(...literals).map((l) => `any(http.request.uri.args.values[*] contains ${quoted(l)})`),
    fc.constantFrom('id', 'q', 'x').map((n) => `any(http.request.uri.args.names[*] eq ${quoted(n)})`),
    fc
      .constantFrom(...literals)
      .map((l) => `any(starts_with(http.request.uri.args.values[*], ${quoted(l)}))`),
    fc
      .constantFrom('^/a', 'php$', '(?i)ADMIN')
      .map((r) => `any(http.request.uri.args.values[*] matches ${quoted(r)})`),
    fc.constantFrom(...literals).map((l) => `all(http.request.uri.args.values[*] contains ${quoted(l)})`),
    fc
      .subarray(['id', 'q', 'x', 'ID', 'admin', '/admin'], { minLength: 1 })
      .map((set) => `any(lower(http.request.uri.args.values[*])[*] in {${set.map(quoted).join(' ')}})`),
    fc
      .constantFrom('id', 'q', 'x', 'ID')
      .map((n) => `any(lower(http.request.uri.args.names[*])[*] eq ${quoted(n)})`),
  );
  const expression: fc.Arbitrary<string> = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.tuple(tie('node'), tie('node')).map(([a, b]) => `(${a} and ${b})`),
      fc.tuple(tie('node'), tie('node')).map(([a, b]) => `(${a} or ${b})`),
      tie('node').map((a) => `not ${a}`),
    ),
  })).node as fc.Arbitrary<string>;
  const request = fc.record({
    method: fc.constantFrom('GET', 'POST'),
    host: fc.constantFrom(...hosts),
    path: fc.constantFrom(...paths),
    clientIp: fc.option(fc.constantFrom(...ips), { nil: undefined }),
    key: fc.option(fc.constantFrom('k1', 'k2', 'K1', ''), { nil: undefined }),
    query: fc.option(fc.constantFrom('id=/admin', 'q=x.php&x=login', 'x=ADMIN&id=', 'id=A'), {
      nil: undefined,
    }),
  });

  it('agree on random zones and requests', () => {
    fc.assert(
      fc.property(
        fc.array(expression, { minLength: 1, maxLength: 30 }),
        fc.array(request, { minLength: 1, maxLength: 5 }),
        (expressions, requests) => {
          for (const r of requests) {
            matching(expressions, {
              method: r.method,
              url: `https://${r.host}${r.path}${r.query ? `?${r.query}` : ''}`,
              ...(r.clientIp ? { clientIp: r.clientIp } : {}),
            });
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("visit candidates in the rules' order beyond the first 32 rules", () => {
    // Priorities reverse the file order, and the candidates sit in several 32-rule words of positions.
    const zone = {
      firewall_rules: Array.from({ length: 100 }, (_, i) => ({
        id: `r${i}`,
        action: 'log',
        priority: 100 - i,
        filter: {
          expression:
            i % 7 === 0
              ? `http.request.uri.path contains "/x${i % 3}"`
              : i % 11 === 0
                ? 'http.request.uri.path matches "^/x"'
                : `http.request.uri.path eq "/none${i}"`,
        },
      })),
    };
    const compiled = compileZone(zone);
    if (!compiled.ok) throw new Error('zone');
    for (const url of ['https://a.example/x0', 'https://a.example/x1/x2', 'https://a.example/y']) {
      const read = readSampleRequest({ url });
      if (!read.ok) throw new Error('request');
      const lean = compiled.zone.simulate(read.request, { trace: false });
      const full = compiled.zone.simulate(read.request);
      expect(lean.matched.map((rule) => rule.id)).toEqual(full.matched.map((rule) => rule.id));
    }
    const read = readSampleRequest({ url: 'https://a.example/x1/x2' });
    if (!read.ok) throw new Error('request');
    // Every rule i with i % 7 === 0 and i % 3 in {1, 2}, and the regex rules, highest i (priority 1) first.
    const expected = Array.from({ length: 100 }, (_, i) => 99 - i)
      .filter((i) => (i % 7 === 0 && i % 3 !== 0) || (i % 7 !== 0 && i % 11 === 0))
      .map((i) => `r${i}`);
    expect(compiled.zone.simulate(read.request, { trace: false }).matched.map((r) => r.id)).toEqual(expected);
  });

  it('give the same simulations of random zones, with and without a trace', () => {
    const rule = fc.record({
      expression,
      action: fc.constantFrom('block', 'log', 'allow', 'bypass', 'managed_challenge'),
      priority: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
      // Paused (a firewall rule) or disabled (a custom rule): the index leaves such rules out.
      off: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(rule, { minLength: 1, maxLength: 25 }),
        fc.array(request, { minLength: 1, maxLength: 4 }),
        // URL rewrites in front: the later rules are matched again on the rewritten request.
        fc.array(fc.record({ expression, path: fc.constantFrom(...paths) }), { maxLength: 3 }),
        (rules, requests, rewrites) => {
          const zone = {
            firewall_rules: rules.map((r, i) => ({
              id: `r${i}`,
              action: r.action,
              ...(r.priority === undefined ? {} : { priority: r.priority }),
              ...(r.action === 'bypass' ? { products: ['waf'] } : {}),
              ...(r.off ? { paused: true } : {}),
              filter: { expression: r.expression },
            })),
            rulesets: [
              {
                id: 'custom',
                kind: 'zone',
                phase: 'http_request_firewall_custom',
                rules: rules.slice(0, 5).map((r, i) => ({
                  id: `c${i}`,
                  action: r.action === 'block' ? 'block' : 'log',
                  expression: r.expression,
                  ...(r.off ? { enabled: false } : {}),
                })),
              },
              {
                id: 'rewrites',
                kind: 'zone',
                phase: 'http_request_transform',
                rules: rewrites.map((r, i) => ({
                  id: `t${i}`,
                  action: 'rewrite',
                  expression: r.expression,
                  action_parameters: { uri: { path: { value: r.path } } },
                })),
              },
            ],
          };
          const indexed = compileZone(zone);
          const reference = compileZone(zone, { matcher: 'rule-by-rule' });
          if (!indexed.ok || !reference.ok) throw new Error('zone');
          for (const r of requests) {
            const read = readSampleRequest({
              method: r.method,
              url: `https://${r.host}${r.path}`,
              ...(r.clientIp ? { clientIp: r.clientIp } : {}),
            });
            if (!read.ok) throw new Error('request');
            // The same compiled zone asked rule by rule (what `cfrules bench` compares with) agrees too.
            const sameFilters = indexed.zone.ruleByRule();
            for (const trace of [true, false]) {
              const expected = reference.zone.simulate(read.request, { trace });
              expect(indexed.zone.simulate(read.request, { trace })).toEqual(expected);
              expect(sameFilters.simulate(read.request, { trace })).toEqual(expected);
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
