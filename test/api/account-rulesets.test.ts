// The Rulesets API of an account over HTTP (fastify.inject): custom rulesets deployed by execute rules of
// the account's root entry points, their versions and rules, and what only the account level has: kinds,
// the execute rule's target, the Enterprise entitlement, account-wide credentials.
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

const CUSTOM = 'http_request_firewall_custom';
const MANAGED = 'http_request_firewall_managed';
const RATELIMIT = 'http_ratelimit';
const accountRulesets = (rest = '', account = ACCOUNT) => `/client/v4/accounts/${account}/rulesets${rest}`;
const root = (phase: string, rest = '') => accountRulesets(`/phases/${phase}/entrypoint${rest}`);
const block = (expression = 'ip.src eq 192.0.2.1') => ({ action: 'block', expression });
const execute = (id: string, expression = 'cf.zone.name eq "example.com"') => ({
  action: 'execute',
  expression,
  action_parameters: { id },
});

async function ok(request: Parameters<Harness['call']>[0]): Promise<RulesetJson> {
  const response = await h.call(request);
  expect(response.body.errors).toEqual([]);
  expect(response.status).toBe(200);
  expect(response.body).toMatchObject({ success: true, messages: [] });
  return response.body.result;
}

const createCustom = (phase = CUSTOM, rules: object[] = [block()]) =>
  ok({
    method: 'POST',
    url: accountRulesets(),
    payload: { name: 'account custom', kind: 'custom', phase, rules },
  });

/** Every account ruleset at every version, to compare before and after a refused request. */
async function everything() {
  const list = (await h.call({ url: accountRulesets('?per_page=500') })).body.result as RulesetJson[];
  const out: unknown[] = [];
  for (const ruleset of list.filter((r) => r.kind !== 'managed')) {
    const versions = (await h.call({ url: accountRulesets(`/${ruleset.id}/versions`) })).body
      .result as RulesetJson[];
    for (const v of versions)
      out.push((await h.call({ url: accountRulesets(`/${ruleset.id}/versions/${v.version}`) })).body.result);
  }
  return out;
}

describe('account rulesets', () => {
  it('a custom ruleset deployed by an execute rule of the root entry point, scoped by zone names', async () => {
    const custom = await createCustom();
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
    const custom = await createCustom();
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
    const ratelimit = {
      action: 'block',
      expression: 'http.request.uri.path eq "/login"',
      ratelimit: {
        characteristics: ['cf.colo.id', 'http.request.headers["x-api-key"]'],
        period: 60,
        requests_per_period: 100,
        mitigation_timeout: 600,
      },
    };
    const custom = await createCustom(RATELIMIT, [ratelimit]);
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
    const before = await everything();
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
    expect(await everything()).toEqual(before);

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
    const custom = await createCustom();
    const limits = await createCustom(RATELIMIT, []);
    const other = await h.call({
      method: 'POST',
      url: accountRulesets('', OTHER_ACCOUNT),
      token: OTHER_TOKEN,
      payload: { name: 'theirs', kind: 'custom', phase: CUSTOM },
    });
    expect(other.status).toBe(200);
    const before = await everything();
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
    expect(await everything()).toEqual(before);
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
    const custom = await createCustom();
    const before = await everything();
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
    expect(await everything()).toEqual(before);
  });

  it('an account without an Enterprise zone: 403 20211 on writes; reads and deletes still work', async () => {
    const custom = await createCustom();
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
