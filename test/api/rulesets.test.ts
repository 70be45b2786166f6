// The Rulesets API over HTTP (fastify.inject): every endpoint, its answer and envelope, its errors with
// their statuses and codes, credentials (read vs edit), and that refused writes change nothing.
import { describe, expect, it } from 'vitest';
import { CLOUDFLARE_MANAGED_RULESET_ID, OWASP_RULESET_ID } from '../../src/engine/managed/index.js';
import type { RulesetJson } from '../../src/service/rulesets/model.js';
import {
  freshHarnessPerTest,
  type Harness,
  OTHER_TOKEN,
  READ_TOKEN,
  SCOPED_TOKEN,
  ZONES,
  zonePath,
} from './harness.js';
import { expectFailure, ID } from './requests.js';

let h: Harness;
freshHarnessPerTest((fresh) => {
  h = fresh;
});

const Z = ZONES.enterprise;
const CUSTOM = 'http_request_firewall_custom';
const MANAGED = 'http_request_firewall_managed';
const rulesets = (zone: string, rest = '') => zonePath(zone, `/rulesets${rest}`);
const entry = (zone: string, phase: string, rest = '') =>
  rulesets(zone, `/phases/${phase}/entrypoint${rest}`);
const block = (expression = 'ip.src eq 192.0.2.1') => ({ action: 'block', expression });

async function ok(request: Parameters<Harness['call']>[0]): Promise<RulesetJson> {
  const response = await h.call(request);
  expect(response.body.errors).toEqual([]);
  expect(response.status).toBe(200);
  expect(response.body).toMatchObject({ success: true, messages: [] });
  return response.body.result;
}

const createCustom = (zone: string = Z, rules: object[] = [block()]) =>
  ok({
    method: 'POST',
    url: rulesets(zone),
    payload: { name: 'mine', kind: 'custom', phase: CUSTOM, rules },
  });

/** Every ruleset of the zone at every version, to compare before and after a refused request. */
async function everything(zone: string = Z) {
  const list = (await h.call({ url: rulesets(zone, '?per_page=500') })).body.result as RulesetJson[];
  const out: unknown[] = [];
  for (const ruleset of list.filter((r) => r.kind !== 'managed')) {
    const versions = (await h.call({ url: rulesets(zone, `/${ruleset.id}/versions`) })).body
      .result as RulesetJson[];
    for (const v of versions)
      out.push((await h.call({ url: rulesets(zone, `/${ruleset.id}/versions/${v.version}`) })).body.result);
  }
  return out;
}

describe('rulesets', () => {
  it('POST creates, GET reads, PUT replaces, DELETE answers 204 and removes', async () => {
    const created = await createCustom();
    expect(created).toMatchObject({ kind: 'custom', phase: CUSTOM, version: '1', name: 'mine' });
    expect(created.id).toMatch(ID);
    expect(await ok({ url: rulesets(Z, `/${created.id}`) })).toEqual(created);
    const updated = await ok({
      method: 'PUT',
      url: rulesets(Z, `/${created.id}`),
      payload: { description: 'new', rules: [] },
    });
    expect(updated).toMatchObject({ version: '2', description: 'new', rules: [] });
    const deleted = await h.app.inject({
      method: 'DELETE',
      url: rulesets(Z, `/${created.id}`),
      headers: { authorization: `Bearer ${'T'.repeat(40)}` },
    });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expectFailure(await h.call({ url: rulesets(Z, `/${created.id}`) }), 404, 20200);
    expect((await h.call({ url: rulesets(Z, `/${created.id}`) })).body.errors[0]?.message).toMatch(
      /^could not find ruleset/,
    );
  });

  it("GET lists managed rulesets first, then the zone's, without rules, paged by cursor", async () => {
    const a = await createCustom();
    const b = await createCustom();
    const first = await h.call({ url: rulesets(Z, '?per_page=3') });
    expect(first.body.result.map((r: RulesetJson) => r.id)).toEqual([
      CLOUDFLARE_MANAGED_RULESET_ID,
      OWASP_RULESET_ID,
      a.id,
    ]);
    expect(first.body.result[0]).toMatchObject({
      kind: 'managed',
      source: 'firewall_managed',
      phase: MANAGED,
    });
    expect(first.body.result[2]).not.toHaveProperty('rules');
    expect(first.body.result_info).toEqual({ cursor: a.id });
    const second = await h.call({ url: rulesets(Z, `?per_page=3&cursor=${a.id}`) });
    expect(second.body.result.map((r: RulesetJson) => r.id)).toEqual([b.id]);
    expect(second.body.result_info).toEqual({});
    expectFailure(await h.call({ url: rulesets(Z, '?per_page=501') }), 400, 10001);
    expectFailure(await h.call({ url: rulesets(Z, '?cursor=zzz') }), 400, 10001);
  });

  it('refuses invalid bodies with 20217 and the pointer, storing nothing', async () => {
    const before = await everything();
    const response = await h.call({
      method: 'POST',
      url: rulesets(Z),
      payload: {
        name: 'x',
        kind: 'custom',
        phase: CUSTOM,
        rules: [block(), { action: 'execute', expression: 'true' }],
      },
    });
    expectFailure(response, 400, 20217);
    expect(response.body.errors[0]?.source).toEqual({ pointer: '/rules/1/action' });
    expectFailure(
      await h.call({
        method: 'POST',
        url: rulesets(Z),
        payload: '{"name":',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      6007,
    );
    expectFailure(
      await h.call({
        method: 'POST',
        url: rulesets(Z),
        payload: { name: 'x', kind: 'zone', phase: 'ddos_l7' },
      }),
      400,
      20207,
    );
    expect(await everything()).toEqual(before);
  });

  it('managed rulesets: readable whole, writes refused with 403 20203', async () => {
    const managed = await ok({ url: rulesets(Z, `/${OWASP_RULESET_ID}`) });
    expect(managed).toMatchObject({ kind: 'managed', version: '1' });
    expect(managed.rules?.length).toBeGreaterThan(10);
    expectFailure(
      await h.call({ method: 'PUT', url: rulesets(Z, `/${OWASP_RULESET_ID}`), payload: { rules: [] } }),
      403,
      20203,
    );
    expectFailure(await h.call({ method: 'DELETE', url: rulesets(Z, `/${OWASP_RULESET_ID}`) }), 403, 20203);
    expectFailure(
      await h.call({ method: 'POST', url: rulesets(Z, `/${OWASP_RULESET_ID}/rules`), payload: block() }),
      403,
      20203,
    );
    expect(
      ((await ok({ url: rulesets(Z, `/${OWASP_RULESET_ID}/versions`) })) as unknown as RulesetJson[]).map(
        (v) => v.version,
      ),
    ).toEqual(['1']);
  });

  it('answers 405 with Allow for a wrong method', async () => {
    const response = await h.call({ method: 'PATCH', url: rulesets(Z) });
    expectFailure(response, 405, 7001);
    expect(response.headers.allow).toBe('GET, POST');
  });
});

describe('rules of a ruleset', () => {
  it('POST adds at a position, PATCH edits and moves, DELETE removes; each answers the whole ruleset', async () => {
    const ruleset = await createCustom();
    const first = ruleset.rules?.[0]?.id as string;
    const added = await ok({
      method: 'POST',
      url: rulesets(Z, `/${ruleset.id}/rules`),
      payload: { ...block('true'), position: { before: first } },
    });
    expect(added.version).toBe('2');
    const second = added.rules?.[0]?.id as string;
    expect(added.rules?.map((r) => r.id)).toEqual([second, first]);

    const edited = await ok({
      method: 'PATCH',
      url: rulesets(Z, `/${ruleset.id}/rules/${second}`),
      payload: { description: 'd', position: { index: 2 } },
    });
    expect(edited.rules?.map((r) => [r.id, r.version])).toEqual([
      [first, '1'],
      [second, '2'],
    ]);

    const deleted = await ok({ method: 'DELETE', url: rulesets(Z, `/${ruleset.id}/rules/${first}`) });
    expect(deleted.rules?.map((r) => r.id)).toEqual([second]);
    expect(deleted.version).toBe('4');
  });

  it('unknown rulesets and rules are 404; invalid rules 400', async () => {
    const ruleset = await createCustom();
    const missing = 'f'.repeat(32);
    expectFailure(
      await h.call({ method: 'POST', url: rulesets(Z, `/${missing}/rules`), payload: block() }),
      404,
      20200,
    );
    expectFailure(
      await h.call({ method: 'PATCH', url: rulesets(Z, `/${ruleset.id}/rules/${missing}`), payload: {} }),
      404,
      20201,
    );
    expectFailure(
      await h.call({ method: 'DELETE', url: rulesets(Z, `/${ruleset.id}/rules/${missing}`) }),
      404,
      20201,
    );
    const bad = await h.call({
      method: 'POST',
      url: rulesets(Z, `/${ruleset.id}/rules`),
      payload: block('ip.src eq'),
    });
    expectFailure(bad, 400, 20217);
    expect(bad.body.errors[0]?.source).toEqual({ pointer: '/expression' });
    expect(bad.body.errors[0]?.message).toContain('Filter parsing error (1:10)');
    expect(await ok({ url: rulesets(Z, `/${ruleset.id}`) })).toEqual(ruleset);
  });
});

describe('versions', () => {
  it('lists, reads, deletes earlier versions (204); the latest and unknown ones are refused', async () => {
    const ruleset = await createCustom();
    await ok({ method: 'PUT', url: rulesets(Z, `/${ruleset.id}`), payload: { rules: [] } });
    const versions = (await h.call({ url: rulesets(Z, `/${ruleset.id}/versions`) })).body
      .result as RulesetJson[];
    expect(versions.map((v) => v.version)).toEqual(['1', '2']);
    expect(await ok({ url: rulesets(Z, `/${ruleset.id}/versions/1`) })).toEqual(ruleset);
    expectFailure(
      await h.call({ method: 'DELETE', url: rulesets(Z, `/${ruleset.id}/versions/2`) }),
      400,
      20205,
    );
    expect(
      (
        await h.app.inject({
          method: 'DELETE',
          url: rulesets(Z, `/${ruleset.id}/versions/1`),
          headers: { authorization: `Bearer ${'T'.repeat(40)}` },
        })
      ).statusCode,
    ).toBe(204);
    expectFailure(await h.call({ url: rulesets(Z, `/${ruleset.id}/versions/1`) }), 404, 20202);
    expectFailure(await h.call({ url: rulesets(Z, `/${ruleset.id}/versions/abc`) }), 404, 20202);
  });
});

describe('phase entry points', () => {
  it("a phase never written has no entry point: 404 10003 with Cloudflare's message", async () => {
    const response = await h.call({ url: entry(Z, CUSTOM) });
    expectFailure(response, 404, 10003);
    expect(response.body.errors[0]?.message).toBe(
      'could not find entrypoint ruleset in the http_request_firewall_custom phase',
    );
    expectFailure(await h.call({ url: entry(Z, CUSTOM, '/versions') }), 404, 10003);
    expectFailure(await h.call({ url: entry(Z, CUSTOM, '/versions/1') }), 404, 10003);
  });

  it('PUT creates (kind zone, version 1) then replaces; versions follow', async () => {
    const v1 = await ok({ method: 'PUT', url: entry(Z, CUSTOM), payload: { rules: [block()] } });
    expect(v1).toMatchObject({ kind: 'zone', phase: CUSTOM, version: '1', name: 'default' });
    const v2 = await ok({
      method: 'PUT',
      url: entry(Z, CUSTOM),
      payload: { rules: [...(v1.rules ?? []), block('true')] },
    });
    expect(v2.version).toBe('2');
    expect(v2.rules?.[0]).toEqual(v1.rules?.[0]);
    expect(await ok({ url: entry(Z, CUSTOM) })).toEqual(v2);
    expect(
      ((await h.call({ url: entry(Z, CUSTOM, '/versions') })).body.result as RulesetJson[]).map(
        (v) => v.version,
      ),
    ).toEqual(['1', '2']);
    expect(await ok({ url: entry(Z, CUSTOM, '/versions/1') })).toEqual(v1);
    // The entry point is also a ruleset by id.
    expect(await ok({ url: rulesets(Z, `/${v1.id}`) })).toEqual(v2);
  });

  it('rate limiting and managed phases; unsupported phases are 400 20207', async () => {
    const limit = {
      characteristics: ['ip.src', 'cf.colo.id'],
      period: 60,
      requests_per_period: 10,
      mitigation_timeout: 60,
    };
    await ok({
      method: 'PUT',
      url: entry(Z, 'http_ratelimit'),
      payload: { rules: [{ ...block(), ratelimit: limit }] },
    });
    await ok({
      method: 'PUT',
      url: entry(Z, MANAGED),
      payload: {
        rules: [
          { action: 'execute', expression: 'true', action_parameters: { id: CLOUDFLARE_MANAGED_RULESET_ID } },
        ],
      },
    });
    // A phase of the Rules products whose entry point was never written: as Cloudflare answers.
    expectFailure(await h.call({ url: entry(Z, 'http_request_transform') }), 404, 10003);
    // Phases cfrules does not keep (Cloudflare's own managed phases) and names that are no phase.
    expectFailure(await h.call({ url: entry(Z, 'ddos_l7') }), 400, 20207);
    expectFailure(await h.call({ method: 'PUT', url: entry(Z, 'nope'), payload: { rules: [] } }), 400, 20207);
  });

  it('Pro zones: enabled managed rules need the migration; waf_migration migrates, once', async () => {
    const rules = [
      { action: 'execute', expression: 'true', action_parameters: { id: CLOUDFLARE_MANAGED_RULESET_ID } },
    ];
    expectFailure(
      await h.call({ method: 'PUT', url: entry(ZONES.pro, MANAGED), payload: { rules } }),
      400,
      20206,
    );
    expectFailure(
      await h.call({ method: 'PUT', url: entry(ZONES.pro, MANAGED, '?waf_migration=3'), payload: { rules } }),
      400,
      10001,
    );
    // Without phase_two=1 (phase one is over) and with validation (Enterprise only): refused, nothing stored.
    expectFailure(
      await h.call({
        method: 'PUT',
        url: entry(ZONES.pro, MANAGED, '?waf_migration=pending'),
        payload: { rules },
      }),
      400,
      10001,
    );
    expectFailure(
      await h.call({
        method: 'PUT',
        url: entry(ZONES.pro, MANAGED, '?waf_migration=validation&phase_two=1'),
        payload: { rules },
      }),
      400,
      10631,
    );
    expectFailure(await h.call({ url: entry(ZONES.pro, MANAGED) }), 404, 10003);
    await ok({
      method: 'PUT',
      url: entry(ZONES.pro, MANAGED),
      payload: { rules: [{ ...rules[0], enabled: false }] },
    });
    await ok({
      method: 'PUT',
      url: entry(ZONES.pro, MANAGED, '?waf_migration=pending&phase_two=1'),
      payload: { rules },
    });
    // Migrated: enabled rules need no parameter any more, and the migration cannot run again.
    await ok({ method: 'PUT', url: entry(ZONES.pro, MANAGED), payload: { rules } });
    expectFailure(
      await h.call({
        method: 'PUT',
        url: entry(ZONES.pro, MANAGED, '?waf_migration=pending&phase_two=1'),
        payload: { rules },
      }),
      400,
      10632,
    );
  });

  it('dry_run=true checks and answers null, storing nothing', async () => {
    const response = await h.call({
      method: 'PUT',
      url: entry(Z, CUSTOM, '?dry_run=true'),
      payload: { rules: [block()] },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, result: null });
    expectFailure(await h.call({ url: entry(Z, CUSTOM) }), 404, 10003);
  });
});

describe('credentials', () => {
  it.each([
    ['a read-only token', READ_TOKEN, ZONES.enterprise],
    ['a token scoped to another zone', SCOPED_TOKEN, ZONES.business],
    ["another account's token", OTHER_TOKEN, ZONES.enterprise],
  ])('refuses writes with %s (403 10000), changing nothing', async (_name, token, zone) => {
    const ruleset = await createCustom(zone);
    const rule = ruleset.rules?.[0]?.id;
    const before = await everything(zone);
    for (const request of [
      { method: 'POST' as const, url: rulesets(zone), payload: { name: 'n', kind: 'custom', phase: CUSTOM } },
      { method: 'PUT' as const, url: rulesets(zone, `/${ruleset.id}`), payload: { rules: [] } },
      { method: 'DELETE' as const, url: rulesets(zone, `/${ruleset.id}`) },
      { method: 'POST' as const, url: rulesets(zone, `/${ruleset.id}/rules`), payload: block() },
      { method: 'PATCH' as const, url: rulesets(zone, `/${ruleset.id}/rules/${rule}`), payload: {} },
      { method: 'DELETE' as const, url: rulesets(zone, `/${ruleset.id}/rules/${rule}`) },
      { method: 'DELETE' as const, url: rulesets(zone, `/${ruleset.id}/versions/1`) },
      { method: 'PUT' as const, url: entry(zone, CUSTOM), payload: { rules: [] } },
    ]) {
      expectFailure(await h.call({ ...request, token }), 403, 10000);
    }
    expect(await everything(zone)).toEqual(before);
  });

  it('lets a read-only token read every endpoint', async () => {
    const ruleset = await ok({ method: 'PUT', url: entry(Z, CUSTOM), payload: { rules: [block()] } });
    for (const url of [
      rulesets(Z),
      rulesets(Z, `/${ruleset.id}`),
      rulesets(Z, `/${ruleset.id}/versions`),
      rulesets(Z, `/${ruleset.id}/versions/1`),
      entry(Z, CUSTOM),
      entry(Z, CUSTOM, '/versions'),
      entry(Z, CUSTOM, '/versions/1'),
    ]) {
      expect((await h.call({ url, token: READ_TOKEN })).status).toBe(200);
    }
  });

  it('needs credentials (9106)', async () => {
    expectFailure(await h.call({ url: rulesets(Z), auth: false }), 400, 9106);
  });
});
