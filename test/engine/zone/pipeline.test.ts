import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileZone, type SimulationResult } from '../../../src/engine/index.js';
import { readSampleRequest, type SampleRequest } from '../../../src/request/index.js';

// The request pipeline (docs/engine.md, "The request pipeline"): what the Rules products' phases do to the
// request the later phases see, and the account's rulesets before the zone's.

function request(json: Record<string, unknown>): SampleRequest {
  const read = readSampleRequest({ method: 'GET', headers: [['User-Agent', 'curl/8.5.0']], ...json });
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  return read.request;
}

const entryPoint = (phase: string, rules: Record<string, unknown>[], kind = 'zone') => ({
  id: `${kind}-${phase}`,
  kind,
  phase,
  rules,
});

function compiled(zone: Record<string, unknown>) {
  const result = compileZone(zone);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  expect(result.warnings).toEqual([]);
  return result.zone;
}

function problems(zone: Record<string, unknown>) {
  const result = compileZone(zone);
  if (result.ok) throw new Error('the zone compiled');
  return result.problems.map(({ path, code }) => ({ path, code }));
}

const stageNames = (result: SimulationResult) => result.trace.map((stage) => `${stage.name}:${stage.status}`);

describe('redirects', () => {
  const zone = compiled({
    rulesets: [
      entryPoint('http_request_dynamic_redirect', [
        {
          id: 'moved',
          action: 'redirect',
          expression: 'http.request.uri.path eq "/old"',
          action_parameters: {
            from_value: { target_url: { value: 'https://example.com/new' }, preserve_query_string: true },
          },
        },
        {
          id: 'per-user',
          action: 'redirect',
          expression: 'starts_with(http.request.uri.path, "/u/")',
          action_parameters: {
            from_value: { status_code: 302, target_url: { expression: 'http.request.headers["x-home"][0]' } },
          },
        },
      ]),
      entryPoint('http_request_firewall_custom', [{ id: 'all', action: 'block', expression: 'true' }]),
    ],
  });

  it('ends the request before the security phases, with the query kept when asked, 301 by default', () => {
    const result = zone.simulate(request({ url: 'https://example.com/old?a=1&b=2' }));
    expect(result).toMatchObject({
      action: 'redirect',
      decidedBy: { id: 'moved', stage: 'http_request_dynamic_redirect' },
      redirect: { url: 'https://example.com/new?a=1&b=2', status: 301 },
    });
    expect(stageNames(result)).toContain('http_request_firewall_custom:not_reached');
  });

  it('a target from an expression; a request it has no value for goes on, and the trace says why', () => {
    const tenant = request({
      url: 'https://example.com/u/1',
      headers: [['X-Home', 'https://acme.example.com/']],
    });
    expect(zone.simulate(tenant).redirect).toEqual({ url: 'https://acme.example.com/', status: 302 });
    const result = zone.simulate(request({ url: 'https://example.com/u/1' }));
    expect(result).toMatchObject({ action: 'block', decidedBy: { id: 'all' } });
    expect(result.trace[0]?.trace[0]).toMatchObject({
      trace: [
        { id: 'moved', matched: false },
        { id: 'per-user', matched: true, unknown: expect.stringContaining('no value') },
      ],
    });
  });

  it('a Bulk Redirect list is named as what cfrules cannot know, and the request goes on', () => {
    const compiledListed = compileZone({
      rulesets: [
        entryPoint('http_request_dynamic_redirect', [
          {
            id: 'bulk',
            action: 'redirect',
            expression: 'true',
            action_parameters: { from_list: { name: 'redirects', key: 'http.request.full_uri' } },
          },
        ]),
      ],
    });
    if (!compiledListed.ok) throw new Error(JSON.stringify(compiledListed.problems));
    expect(compiledListed.warnings).toEqual([
      expect.objectContaining({
        path: '/rulesets/0/rules/0/action_parameters/from_list',
        code: 'not-simulated',
      }),
    ]);
    const result = compiledListed.zone.simulate(request({ url: 'https://example.com/' }));
    expect(result.action).toBe('none');
    expect(result.trace[0]?.trace[0]).toMatchObject({
      trace: [
        { id: 'bulk', matched: true, unknown: expect.stringContaining('Bulk Redirect list redirects') },
      ],
    });
  });
});

describe('URL rewrites and header modifications', () => {
  const zone = compiled({
    rulesets: [
      entryPoint('http_request_transform', [
        {
          id: 'v1',
          action: 'rewrite',
          expression: 'starts_with(http.request.uri.path, "/v1/")',
          action_parameters: {
            uri: { path: { expression: 'regex_replace(http.request.uri.path, "^/v1/", "/v2/")' } },
          },
        },
        // A later rule of the same phase sees the rewritten path.
        {
          id: 'drop-query',
          action: 'rewrite',
          expression: 'starts_with(http.request.uri.path, "/v2/")',
          action_parameters: { uri: { query: { value: '' } } },
        },
      ]),
      entryPoint('http_request_firewall_custom', [
        {
          id: 'tracking',
          action: 'block',
          expression: 'any(http.request.uri.args.names[*] eq "utm_source")',
        },
        { id: 'debug', action: 'log', expression: 'any(http.request.headers["x-debug"][*] eq "1")' },
      ]),
      entryPoint('http_request_late_transform', [
        {
          id: 'headers',
          action: 'rewrite',
          expression: 'true',
          action_parameters: {
            headers: {
              'X-Debug': { operation: 'remove' },
              'X-Path': { operation: 'set', expression: 'http.request.uri.path' },
              'X-Seen': { operation: 'add', value: 'edge' },
            },
          },
        },
      ]),
      // After the header modifications: the header set there is seen here.
      entryPoint('http_request_cache_settings', [
        {
          id: 'cache',
          action: 'set_cache_settings',
          expression: 'http.request.headers["x-path"][0] eq "/v2/a"',
          action_parameters: { cache: false },
        },
      ]),
    ],
  });

  const v1 = request({
    url: 'https://example.com/v1/a?utm_source=mail',
    headers: [
      ['User-Agent', 'curl/8.5.0'],
      ['X-Debug', '1'],
      ['X-Seen', 'client'],
    ],
  });

  it('later rules and phases see the rewritten request; an empty query removes it', () => {
    const result = zone.simulate(v1);
    // The tracking rule would have blocked the query as sent.
    expect(result.action).toBe('none');
    expect(result.matched.map((rule) => rule.id)).toEqual(['v1', 'drop-query', 'debug', 'headers', 'cache']);
    expect(result.rewritten).toEqual({
      url: 'https://example.com/v2/a',
      path: '/v2/a',
      headers: [
        ['User-Agent', 'curl/8.5.0'],
        ['X-Seen', 'client'],
        ['X-Path', '/v2/a'],
        ['X-Seen', 'edge'],
      ],
    });
    expect(result.settings).toEqual({ cache: { cache: false } });
  });

  it('the trace gives each change before and after', () => {
    const result = zone.simulate(v1);
    const late = result.trace.find((stage) => stage.name === 'http_request_late_transform');
    expect(late?.trace[0]).toMatchObject({
      trace: [
        {
          id: 'headers',
          changes: [
            { target: 'http.request.headers["x-debug"]', before: '1' },
            { target: 'http.request.headers["x-path"]', after: '/v2/a' },
            { target: 'http.request.headers["x-seen"]', before: 'client', after: 'client, edge' },
          ],
        },
      ],
    });
  });

  it('the same decisions without a trace (replay), and rule by rule', () => {
    const requests = [
      v1,
      request({ url: 'https://example.com/v1/b' }),
      request({ url: 'https://example.com/x?utm_source=1' }),
    ];
    const ruleByRule = zone.ruleByRule();
    for (const sample of requests) {
      const traced = zone.simulate(sample);
      for (const other of [
        zone.simulate(sample, { trace: false }),
        ruleByRule.simulate(sample, { trace: false }),
      ]) {
        expect(other.action).toBe(traced.action);
        expect(other.matched).toEqual(traced.matched);
        expect(other.rewritten).toEqual(traced.rewritten);
        expect(other.settings).toEqual(traced.settings);
      }
    }
  });

  it('a blocked request does not reach the phases after the security checks', () => {
    const result = zone.simulate(request({ url: 'https://example.com/x?utm_source=1' }));
    expect(result.action).toBe('block');
    expect(stageNames(result)).toEqual(
      expect.arrayContaining([
        'http_request_late_transform:not_reached',
        'http_request_cache_settings:not_reached',
      ]),
    );
    expect(result.rewritten).toBeUndefined();
  });
});

describe('the response phases', () => {
  const zone = compiled({
    rulesets: [
      entryPoint('http_custom_errors', [
        {
          id: 'friendly-500',
          action: 'serve_error',
          expression: 'http.response.code ge 500',
          action_parameters: { content: '<p>Back soon</p>', content_type: 'text/html', status_code: 503 },
        },
        {
          // Not run once a custom error is served: the first matching rule's error is the response.
          id: 'any-error',
          action: 'serve_error',
          expression: 'http.response.code ge 400',
          action_parameters: { content: 'x', status_code: 418 },
        },
      ]),
      entryPoint('http_response_headers_transform', [
        {
          id: 'harden',
          action: 'rewrite',
          // Sees the custom error's status, and the origin's headers through raw.
          expression: 'http.response.code eq 503 and any(raw.http.response.headers.names[*] eq "Server")',
          action_parameters: {
            headers: {
              Server: { operation: 'remove' },
              'X-Frame-Options': { operation: 'set', value: 'DENY' },
            },
          },
        },
      ]),
      entryPoint('http_response_compression', [
        {
          id: 'brotli',
          action: 'compress_response',
          expression: 'http.response.content_type.media_type eq "text/html"',
          action_parameters: { algorithms: [{ name: 'brotli' }] },
        },
      ]),
    ],
  });

  it('run on the response the request gives: a custom error, then header changes, then compression', () => {
    const failing = request({
      url: 'https://example.com/',
      response: {
        status: 502,
        headers: [
          ['Server', 'nginx'],
          ['Content-Type', 'text/plain'],
        ],
      },
    });
    const result = zone.simulate(failing);
    expect(result.matched.map((rule) => rule.id)).toEqual(['friendly-500', 'harden', 'brotli']);
    expect(result.response).toEqual({
      status: 503,
      headers: [
        ['Content-Type', 'text/html'],
        ['X-Frame-Options', 'DENY'],
      ],
    });
    expect(result.settings).toEqual({ compression: { algorithms: [{ name: 'brotli' }] } });
  });

  it('a request without a response does not run them, and says so', () => {
    const result = zone.simulate(request({ url: 'https://example.com/' }));
    expect(stageNames(result).filter((stage) => stage.startsWith('http_'))).toEqual([
      'http_request_firewall_custom:off',
      'http_ratelimit:off',
      'http_request_firewall_managed:off',
      'http_custom_errors:no_response',
      'http_response_headers_transform:no_response',
      'http_response_compression:no_response',
    ]);
    expect(result.response).toBeUndefined();
  });

  it('a response that no rule changes is not reported as changed', () => {
    const fine = zone.simulate(request({ url: 'https://example.com/', response: { status: 200 } }));
    expect(fine.matched).toEqual([]);
    expect(fine.response).toBeUndefined();
  });
});

describe('settings', () => {
  it('each key as the last matching rule of the phase set it', () => {
    const zone = compiled({
      rulesets: [
        entryPoint('http_config_settings', [
          {
            id: 'a',
            action: 'set_config',
            expression: 'true',
            action_parameters: { security_level: 'high', rocket_loader: false },
          },
          { id: 'b', action: 'set_config', expression: 'true', action_parameters: { security_level: 'off' } },
        ]),
        entryPoint('http_request_origin', [
          {
            id: 'o',
            action: 'route',
            expression: 'true',
            action_parameters: { host_header: 'origin.example.net', origin: { port: 8443 } },
          },
        ]),
      ],
    });
    expect(zone.simulate(request({ url: 'https://example.com/' })).settings).toEqual({
      config: { security_level: 'off', rocket_loader: false },
      origin: { host_header: 'origin.example.net', origin: { port: 8443 } },
    });
  });
});

describe("the account's rulesets", () => {
  const account = (scope: string) => [
    entryPoint(
      'http_request_firewall_custom',
      [{ id: 'deploy', action: 'execute', expression: scope, action_parameters: { id: 'baseline' } }],
      'root',
    ),
    {
      id: 'baseline',
      kind: 'custom',
      phase: 'http_request_firewall_custom',
      rules: [{ id: 'dotfiles', action: 'block', expression: 'http.request.uri.path contains "/."' }],
    },
  ];
  const zoneRules = entryPoint('http_request_firewall_custom', [
    { id: 'zone-log', action: 'log', expression: 'true' },
  ]);
  const dotfile = request({ url: 'https://example.com/.env' });

  it('run before the zone rules of the same phase, scoped by the zone name the zone file gives', () => {
    const zone = compiled({
      name: 'example.com',
      account_rulesets: account('cf.zone.name eq "example.com"'),
      rulesets: [zoneRules],
    });
    const result = zone.simulate(dotfile);
    expect(result).toMatchObject({ action: 'block', decidedBy: { id: 'dotfiles', ruleset: 'baseline' } });
    expect(result.matched.map((rule) => rule.id)).toEqual(['deploy', 'dotfiles']);
    expect(result.trace.find((stage) => stage.name === 'http_request_firewall_custom')?.trace).toMatchObject([
      { type: 'ruleset', id: 'root-http_request_firewall_custom', kind: 'root' },
    ]);
    // Another zone of the account is out of the scope: the zone's own rules run.
    const other = compiled({
      name: 'example.org',
      account_rulesets: account('cf.zone.name eq "example.com"'),
      rulesets: [zoneRules],
    });
    expect(other.simulate(dotfile).matched.map((rule) => rule.id)).toEqual(['zone-log']);
  });

  it('a request that names its zone wins over the zone file', () => {
    const zone = compiled({
      name: 'example.org',
      account_rulesets: account('cf.zone.name eq "example.com"'),
    });
    const named = request({ url: 'https://example.com/.env', fields: { 'cf.zone.name': 'example.com' } });
    expect(zone.simulate(named).action).toBe('block');
  });

  it("are checked: entry points of kind root only, execute of the account's own custom rulesets", () => {
    expect(
      problems({
        account_rulesets: [
          { ...entryPoint('http_request_firewall_custom', [], 'zone'), id: 'account-entry' },
        ],
        rulesets: [
          entryPoint('http_request_firewall_custom', [
            { id: 'x', action: 'execute', expression: 'true', action_parameters: { id: 'baseline' } },
          ]),
        ],
      }),
    ).toEqual([
      { path: '/account_rulesets/0/kind', code: 'invalid-value' },
      { path: '/rulesets/0/rules/0/action_parameters/id', code: 'unknown-ruleset' },
    ]);
  });
});

describe('action parameters are checked where the engine reads them', () => {
  it('with the JSON pointer of each mistake', () => {
    expect(
      problems({
        rulesets: [
          entryPoint('http_request_transform', [
            {
              id: 'both',
              action: 'rewrite',
              expression: 'true',
              action_parameters: { uri: { path: { value: '/a', expression: '"/b"' } } },
            },
            {
              id: 'bad-expression',
              action: 'rewrite',
              expression: 'true',
              action_parameters: { uri: { query: { expression: 'concat(' } } },
            },
          ]),
          entryPoint('http_request_dynamic_redirect', [
            {
              id: 'status',
              action: 'redirect',
              expression: 'true',
              action_parameters: { from_value: { status_code: 200, target_url: { value: '/' } } },
            },
            { id: 'nothing', action: 'redirect', expression: 'true' },
          ]),
          entryPoint('http_request_late_transform', [
            {
              id: 'op',
              action: 'rewrite',
              expression: 'true',
              action_parameters: { headers: { 'x-a': { operation: 'replace', value: '1' } } },
            },
          ]),
        ],
      }),
    ).toEqual([
      { path: '/rulesets/0/rules/0/action_parameters/uri/path', code: 'invalid-value' },
      { path: '/rulesets/0/rules/1/action_parameters/uri/query/expression', code: 'invalid-expression' },
      { path: '/rulesets/1/rules/0/action_parameters/from_value/status_code', code: 'invalid-value' },
      { path: '/rulesets/1/rules/1/action_parameters', code: 'invalid-value' },
      { path: '/rulesets/2/rules/0/action_parameters/headers/x-a', code: 'invalid-value' },
    ]);
  });
});

describe('the example zone', () => {
  it("runs every request phase it has, in Cloudflare's order", () => {
    const zone = compiled(
      JSON.parse(readFileSync(new URL('../../../examples/zone/zone.json', import.meta.url), 'utf8')),
    );
    const result = zone.simulate(request({ url: 'https://example.com/api/v1/orders' }));
    expect(result.trace.map((stage) => stage.name)).toEqual([
      'http_request_dynamic_redirect',
      'http_request_transform',
      'firewall_rules',
      'http_request_firewall_custom',
      'http_ratelimit',
      'http_request_firewall_managed',
      'previous_waf',
      'http_request_late_transform',
      'http_request_cache_settings',
    ]);
  });
});
