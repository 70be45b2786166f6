// The Rules products' phases in the Rulesets API (issue 28, item 1 at zone level): an entry point of each
// phase written, read and versioned, and each action's parameters checked as Cloudflare's schema has them.
import { describe, expect, it } from 'vitest';
import type { RulesetJson } from '../../src/service/rulesets/model.js';
import { freshHarnessPerTest, type Harness, ZONES, zonePath } from './harness.js';
import { RULE_OF_PHASE } from './phase-rules.js';
import { expectFailure } from './requests.js';

let h: Harness;
freshHarnessPerTest((fresh) => {
  h = fresh;
});

const Z = ZONES.enterprise;
const entry = (zone: string, phase: string, rest = '') =>
  zonePath(zone, `/rulesets/phases/${phase}/entrypoint${rest}`);

async function put(phase: string, rules: unknown[], zone: string = Z) {
  return h.call({ method: 'PUT', url: entry(zone, phase), payload: { rules } });
}

describe('the Rules products phases', () => {
  it('an entry point of every phase is written, read back as written, and versioned', async () => {
    for (const [phase, rule] of Object.entries(RULE_OF_PHASE)) {
      const written = await put(phase, [rule]);
      expect(written.body.errors, phase).toEqual([]);
      const ruleset = written.body.result as RulesetJson;
      expect(ruleset).toMatchObject({ kind: 'zone', phase, version: '1' });
      expect(ruleset.rules?.[0]).toMatchObject(rule);
      const read = await h.call({ url: entry(Z, phase) });
      expect(read.body.result).toEqual(ruleset);
      await put(phase, [rule, { ...rule, description: 'twice' }]);
      const versions = (await h.call({ url: entry(Z, phase, '/versions') })).body.result as RulesetJson[];
      expect(versions.map((v) => v.version).sort()).toEqual(['1', '2']);
    }
  });

  it("takes the older forms clients still send: provider 4's uri.origin, a cache key's list of parameters", async () => {
    const rewrite = {
      ...RULE_OF_PHASE.http_request_transform,
      action_parameters: { uri: { path: { value: '/new' }, origin: false } },
    };
    const cache = {
      ...RULE_OF_PHASE.http_request_cache_settings,
      action_parameters: {
        cache: true,
        cache_key: { custom_key: { query_string: { exclude: ['*'] }, user: { device_type: true } } },
      },
    };
    for (const [phase, rule] of [
      ['http_request_transform', rewrite],
      ['http_request_cache_settings', cache],
    ] as const) {
      const written = await put(phase, [rule]);
      expect(written.body.errors, phase).toEqual([]);
      expect((written.body.result as RulesetJson).rules?.[0]).toMatchObject(rule);
    }
    // Neither form: refused by what the current form says.
    const neither = await put('http_request_cache_settings', [
      { ...cache, action_parameters: { cache_key: { custom_key: { query_string: { include: 'all' } } } } },
    ]);
    expectFailure(neither, 400, 20217);
    expect(neither.body.errors[0].source?.pointer).toBe(
      '/rules/0/action_parameters/cache_key/custom_key/query_string/include',
    );
  });

  it('refuses an action the phase does not take', async () => {
    const redirect = RULE_OF_PHASE.http_request_dynamic_redirect;
    const refused = await put('http_request_transform', [redirect]);
    expectFailure(refused, 400, 20217);
    expect(refused.body.errors[0]).toMatchObject({ source: { pointer: '/rules/0/action' } });
    expectFailure(await put('http_request_origin', [{ action: 'block', expression: 'true' }]), 400, 20217);
  });

  it('checks parameters member by member, pointing at the member, and stores nothing refused', async () => {
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      [
        'http_request_dynamic_redirect',
        { from_value: { status_code: 304, target_url: { value: 'https://example.com/' } } },
        '/rules/0/action_parameters/from_value/status_code',
        /'304' is not a valid value for status_code because it must be one of 301, 302, 303, 307, 308/,
      ],
      [
        'http_request_dynamic_redirect',
        { from_value: { target_url: { value: 'https://a.example', expression: 'http.host' } } },
        '/rules/0/action_parameters/from_value/target_url',
        /exactly one of value, expression/,
      ],
      [
        'http_request_origin',
        { origin: { port: 70000 } },
        '/rules/0/action_parameters/origin/port',
        /because it must be from 1 to 65535/,
      ],
      [
        'http_config_settings',
        { security_level: 'paranoid' },
        '/rules/0/action_parameters/security_level',
        /must be one of off, essentially_off, low, medium, high, under_attack/,
      ],
      [
        'http_config_settings',
        { disable_zaraz: false },
        '/rules/0/action_parameters/disable_zaraz',
        /it can only be true/,
      ],
      [
        'http_request_cache_settings',
        { edge_ttl: { default: 60 } },
        '/rules/0/action_parameters/edge_ttl/mode',
        /mode is required/,
      ],
      [
        'http_response_headers_transform',
        { uri: { path: { value: '/x' } } },
        '/rules/0/action_parameters/uri',
        /uri is not a field cfrules knows here: use headers/,
      ],
      [
        'http_request_transform',
        { headers: { 'x-a': { operation: 'remove', value: '1' } } },
        '/rules/0/action_parameters/headers/x-a',
        /the remove operation takes neither value nor expression/,
      ],
      [
        'http_request_transform',
        { headers: { 'bad header': { operation: 'remove' } } },
        '/rules/0/action_parameters/headers/bad header',
        /is not a header name/,
      ],
      [
        'http_response_compression',
        { algorithms: [{ name: 'lzma' }] },
        '/rules/0/action_parameters/algorithms/0/name',
        /must be one of none, auto, default, gzip, brotli, zstd/,
      ],
      [
        'http_custom_errors',
        { content: 'x', status_code: 302 },
        '/rules/0/action_parameters/status_code',
        /must be from 400 to 999/,
      ],
    ];
    for (const [phase, parameters, pointer, message] of cases) {
      const rule = { ...RULE_OF_PHASE[phase], action_parameters: parameters };
      const refused = await put(phase, [rule]);
      expectFailure(refused, 400, 20217);
      expect(refused.body.errors[0].source?.pointer, `${phase} ${pointer}`).toBe(pointer);
      expect(refused.body.errors[0].message).toMatch(message);
      // Nothing was stored: the phase still has no entry point.
      expectFailure(await h.call({ url: entry(Z, phase) }), 404, 10003);
    }
  });

  it('checks the expressions of parameters as rewrite expressions of the phase', async () => {
    const rule = (parameters: Record<string, unknown>) => ({
      ...RULE_OF_PHASE.http_request_transform,
      action_parameters: parameters,
    });
    const broken = await put('http_request_transform', [
      rule({ uri: { path: { expression: 'concat("/a", ' } } }),
    ]);
    expectFailure(broken, 400, 20217);
    expect(broken.body.errors[0]).toMatchObject({
      source: { pointer: '/rules/0/action_parameters/uri/path/expression' },
    });
    expect(broken.body.errors[0].message).toMatch(
      /is not a valid value for expression because the expression is invalid: Filter parsing error/,
    );
    // A response field is not known when the request is transformed.
    const responseField = await put('http_request_transform', [
      rule({ headers: { 'x-code': { operation: 'set', expression: 'to_string(http.response.code)' } } }),
    ]);
    expectFailure(responseField, 400, 20217);
    expect(responseField.body.errors[0].message).toMatch(/http\.response\.code/);
  });

  it('holds each phase to its plan: custom log fields are for Enterprise zones only', async () => {
    const refused = await put('http_log_custom_fields', [RULE_OF_PHASE.http_log_custom_fields], ZONES.pro);
    expectFailure(refused, 400, 20208);
    expect(refused.body.errors[0].message).toMatch(/the Pro plan allows 0 rules/);
  });
});
