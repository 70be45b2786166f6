import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/check/validate.js';
import { type CompileOptions, compile, EvaluationError, evaluate } from '../../src/eval/compile.js';
import { javascriptRegexEngine, type RegexEngine } from '../../src/regex/index.js';
import { readSampleRequest, type SampleRequest } from '../../src/request/index.js';
import { defineScheme } from '../../src/scheme/scheme.js';
import { bytesOf, type Value } from '../../src/scheme/values.js';

const request = (json: unknown): SampleRequest => {
  const read = readSampleRequest(json);
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  return read.request;
};
const withFields = (fields: Record<string, unknown>) => request({ fields });
const matches = (source: string, fields: Record<string, unknown>, options?: CompileOptions) =>
  evaluate(source, withFields(fields), options);

describe('the reference workload', () => {
  const workload = JSON.parse(readFileSync(new URL('../../bench/workload.json', import.meta.url), 'utf8'));
  const requests = new Map<string, SampleRequest>(
    workload.requests.map((r: { name: string }) => [r.name, request(r)] as const),
  );
  for (const { id, expr } of workload.expressions as { id: string; expr: string }[]) {
    it(`${id} matches the expected requests`, () => {
      const compiled = compile(expr, { maxLength: Number.POSITIVE_INFINITY });
      if (!compiled.ok) throw new Error(compiled.diagnostics[0]?.message);
      const got = Object.fromEntries([...requests].map(([name, req]) => [name, compiled.filter.match(req)]));
      expect(got).toEqual(workload.expected_matches[id]);
    });
  }
});

describe('comparisons', () => {
  it('compares bytes exactly, byte by byte', () => {
    expect(matches('http.host eq "example.com"', { 'http.host': 'example.com' })).toBe(true);
    expect(matches('http.host eq "Example.com"', { 'http.host': 'example.com' })).toBe(false);
    expect(matches('http.host lt "b"', { 'http.host': 'a' })).toBe(true);
    expect(matches('http.host gt "z"', { 'http.host': 'é' })).toBe(true); // 0xC3 > 0x7A
    expect(matches('http.user_agent contains "bot"', { 'http.user_agent': 'Googlebot/2.1' })).toBe(true);
    expect(matches('http.user_agent contains ""', { 'http.user_agent': '' })).toBe(true);
    expect(matches('len(http.host) eq 2', { 'http.host': 'é' })).toBe(true);
  });

  it('treats a comparison on a missing value as false, ne included (Cloudflare documents it so)', () => {
    expect(matches('http.host ne "a"', {})).toBe(false);
    expect(matches('not http.host ne "a"', {})).toBe(true);
    expect(matches('http.request.headers["x"][0] ne "a"', { 'http.request.headers': {} })).toBe(false);
  });

  it('compares integers across the whole i64 range', () => {
    expect(matches('cf.waf.score lt 9223372036854775807', { 'cf.waf.score': 5 })).toBe(true);
    expect(matches('cf.waf.score eq 9223372036854775807', { 'cf.waf.score': 5 })).toBe(false);
    expect(matches('cf.waf.score ne 9223372036854775807', { 'cf.waf.score': 5 })).toBe(true);
    expect(matches('cf.waf.score gt -9223372036854775808', { 'cf.waf.score': -5 })).toBe(true);
    expect(matches('tcp.flags & 0x02', { 'tcp.flags': 0x12 })).toBe(true);
    expect(matches('tcp.flags & 0x100000000', { 'tcp.flags': 2 ** 32 })).toBe(true);
    expect(matches('tcp.flags & 0x01', { 'tcp.flags': 2 ** 32 })).toBe(false);
  });

  it('never orders IPv4 against IPv6: only ne is true', () => {
    const v6 = { 'ip.src': '2001:db8::1' };
    expect(matches('ip.src eq 10.0.0.1', v6)).toBe(false);
    expect(matches('ip.src ne 10.0.0.1', v6)).toBe(true);
    expect(matches('ip.src lt 10.0.0.1', v6)).toBe(false);
    expect(matches('ip.src ge 10.0.0.1', v6)).toBe(false);
    expect(matches('ip.src gt 10.0.0.1', { 'ip.src': '10.0.0.2' })).toBe(true);
    expect(matches('ip.src eq ::ffff:10.0.0.1', { 'ip.src': '10.0.0.1' })).toBe(false); // mapped stays IPv6
  });

  it('looks values up in sets: strings, integer ranges, CIDRs and IP ranges', () => {
    expect(matches('http.host in {"a" "b"}', { 'http.host': 'b' })).toBe(true);
    expect(matches('tcp.dstport in {80 8000..8009}', { 'tcp.dstport': 8005 })).toBe(true);
    expect(matches('tcp.dstport in {80 8000..8009}', { 'tcp.dstport': 8010 })).toBe(false);
    expect(matches('tcp.dstport in {}', { 'tcp.dstport': 1 })).toBe(false);
    const ips = 'ip.src in {10.0.0.0/8 2001:db8::/32 192.0.2.1..192.0.2.9}';
    for (const [ip, expected] of [
      ['10.255.255.255', true],
      ['11.0.0.0', false],
      ['2001:db8:ffff::1', true],
      ['192.0.2.9', true],
      ['192.0.2.10', false],
      ['::ffff:10.0.0.1', false],
    ] as const)
      expect(matches(ips, { 'ip.src': ip }), ip).toBe(expected);
  });

  it('matches wildcards anchored, case-insensitively unless strict', () => {
    const uri = (u: string) => ({ 'http.request.full_uri': u });
    const a = 'http.request.full_uri wildcard "https://example.com/a/*"';
    expect(matches(a, uri('https://example.com/a/'))).toBe(true);
    expect(matches(a, uri('HTTPS://EXAMPLE.COM/a/page.html'))).toBe(true);
    expect(matches(a, uri('https://example.com/ab/'))).toBe(false);
    expect(
      matches(
        'http.request.full_uri strict wildcard "https://example.com/a/*"',
        uri('HTTPS://EXAMPLE.COM/a/'),
      ),
    ).toBe(false);
  });

  it('folds only ASCII letters in wildcards, and reads bytes, newlines and special characters literally', () => {
    const host = (h: string) => ({ 'http.host': h });
    // É (C3 89) and é (C3 A9) differ by a bit that is not ASCII case: never folded.
    expect(matches('http.host wildcard "*é*"', host('CAFÉ'))).toBe(false);
    expect(matches('http.host wildcard "*é*"', host('café'))).toBe(true);
    expect(matches('http.host wildcard "a*b"', host('a\nline\nb'))).toBe(true);
    expect(matches('http.host wildcard "a.b[c]*"', host('a.b[c]d'))).toBe(true);
    expect(matches('http.host wildcard "a.b[c]*"', host('axb[c]d'))).toBe(false);
    expect(matches('http.host wildcard "a\\\\*b"', host('a*b'))).toBe(true);
    expect(matches('http.host wildcard "a\\\\*b"', host('axb'))).toBe(false);
  });

  it('cannot be made to backtrack without end by a wildcard with many stars', () => {
    // Polynomial (n^8) for a plain backtracking search of the input; linear here.
    const many = 'http.host wildcard "*a*a*a*a*a*a*a*a*b"';
    expect(matches(many, { 'http.host': 'a'.repeat(20_000) })).toBe(false);
    expect(matches(many, { 'http.host': `${'a'.repeat(20_000)}b` })).toBe(true);
  });

  it('runs regexes on bytes', () => {
    const ua = (v: string) => ({ 'http.user_agent': v });
    expect(matches('http.user_agent matches "(?i)googlebot/\\d+"', ua('Mozilla Googlebot/2.1'))).toBe(true);
    expect(matches('http.user_agent matches "^bot"', ua('a bot'))).toBe(false);
    expect(matches('http.user_agent matches "caf."', ua('café'))).toBe(true);
  });

  it('checks named lists with the items the caller gives', () => {
    const listItems = {
      office: ['192.0.2.0/24', '2001:db8::1'],
      hosts: ['*.example.com', 'example.org'],
      asns: [13335],
    };
    const options = { listItems };
    expect(matches('ip.src in $office', { 'ip.src': '192.0.2.7' }, options)).toBe(true);
    expect(matches('ip.src in $office', { 'ip.src': '198.51.100.1' }, options)).toBe(false);
    expect(matches('http.host in $hosts', { 'http.host': 'www.example.com' }, options)).toBe(true);
    expect(matches('http.host in $hosts', { 'http.host': 'example.com' }, options)).toBe(false);
    expect(matches('ip.src.asnum in $asns', { 'ip.src.asnum': 13335 }, options)).toBe(true);
    expect(matches('ip.src in $cf.open_proxies', { 'ip.src': '192.0.2.7' })).toBe(false); // not published
  });
});

describe('arrays, maps, [*] and any/all', () => {
  const headers = {
    'http.request.headers': { accept: ['text/html'], 'x-a': ['1', '2'] },
    'http.request.headers.names': ['Accept', 'X-A', 'X-A'],
  };

  it('indexes arrays and maps; out of range and absent keys are missing', () => {
    expect(matches('http.request.headers["x-a"][1] eq "2"', headers)).toBe(true);
    expect(matches('http.request.headers["x-a"][2] eq "2"', headers)).toBe(false);
    expect(matches('http.request.headers["nope"][0] eq "2"', headers)).toBe(false);
  });

  it('applies comparisons and functions element by element under any/all', () => {
    expect(matches('any(http.request.headers.names[*] == "X-A")', headers)).toBe(true);
    expect(matches('all(http.request.headers.names[*] == "X-A")', headers)).toBe(false);
    expect(matches('any(lower(http.request.headers.names[*])[*] == "x-a")', headers)).toBe(true);
    expect(matches('any(http.request.headers[*][*] == "2")', headers)).toBe(true); // nested [*] flattens
  });

  it('gives any false and all true over nothing, and both false over a missing array', () => {
    expect(matches('any(http.request.headers.names[*] == "x")', { 'http.request.headers.names': [] })).toBe(
      false,
    );
    expect(matches('all(http.request.headers.names[*] == "x")', { 'http.request.headers.names': [] })).toBe(
      true,
    );
    expect(matches('all(http.request.headers.names[*] == "x")', {})).toBe(true); // a mapped comparison over nothing
  });

  it('reads the Bool array of a function under any/all, negated or not, in both tiers', () => {
    const names = (list?: string[]) => (list ? { 'http.request.headers.names': list } : {});
    const cases: [string, Record<string, unknown>, boolean][] = [
      ['any(starts_with(http.request.headers.names[*], "X-"))', names(['Accept', 'X-A']), true],
      ['any(starts_with(http.request.headers.names[*], "X-"))', names(['Accept']), false],
      ['all(starts_with(http.request.headers.names[*], "X-"))', names(['X-B', 'X-A']), true],
      ['all(starts_with(http.request.headers.names[*], "X-"))', names(['X-B', 'Accept']), false],
      ['any(not starts_with(http.request.headers.names[*], "X-"))', names(['X-B', 'Accept']), true],
      ['any(not starts_with(http.request.headers.names[*], "X-"))', names(['X-B']), false],
      ['all(not starts_with(http.request.headers.names[*], "X-"))', names(['Accept', 'Host']), true],
      ['all(not starts_with(http.request.headers.names[*], "X-"))', names(['Accept', 'X-A']), false],
      ['any(starts_with(http.request.headers.names[*], "X-"))', names([]), false],
      ['all(starts_with(http.request.headers.names[*], "X-"))', names([]), true],
      ['any(not starts_with(http.request.headers.names[*], "X-"))', names([]), false],
      ['all(not starts_with(http.request.headers.names[*], "X-"))', names([]), true],
      ['any(starts_with(http.request.headers.names[*], "X-"))', names(), false],
      ['all(not starts_with(http.request.headers.names[*], "X-"))', names(), true],
    ];
    for (const [source, fields, expected] of cases)
      for (const generateCode of [true, false])
        expect([source, fields, generateCode, matches(source, fields, { generateCode })]).toEqual([
          source,
          fields,
          generateCode,
          expected,
        ]);
  });

  it('short-circuits and/or, and computes xor', () => {
    expect(matches('ssl and http.host eq "a"', { ssl: false })).toBe(false);
    expect(matches('ssl or http.host eq "a"', { ssl: true })).toBe(true);
    expect(matches('ssl xor http.host eq "a"', { ssl: true, 'http.host': 'a' })).toBe(false);
    expect(matches('ssl xor ssl xor ssl', { ssl: true })).toBe(true);
  });
});

describe('functions and rewrite values', () => {
  it('evaluates functions inside conditions', () => {
    expect(
      matches('starts_with(http.request.uri.path, "/api/")', { 'http.request.uri.path': '/api/v1' }),
    ).toBe(true);
    expect(
      matches('url_decode(http.request.uri.query) contains "<script"', {
        'http.request.uri.query': 'q=%3Cscript',
      }),
    ).toBe(true);
    expect(matches('concat("a", http.host) eq "ab"', { 'http.host': 'b' })).toBe(true);
  });

  it('returns the value of a rewrite expression', () => {
    const compiled = compile('concat("/v2", regex_replace(http.request.uri.path, "^/v1", ""))', {
      expression: 'rewrite',
    });
    if (!compiled.ok) throw new Error(compiled.diagnostics[0]?.message);
    expect(compiled.filter.value(withFields({ 'http.request.uri.path': '/v1/users' }))).toBe('/v2/users');
  });

  it('reads the bits of a packet header with bit_slice', () => {
    // The TCP flags byte is bits 104..112 of the header; 0x12 is SYN+ACK.
    const header = `${'\0'.repeat(13)}\x12${'\0'.repeat(6)}`;
    const packet = request({ fields: { tcp: { base64: Buffer.from(header, 'latin1').toString('base64') } } });
    expect(evaluate('bit_slice("tcp", 104, 112) eq 18', packet, { phase: 'magic_transit' })).toBe(true);
  });
});

describe('compile and evaluate', () => {
  it('returns the diagnostics of an invalid expression', () => {
    const compiled = compile('http.hots eq "a"');
    expect(compiled.ok).toBe(false);
    expect(compiled.diagnostics[0]?.code).toBe('unknown-identifier');
    expect(() => evaluate('http.hots eq "a"', withFields({}))).toThrow(EvaluationError);
  });

  it('lists the fields a filter reads, and derives each at most once per request', () => {
    const compiled = compile('http.host eq "a" or http.host eq "b" or ssl');
    if (!compiled.ok) throw new Error('invalid');
    expect([...compiled.filter.fields].sort()).toEqual(['http.host', 'ssl']);
    let reads = 0;
    const values = new Map<string, Value>([['ssl', true]]);
    const counting = new Proxy(values, {
      get(target, property) {
        if (property === 'get') reads++;
        const member = Reflect.get(target, property, target);
        return typeof member === 'function' ? member.bind(target) : member;
      },
    });
    const ctx = compiled.filter.context(counting as Map<string, Value>);
    expect(compiled.filter.match(ctx)).toBe(true);
    expect(compiled.filter.match(ctx)).toBe(true);
    expect(reads).toBe(2); // http.host and ssl, once each
  });

  it('evaluates against field values given directly, for custom schemes', () => {
    const scheme = defineScheme({ fields: { host: 'Bytes', port: 'Int', tags: 'Array<Bytes>' } });
    const values = new Map<string, Value>([
      ['host', bytesOf('a.example')],
      ['port', 8080],
      ['tags', ['x', 'y']],
    ]);
    expect(
      evaluate('host wildcard "*.example" and port in {8000..8999} and any(tags[*] eq "y")', values, {
        scheme,
      }),
    ).toBe(true);
  });
});

describe('the regex engine', () => {
  /** An engine that records the patterns it compiles, and runs them with the JavaScript engine. */
  const recording = () => {
    const patterns: string[] = [];
    const engine: RegexEngine = {
      compile(pattern) {
        patterns.push(pattern);
        return javascriptRegexEngine.compile(pattern);
      },
    };
    return { engine, patterns };
  };

  it('runs matches and regex_replace with the engine given in the options', () => {
    const { engine, patterns } = recording();
    expect(matches('http.host matches "^a+$"', { 'http.host': 'aa' }, { regexEngine: engine })).toBe(true);
    const rewrite = compile('regex_replace(http.host, "b", "a")', {
      expression: 'rewrite',
      regexEngine: engine,
    });
    if (!rewrite.ok) throw new Error(rewrite.diagnostics[0]?.message);
    expect(rewrite.filter.value(withFields({ 'http.host': 'abc' }))).toBe('aac');
    expect(patterns).toEqual(['^a+$', 'b']);
  });

  it('keeps each filter on its own engine, whatever was compiled since', () => {
    const first = recording();
    const own = compile('http.host matches "x"', { regexEngine: first.engine });
    // The default engine (RE2) runs what the JavaScript translation refuses (a capture in a repetition).
    const later = compile('regex_replace(http.host, "(a)+", "x")', { expression: 'rewrite' });
    if (!own.ok || !later.ok) throw new Error('invalid');
    expect(later.filter.value(withFields({ 'http.host': 'aaa.b' }))).toBe('x.b');
    expect(own.filter.match(withFields({ 'http.host': 'axe' }))).toBe(true);
    expect(first.patterns).toEqual(['x']);
  });

  it("reports a pattern the engine refuses as the engine's diagnostic", () => {
    const compiled = compile('http.host matches "(?u)\\w"', { regexEngine: javascriptRegexEngine });
    expect(compiled.ok).toBe(false);
    expect(compiled.diagnostics.map((d) => d.code)).toContain('regex-unsupported');
  });

  it("reports regex_replace's pattern that the engine refuses as regex-unsupported, over the call", () => {
    const source = 'regex_replace(http.host, "(?u)\\\\w", "x")';
    const compiled = compile(source, { expression: 'rewrite', regexEngine: javascriptRegexEngine });
    expect(compiled.ok).toBe(false);
    expect(compiled.diagnostics.map((d) => [d.severity, d.code, d.span.start, d.span.end])).toEqual([
      ['error', 'regex-unsupported', 0, source.length],
    ]);
  });

  it('reports a call its implementation cannot prepare as call-unsupported, not as a regex problem', () => {
    // A wildcard_replace whose signature does not mark the pattern: the checker lets `\b` through, and the
    // implementation refuses it when the filter is compiled. No regular expression is involved.
    const bytes = (name: string, kind: 'field' | 'literal') => ({ name, kind, types: ['Bytes' as const] });
    const scheme = defineScheme({
      fields: { host: 'Bytes' },
      functions: {
        wildcard_replace: {
          params: [bytes('source', 'field'), bytes('pattern', 'literal'), bytes('replacement', 'literal')],
          returns: 'Bytes',
          description: 'declared without its pattern check',
        },
      },
    });
    const call = 'wildcard_replace(host, "a\\\\b", "x")';
    const compiled = compile(`${call} eq "x"`, { scheme });
    expect(compiled.ok).toBe(false);
    expect(compiled.diagnostics).toMatchObject([
      {
        severity: 'error',
        code: 'call-unsupported',
        message:
          'cfrules cannot evaluate this call of wildcard_replace: wildcard_replace: invalid wildcard: wildcard syntax error at position 1: invalid escape sequence',
        span: { start: 0, end: call.length },
      },
    ]);
  });
});

describe('edge cases found in review', () => {
  it('matches `true` whatever the input', () => {
    expect(evaluate('true', new Map())).toBe(true);
    expect(evaluate('true', withFields({}))).toBe(true);
  });

  it("reads a custom scheme's own field named `true`: only the catalogue's `true` is a constant", () => {
    const scheme = defineScheme({ fields: { true: 'Bool' } });
    expect(evaluate('true', new Map([['true', false]]), { scheme })).toBe(false);
    const read = readSampleRequest({ fields: { true: false } }, scheme);
    if (!read.ok) throw new Error(read.problems[0]?.message);
    expect(evaluate('true', read.request, { scheme })).toBe(false);
    expect(readSampleRequest({ fields: { true: false } }).ok).toBe(false);
  });

  it('reports, rather than throws, a valid pattern that RE2 cannot run', () => {
    const compiled = compile('http.host matches "[a-z&&[^aeiou]]"');
    expect(compiled.ok).toBe(false);
    expect(compiled.diagnostics.map((d) => [d.severity, d.code])).toContainEqual([
      'error',
      'regex-unsupported',
    ]);
  });

  it('runs regex_replace with RE2', () => {
    const compiled = compile('regex_replace(http.host, "(a)+", "x")', { expression: 'rewrite' });
    if (!compiled.ok) throw new Error(compiled.diagnostics[0]?.message);
    expect(compiled.filter.value(withFields({ 'http.host': 'aaa.example' }))).toBe('x.example');
  });

  it('refuses a context made for another scheme', () => {
    const scheme = defineScheme({ fields: { b: 'Bytes' } });
    const own = compile('b eq "B"', { scheme });
    const cloudflare = compile('http.host eq "B"');
    if (!own.ok || !cloudflare.ok) throw new Error('invalid');
    const ctx = own.filter.context(new Map([['b', 'B']]));
    expect(own.filter.match(ctx)).toBe(true);
    expect(() => cloudflare.filter.match(ctx)).toThrow('another scheme');
  });
});

describe('names that are also Object.prototype members', () => {
  it('treats a list named __proto__ or constructor as any other list', () => {
    const listItems = { constructor: ['192.0.2.1'] };
    // Given listItems, $__proto__ is not among them (Object.prototype does not count): an unknown list.
    expect(compile('ip.src in $__proto__', { listItems }).diagnostics[0]?.code).toBe('unknown-list');
    const empty = { lists: Object.fromEntries([['__proto__', 'ip' as const]]), listItems }; // declared, no items
    expect(matches('ip.src in $__proto__', { 'ip.src': '192.0.2.1' }, empty)).toBe(false);
    expect(matches('ip.src in $constructor', { 'ip.src': '192.0.2.1' }, { listItems })).toBe(true);
    expect(matches('ip.src in $tostring', { 'ip.src': '192.0.2.1' })).toBe(false);
  });
});

describe('JWT claims (API Shield JWT validation)', () => {
  // As Cloudflare's JWT validation docs read a claim: the claims of the token validated by one token
  // configuration, as JSON text, looked up by key.
  const claims = {
    'http.request.jwt.claims': {
      '8b2f5bd6-1c1a-4f80-9b0e-3a5ef7a3d3c1': [
        '{"sub":"user-42","roles":["admin","dev"],"tier":{"name":"gold"}}',
      ],
    },
  };
  it('reads a claim with lookup_json_string', () => {
    const rule =
      'lookup_json_string(http.request.jwt.claims["8b2f5bd6-1c1a-4f80-9b0e-3a5ef7a3d3c1"][0], "sub") eq "user-42"';
    expect(validate(rule, { plan: 'enterprise', phase: 'http_request_firewall_custom' }).ok).toBe(true);
    expect(matches(rule, claims)).toBe(true);
    expect(matches(rule.replace('user-42', 'user-7'), claims)).toBe(false);
    expect(matches(rule, {})).toBe(false);
    const nested =
      'lookup_json_string(http.request.jwt.claims["8b2f5bd6-1c1a-4f80-9b0e-3a5ef7a3d3c1"][0], "tier", "name") eq "gold"';
    expect(matches(nested, claims)).toBe(true);
    const indexed =
      'lookup_json_string(http.request.jwt.claims["8b2f5bd6-1c1a-4f80-9b0e-3a5ef7a3d3c1"][0], "roles", 1) eq "dev"';
    expect(matches(indexed, claims)).toBe(true);
  });
  it('is an Enterprise field (with the JWT validation add-on)', () => {
    const result = validate('http.request.jwt.claims["a"][0] contains "x"', { plan: 'business' });
    expect(result.diagnostics.map((d) => d.message)).toEqual([
      'field http.request.jwt.claims is not available on the Business plan (requires Enterprise with API Shield JWT validation)',
    ]);
  });
});
