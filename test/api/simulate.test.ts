// POST /zones/{zone_id}/simulate (a cfrules extension, docs/api.md §12) over HTTP (fastify.inject): the
// body's checks with their JSON pointers, the limit, who may call it, and the simulations themselves
// against what the zone stores, as it changes.
import { describe, expect, it } from 'vitest';
import { CODES } from '../../src/service/errors.js';
import { freshHarnessPerTest, type Harness, OTHER_TOKEN, ZONES, zonePath } from './harness.js';

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

describe('POST /zones/{zone_id}/simulate', () => {
  it('refuses a token that does not reach the zone', async () => {
    const refused = await simulate({ request: admin }, OTHER_TOKEN);
    expect(refused.status).toBe(403);
    expect(refused.body.success).toBe(false);
    expect(refused.body.errors[0]?.code).toBe(CODES.notPermitted);
  });

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

  it('simulates requests against the stored firewall rules and entry points, and sees changes', async () => {
    const created = await h.call({
      method: 'POST',
      url: zonePath(Z, '/firewall/rules'),
      payload: [
        {
          action: 'block',
          ref: 'admin-block',
          filter: { expression: 'starts_with(http.request.uri.path, "/admin")' },
        },
      ],
    });
    expect(created.status).toBe(200);
    const one = await simulate({ request: admin });
    expect(one.status).toBe(200);
    expect(one.body.result).toMatchObject({
      action: 'block',
      decidedBy: { ref: 'admin-block', stage: 'firewall_rules' },
    });
    expect(one.body.result.trace[0]).toMatchObject({ name: 'firewall_rules', status: 'evaluated' });

    const entryPoint = await h.call({
      method: 'PUT',
      url: zonePath(Z, '/rulesets/phases/http_request_firewall_managed/entrypoint'),
      payload: {
        rules: [
          {
            action: 'execute',
            expression: 'true',
            action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' },
          },
        ],
      },
    });
    expect(entryPoint.status).toBe(200);
    const sqli = request('/p?id=1%20UNION%20SELECT%20password%20FROM%20users');
    const many = await simulate({ requests: [page, sqli], trace: false });
    expect(many.status).toBe(200);
    expect(many.body.result.map((r: { action: string }) => r.action)).toEqual(['none', 'block']);
    // The zone has not migrated: its previous WAF runs, and the new WAF's entry point waits for the
    // migration (GET …/waf_migration/status says new_waf_status: disabled).
    expect(many.body.result[1]).toMatchObject({
      decidedBy: { stage: 'previous_waf' },
      trace: [],
    });
  });
});
