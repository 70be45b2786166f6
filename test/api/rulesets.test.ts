// The Rulesets API over HTTP (fastify.inject): every endpoint, its answer and envelope, its errors with
// their statuses and codes, credentials (read vs edit), and that refused writes change nothing; then an
// account's rulesets: custom rulesets deployed by execute rules of its root entry points, and what only the
// account level has (kinds, the execute rule's target, the Enterprise entitlement, account-wide credentials).
import { describe, expect, it } from 'vitest';
import { CLOUDFLARE_MANAGED_RULESET_ID, OWASP_RULESET_ID } from '../../src/engine/managed/index.js';
import type { RulesetJson } from '../../src/service/rulesets/model.js';
import {
  ACCOUNT,
  API_KEY,
  EMAIL,
  freshHarnessPerTest,
  type Harness,
  OTHER_ACCOUNT,
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

/** Every ruleset under `base` (a zone's or an account's) at every version, to compare before and after a refused request. */
async function everything(base: string = rulesets(Z)) {
  const list = (await h.call({ url: `${base}?per_page=500` })).body.result as RulesetJson[];
  const out: unknown[] = [];
  for (const ruleset of list.filter((r) => r.kind !== 'managed')) {
    const versions = (await h.call({ url: `${base}/${ruleset.id}/versions` })).body.result as RulesetJson[];
    for (const v of versions)
      out.push((await h.call({ url: `${base}/${ruleset.id}/versions/${v.version}` })).body.result);
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
    const before = await everything(rulesets(zone));
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
    expect(await everything(rulesets(zone))).toEqual(before);
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

// ——— the rulesets of an account ———

const RATELIMIT = 'http_ratelimit';
const accountRulesets = (rest = '', account = ACCOUNT) => `/client/v4/accounts/${account}/rulesets${rest}`;
const root = (phase: string, rest = '') => accountRulesets(`/phases/${phase}/entrypoint${rest}`);
const execute = (id: string, expression = 'cf.zone.name eq "example.com"') => ({
  action: 'execute',
  expression,
  action_parameters: { id },
});

const createAccountCustom = (phase = CUSTOM, rules: object[] = [block()]) =>
  ok({
    method: 'POST',
    url: accountRulesets(),
    payload: { name: 'account custom', kind: 'custom', phase, rules },
  });

describe('account rulesets', () => {
  it('a custom ruleset deployed by an execute rule of the root entry point, scoped by zone names', async () => {
    const custom = await createAccountCustom();
    expect(custom).toMatchObject({ kind: 'custom', phase: CUSTOM, version: '1', name: 'account custom' });
    expect(custom.id).toMatch(ID);
    const entry = await ok({
      method: 'PUT',
      url: root(CUSTOM),
      payload: { rules: [execute(custom.id, 'cf.zone.name in {"example.com" "pro.example"}')] },
    });
    expect(entry).toMatchObject({ kind: 'root', phase: CUSTOM, name: 'default', version: '1' });
    expect(entry.rules?.[0]).toMatchObject({
      action: 'execute',
      action_parameters: { id: custom.id },
      expression: 'cf.zone.name in {"example.com" "pro.example"}',
    });
    expect(await ok({ url: root(CUSTOM) })).toEqual(entry);
    expect(await ok({ url: accountRulesets(`/${entry.id}`) })).toEqual(entry);

    const list = (await h.call({ url: accountRulesets() })).body.result as RulesetJson[];
    expect(list.map((r) => r.id)).toEqual([
      CLOUDFLARE_MANAGED_RULESET_ID,
      OWASP_RULESET_ID,
      custom.id,
      entry.id,
    ]);
    expect(list[3]).not.toHaveProperty('rules');
    // The zone's rulesets and the account's are apart.
    const zoneList = (await h.call({ url: zonePath(ZONES.enterprise, '/rulesets') })).body
      .result as RulesetJson[];
    expect(zoneList.map((r) => r.id)).not.toContain(custom.id);
    expectFailure(await h.call({ url: zonePath(ZONES.enterprise, `/rulesets/${custom.id}`) }), 404, 20200);
    expectFailure(
      await h.call({ url: zonePath(ZONES.enterprise, `/rulesets/phases/${CUSTOM}/entrypoint`) }),
      404,
      10003,
    );
  });

  it('rules by position, versions, entry point versions, PUT and DELETE as at zone level', async () => {
    const custom = await createAccountCustom();
    const first = custom.rules?.[0]?.id as string;
    const added = await ok({
      method: 'POST',
      url: accountRulesets(`/${custom.id}/rules`),
      payload: { ...block('http.host eq "a.example"'), position: { before: first } },
    });
    const second = added.rules?.[0]?.id as string;
    expect(added.rules?.map((r) => r.id)).toEqual([second, first]);
    const edited = await ok({
      method: 'PATCH',
      url: accountRulesets(`/${custom.id}/rules/${second}`),
      payload: { action: 'managed_challenge', position: { index: 2 } },
    });
    expect(edited.rules?.map((r) => [r.id, r.action, r.version])).toEqual([
      [first, 'block', '1'],
      [second, 'managed_challenge', '2'],
    ]);
    const removed = await ok({ method: 'DELETE', url: accountRulesets(`/${custom.id}/rules/${first}`) });
    expect(removed).toMatchObject({ version: '4' });
    const versions = (await ok({
      url: accountRulesets(`/${custom.id}/versions`),
    })) as unknown as RulesetJson[];
    expect(versions.map((v) => v.version)).toEqual(['1', '2', '3', '4']);
    expect((await ok({ url: accountRulesets(`/${custom.id}/versions/2`) })).rules).toHaveLength(2);
    const deleteVersion = await h.call({
      method: 'DELETE',
      url: accountRulesets(`/${custom.id}/versions/1`),
    });
    expect(deleteVersion.status).toBe(204);
    expectFailure(await h.call({ url: accountRulesets(`/${custom.id}/versions/1`) }), 404, 20202);
    expectFailure(
      await h.call({ method: 'DELETE', url: accountRulesets(`/${custom.id}/versions/4`) }),
      400,
      20205,
    );
    const replaced = await ok({
      method: 'PUT',
      url: accountRulesets(`/${custom.id}`),
      payload: { description: 'new', rules: [] },
    });
    expect(replaced).toMatchObject({ version: '5', description: 'new', rules: [] });

    await ok({ method: 'PUT', url: root(CUSTOM), payload: { rules: [execute(custom.id)] } });
    await ok({ method: 'PUT', url: root(CUSTOM), payload: { description: 'two' } });
    const entryVersions = (await ok({ url: root(CUSTOM, '/versions') })) as unknown as RulesetJson[];
    expect(entryVersions.map((v) => [v.version, v.kind])).toEqual([
      ['1', 'root'],
      ['2', 'root'],
    ]);
    expect(await ok({ url: root(CUSTOM, '/versions/1') })).toMatchObject({ description: '', version: '1' });
    expectFailure(await h.call({ url: root(CUSTOM, '/versions/9') }), 404, 20202);
    expectFailure(await h.call({ url: root(RATELIMIT) }), 404, 10003);
    expectFailure(await h.call({ url: root(RATELIMIT, '/versions') }), 404, 10003);

    // A ruleset an entry point executes stays until the rule that executes it goes.
    const inUse = await h.call({ method: 'DELETE', url: accountRulesets(`/${custom.id}`) });
    expectFailure(inUse, 400, 20210);
    expect(inUse.body.errors[0]?.message).toMatch(
      /is executed by rule [0-9a-f]{32} of the http_request_firewall_custom entry point/,
    );
    await ok({ method: 'PUT', url: root(CUSTOM), payload: { rules: [] } });
    const deleted = await h.call({ method: 'DELETE', url: accountRulesets(`/${custom.id}`) });
    expect(deleted.status).toBe(204);
    expectFailure(await h.call({ url: accountRulesets(`/${custom.id}`) }), 404, 20200);
  });

  it('custom rulesets of the rate limiting phase, with the Enterprise quota and characteristics', async () => {
    // Counting by a header is for Enterprise zones: the account's rules are checked as theirs.
    const characteristics = ['cf.colo.id', 'http.request.headers["x-api-key"]'];
    const ratelimit = {
      ...block('http.request.uri.path eq "/login"'),
      ratelimit: { characteristics, period: 60, requests_per_period: 100 },
    };
    const custom = await createAccountCustom(RATELIMIT, [ratelimit]);
    expect(custom.rules?.[0]).toMatchObject(ratelimit);
    const entry = await ok({ method: 'PUT', url: root(RATELIMIT), payload: { rules: [execute(custom.id)] } });
    expect(entry).toMatchObject({ kind: 'root', phase: RATELIMIT });
    // The quota is the Enterprise plan's: 100 rules in a rate limiting ruleset.
    const tooMany = await h.call({
      method: 'PUT',
      url: accountRulesets(`/${custom.id}`),
      payload: { rules: Array.from({ length: 101 }, () => ratelimit) },
    });
    expectFailure(tooMany, 400, 20208);
    expect(tooMany.body.errors[0]?.message).toContain('the Enterprise plan allows 100 rules');
  });

  it("the managed phase's root executes catalogue rulesets and skips", async () => {
    const entry = await ok({
      method: 'PUT',
      url: root(MANAGED),
      payload: {
        rules: [
          { action: 'skip', expression: 'ip.src eq 192.0.2.9', action_parameters: { ruleset: 'current' } },
          execute(OWASP_RULESET_ID, 'cf.zone.name eq "example.com"'),
        ],
      },
    });
    expect(entry.rules?.map((r) => r.action)).toEqual(['skip', 'execute']);
    // No custom ruleset of the managed phase at account level: it runs Cloudflare's rulesets only.
    const refused = await h.call({
      method: 'POST',
      url: accountRulesets(),
      payload: { name: 'x', kind: 'custom', phase: MANAGED },
    });
    expectFailure(refused, 400, 20217);
    expect(refused.body.errors[0]).toMatchObject({ source: { pointer: '/phase' } });
    expect(refused.body.errors[0]?.message).toContain('runs managed rulesets only');
  });
});

describe('account rulesets: refused requests store nothing', () => {
  it('kinds: zone rulesets belong to zones, root rulesets to accounts; one root per phase', async () => {
    const before = await everything(accountRulesets());
    const zoneKind = await h.call({
      method: 'POST',
      url: accountRulesets(),
      payload: { name: 'x', kind: 'zone', phase: CUSTOM },
    });
    expectFailure(zoneKind, 400, 20217);
    expect(zoneKind.body.errors[0]).toMatchObject({
      message:
        "'zone' is not a valid value for kind because zone rulesets are the entry points of a zone: create them under /zones/{zone_id}/rulesets",
      source: { pointer: '/kind' },
    });
    const rootAtZone = await h.call({
      method: 'POST',
      url: zonePath(ZONES.enterprise, '/rulesets'),
      payload: { name: 'x', kind: 'root', phase: CUSTOM },
    });
    expectFailure(rootAtZone, 400, 20217);
    expect(rootAtZone.body.errors[0]?.message).toContain('create them under /accounts/{account_id}/rulesets');
    expect(await everything(accountRulesets())).toEqual(before);

    const created = await ok({
      method: 'POST',
      url: accountRulesets(),
      payload: { name: 'entry', kind: 'root', phase: CUSTOM },
    });
    expect(created).toMatchObject({ kind: 'root', name: 'entry', rules: [] });
    expect(await ok({ url: root(CUSTOM) })).toEqual(created);
    const second = await h.call({
      method: 'POST',
      url: accountRulesets(),
      payload: { name: 'again', kind: 'root', phase: CUSTOM },
    });
    expectFailure(second, 400, 20217);
    expect(second.body.errors[0]?.message).toContain('exceeded maximum number of root rulesets for phase');
    // A root entry point's kind cannot change, and a zone body's kind is refused at account level.
    expectFailure(
      await h.call({ method: 'PUT', url: root(CUSTOM), payload: { kind: 'zone', rules: [] } }),
      400,
      20217,
    );
  });

  it('execute: a custom ruleset of this account and phase, else 20217 at action_parameters.id', async () => {
    const custom = await createAccountCustom();
    const limits = await createAccountCustom(RATELIMIT, []);
    const other = await h.call({
      method: 'POST',
      url: accountRulesets('', OTHER_ACCOUNT),
      token: OTHER_TOKEN,
      payload: { name: 'theirs', kind: 'custom', phase: CUSTOM },
    });
    expect(other.status).toBe(200);
    const before = await everything(accountRulesets());
    const put = (rules: object[]) => h.call({ method: 'PUT', url: root(CUSTOM), payload: { rules } });

    const missing = await put([execute('f'.repeat(32))]);
    expectFailure(missing, 400, 20217);
    expect(missing.body.errors[0]).toMatchObject({
      message: `'${'f'.repeat(32)}' is not a valid value for id because it is not a custom ruleset of this account`,
      source: { pointer: '/rules/0/action_parameters/id' },
    });
    // Another account's ruleset is as unknown as a missing one.
    expect((await put([execute(other.body.result.id)])).body.errors[0]?.message).toContain(
      'it is not a custom ruleset of this account',
    );
    const otherPhase = await put([execute(limits.id)]);
    expectFailure(otherPhase, 400, 20217);
    expect(otherPhase.body.errors[0]?.message).toContain(
      `custom ruleset ${limits.id} belongs to the http_ratelimit phase: execute it from that phase's entry point`,
    );
    const managed = await put([execute(OWASP_RULESET_ID)]);
    expect(managed.body.errors[0]?.message).toContain(
      'the Cloudflare OWASP Core Ruleset runs in the http_request_firewall_managed phase, not in http_request_firewall_custom',
    );
    // Rules of their own go in custom rulesets: the root only deploys them.
    const ownRule = await put([block()]);
    expectFailure(ownRule, 400, 20217);
    expect(ownRule.body.errors[0]).toMatchObject({
      message:
        "'block' is not a valid value for action because the root entry point of the http_request_firewall_custom phase allows only execute: put other rules in a custom ruleset, and execute it from here",
      source: { pointer: '/rules/0/action' },
    });
    const pinned = await put([{ ...execute(custom.id), action_parameters: { id: custom.id, version: '1' } }]);
    expectFailure(pinned, 400, 20217);
    expect(pinned.body.errors[0]?.source).toEqual({ pointer: '/rules/0/action_parameters/version' });
    const overrides = await put([
      { ...execute(custom.id), action_parameters: { id: custom.id, overrides: { enabled: false } } },
    ]);
    expectFailure(overrides, 400, 20217);
    expect(overrides.body.errors[0]?.source).toEqual({ pointer: '/rules/0/action_parameters/overrides' });
    expect(await everything(accountRulesets())).toEqual(before);
    expect(
      (
        await ok({
          method: 'PUT',
          url: root(CUSTOM),
          payload: {
            rules: [{ ...execute(custom.id), action_parameters: { id: custom.id, version: 'latest' } }],
          },
        })
      ).rules?.[0]?.action_parameters,
    ).toEqual({ id: custom.id, version: 'latest' });
  });

  it('a bad expression: Filter parsing error with its position, at the rule', async () => {
    const custom = await createAccountCustom();
    const before = await everything(accountRulesets());
    const response = await h.call({
      method: 'POST',
      url: accountRulesets(`/${custom.id}/rules`),
      payload: { action: 'block', expression: 'cf.zone.name eq "a.com" and ip.src eq' },
    });
    expectFailure(response, 400, 20217);
    expect(response.body.errors[0]?.source).toEqual({ pointer: '/expression' });
    expect(response.body.errors[0]?.message).toMatch(
      /^'cf\.zone\.name eq "a\.com" and ip\.src eq' is not a valid value for expression because the expression is invalid: Filter parsing error \(1:38\):/,
    );
    const rootRule = await h.call({
      method: 'PUT',
      url: root(CUSTOM),
      payload: { rules: [execute(custom.id, 'cf.zone.nam eq "a.com"')] },
    });
    expectFailure(rootRule, 400, 20217);
    expect(rootRule.body.errors[0]?.source).toEqual({ pointer: '/rules/0/expression' });
    expect(rootRule.body.errors[0]?.message).toContain('Filter parsing error (1:1)');
    expect(await everything(accountRulesets())).toEqual(before);
  });

  it('an account without an Enterprise zone: 403 20211 on writes; reads and deletes still work', async () => {
    const custom = await createAccountCustom();
    await ok({ method: 'PUT', url: root(CUSTOM), payload: { rules: [execute(custom.id)] } });
    const downgrade = await h.call({
      method: 'PATCH',
      url: zonePath(ZONES.enterprise),
      payload: { plan: { id: 'business' } },
    });
    expect(downgrade.status).toBe(200);
    const refused = await h.call({
      method: 'POST',
      url: accountRulesets(`/${custom.id}/rules`),
      payload: block(),
    });
    expectFailure(refused, 403, 20211);
    expect(refused.body.errors[0]?.message).toBe(
      `account ${ACCOUNT} is not entitled to account-level rulesets: they need an Enterprise plan, and none of the account's zones is on it`,
    );
    expectFailure(
      await h.call({
        method: 'POST',
        url: accountRulesets(),
        payload: { name: 'x', kind: 'custom', phase: CUSTOM },
      }),
      403,
      20211,
    );
    expectFailure(await h.call({ method: 'PUT', url: root(CUSTOM), payload: { rules: [] } }), 403, 20211);
    expect((await ok({ url: root(CUSTOM) })).rules).toHaveLength(1);
    const entry = await ok({ url: root(CUSTOM) });
    await ok({ method: 'DELETE', url: accountRulesets(`/${entry.id}/rules/${entry.rules?.[0]?.id}`) });
    expect((await h.call({ method: 'DELETE', url: accountRulesets(`/${custom.id}`) })).status).toBe(204);
  });
});

describe('account rulesets: paths and credentials', () => {
  it('an unknown account is 404 (7003, 7000), an id of the wrong shape 400', async () => {
    const unknown = '9'.repeat(32);
    const response = await h.call({ url: accountRulesets('', unknown) });
    expectFailure(response, 404, 7003, 7000);
    expect(response.body.errors[0]?.message).toBe(
      `Could not route to /client/v4/accounts/${unknown}, perhaps your object identifier is invalid?`,
    );
    expectFailure(await h.call({ url: accountRulesets('', 'nope') }), 400, 7003, 7000);
    expectFailure(await h.call({ url: accountRulesets(`/${'a'.repeat(32)}`) }), 404, 20200);
    expectFailure(await h.call({ url: root('ddos_l7') }), 400, 20207);
  });

  it('needs an account-wide credential of the account, with account_rulesets permissions', async () => {
    // Another account's: authentication error, as for its zones.
    expectFailure(await h.call({ url: accountRulesets('', OTHER_ACCOUNT) }), 403, 10000);
    // A token scoped to some zones, whatever its permissions.
    expectFailure(await h.call({ url: accountRulesets(), token: SCOPED_TOKEN }), 403, 10000);
    // An account-wide read token reads, and may not write.
    expect((await h.call({ url: accountRulesets(), token: READ_TOKEN })).status).toBe(200);
    const write = await h.call({
      method: 'PUT',
      url: root(CUSTOM),
      token: READ_TOKEN,
      payload: { rules: [] },
    });
    expectFailure(write, 403, 10000);
    expect(write.body.errors[0]?.error_chain).toEqual([
      {
        code: 10000,
        message: 'the credential lacks the permission account_rulesets:edit (docs/api.md, "Permissions")',
      },
    ]);
    // The global API key holds every permission.
    const byKey = await h.call({
      auth: false,
      method: 'PUT',
      url: root(CUSTOM),
      headers: { 'x-auth-email': EMAIL, 'x-auth-key': API_KEY },
      payload: { rules: [] },
    });
    expect(byKey.status).toBe(200);
    expect(byKey.body.result).toMatchObject({ kind: 'root', phase: CUSTOM });
  });

  it('waf_migration is a zone matter: 10001 at account level', async () => {
    expectFailure(
      await h.call({
        method: 'PUT',
        url: root(MANAGED, '?waf_migration=pending&phase_two=1'),
        payload: { rules: [] },
      }),
      400,
      10001,
    );
    expectFailure(await h.call({ url: root(MANAGED) }), 404, 10003);
  });
});
