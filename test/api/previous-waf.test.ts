// The previous WAF, URI-based WAF overrides, page rules and the WAF migration over HTTP (fastify.inject):
// every endpoint, its query parameters and its errors (docs/api.md §7), and persistence across a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OWASP_RULESET_ID } from '../../src/engine/managed/index.js';
import {
  CLOUDFLARE_PACKAGE_ID,
  OWASP_PACKAGE_ID,
  PREVIOUS_WAF_RULES,
} from '../../src/engine/previous-waf/index.js';
import { buildApp } from '../../src/http/app.js';
import { CODES } from '../../src/service/errors.js';
import { applyConfig, readConfig } from '../../src/service/setup.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import { CONFIG, freshHarnessPerTest, type Harness, READ_TOKEN, TOKEN, ZONES, zonePath } from './harness.js';

let h: Harness;
freshHarnessPerTest((fresh) => {
  h = fresh;
});

const Z = ZONES.business;
const packages = (zone: string, rest = '') => zonePath(zone, `/firewall/waf/packages${rest}`);
const SPECIALS = 'ea8687e59929c1fd05ba97574ad43f77';
const HONEY_POT = 'de677e5818985db1285d0e80225f06e5';

async function expectError(request: Parameters<Harness['call']>[0], status: number, code: number) {
  const response = await h.call(request);
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.success).toBe(false);
  expect(response.body.errors[0]?.code).toBe(code);
  return response.body;
}

/** Migrates a zone as a user does: the generated configuration, PUT to the managed entry point. */
async function migrate(zone: string, mode: 'pending' | 'validation') {
  const config = await h.call({ method: 'GET', url: zonePath(zone, '/waf_migration/config?phase_two=1') });
  expect(config.status).toBe(200);
  const put = await h.call({
    method: 'PUT',
    url: zonePath(
      zone,
      `/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=${mode}&phase_two=1`,
    ),
    payload: { name: config.body.result.name, rules: config.body.result.rules },
  });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return put.body.result;
}

describe('packages', () => {
  it('lists the three packages (50 a page by default), with name search, order and direction', async () => {
    const { status, body } = await h.call({ method: 'GET', url: packages(Z) });
    expect(status).toBe(200);
    expect(body.result.map((p: { name: string }) => p.name)).toEqual([
      'CloudFlare',
      'OWASP ModSecurity Core Rule Set',
      'USER',
    ]);
    expect(body.result_info).toEqual({ page: 1, per_page: 50, count: 3, total_count: 3, total_pages: 1 });
    expect(body.result[1]).toMatchObject({
      id: OWASP_PACKAGE_ID,
      zone_id: Z,
      detection_mode: 'anomaly',
      sensitivity: 'high',
      action_mode: 'challenge',
      status: 'active',
    });
    const owasp = await h.call({ method: 'GET', url: packages(Z, '?name=owasp') });
    expect(owasp.body.result).toHaveLength(1);
    const desc = await h.call({ method: 'GET', url: packages(Z, '?order=name&direction=desc&per_page=5') });
    expect(desc.body.result[0].name).toBe('USER');
    const any = await h.call({ method: 'GET', url: packages(Z, '?name=zzz&match=any') });
    expect(any.body.result).toEqual([]);
    const past = await h.call({ method: 'GET', url: packages(Z, '?page=2') });
    expect(past.body.result).toEqual([]);
  });

  it('refuses bad query parameters with 10001', async () => {
    for (const q of ['per_page=4', 'per_page=101', 'order=size', 'direction=up', 'match=some', 'page=0']) {
      await expectError({ method: 'GET', url: packages(Z, `?${q}`) }, 400, CODES.invalidQuery);
    }
  });

  it('gets and patches the anomaly package; the traditional one refuses its settings', async () => {
    const got = await h.call({ method: 'GET', url: packages(Z, `/${OWASP_PACKAGE_ID}`) });
    expect(got.body.result.id).toBe(OWASP_PACKAGE_ID);
    const patched = await h.call({
      method: 'PATCH',
      url: packages(Z, `/${OWASP_PACKAGE_ID}`),
      payload: { sensitivity: 'low', action_mode: 'simulate' },
    });
    expect(patched.body.result).toMatchObject({ sensitivity: 'low', action_mode: 'simulate' });
    expect(
      (await h.call({ method: 'GET', url: packages(Z, `/${OWASP_PACKAGE_ID}`) })).body.result.sensitivity,
    ).toBe('low');
    // Another zone keeps the defaults.
    expect(
      (await h.call({ method: 'GET', url: packages(ZONES.pro, `/${OWASP_PACKAGE_ID}`) })).body.result
        .sensitivity,
    ).toBe('high');
    const bad = await expectError(
      { method: 'PATCH', url: packages(Z, `/${OWASP_PACKAGE_ID}`), payload: { sensitivity: 'extreme' } },
      400,
      CODES.invalidWafSetting,
    );
    expect(bad.errors[0]?.source).toEqual({ pointer: '/sensitivity' });
    await expectError(
      { method: 'PATCH', url: packages(Z, `/${CLOUDFLARE_PACKAGE_ID}`), payload: { sensitivity: 'low' } },
      400,
      CODES.invalidWafSetting,
    );
    await expectError(
      { method: 'GET', url: packages(Z, `/${'0'.repeat(32)}`) },
      404,
      CODES.wafPackageNotFound,
    );
    await expectError(
      {
        method: 'PATCH',
        url: packages(Z, `/${OWASP_PACKAGE_ID}`),
        payload: { sensitivity: 'low' },
        token: READ_TOKEN,
      },
      403,
      CODES.notPermitted,
    );
  });
});

describe('groups and rules', () => {
  it('lists, filters, orders, gets and patches groups', async () => {
    const list = await h.call({ method: 'GET', url: packages(Z, `/${CLOUDFLARE_PACKAGE_ID}/groups`) });
    expect(list.status).toBe(200);
    const specials = list.body.result.find((g: { id: string }) => g.id === SPECIALS);
    expect(specials).toMatchObject({
      name: 'Cloudflare Specials',
      mode: 'on',
      allowed_modes: ['on', 'off'],
      modified_rules_count: 0,
    });
    const off = await h.call({
      method: 'GET',
      url: packages(Z, `/${CLOUDFLARE_PACKAGE_ID}/groups?mode=off`),
    });
    expect(off.body.result.map((g: { name: string }) => g.name)).toEqual(['Cloudflare Flash']);
    const ordered = await h.call({
      method: 'GET',
      url: packages(Z, `/${CLOUDFLARE_PACKAGE_ID}/groups?order=rules_count&direction=desc`),
    });
    const counts = ordered.body.result.map((g: { rules_count: number }) => g.rules_count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const patched = await h.call({
      method: 'PATCH',
      url: packages(Z, `/${CLOUDFLARE_PACKAGE_ID}/groups/${SPECIALS}`),
      payload: { mode: 'off' },
    });
    expect(patched.body.result.mode).toBe('off');
    const got = await h.call({
      method: 'GET',
      url: packages(Z, `/${CLOUDFLARE_PACKAGE_ID}/groups/${SPECIALS}`),
    });
    expect(got.body.result.mode).toBe('off');
    await expectError(
      {
        method: 'PATCH',
        url: packages(Z, `/${CLOUDFLARE_PACKAGE_ID}/groups/${SPECIALS}`),
        payload: { mode: 'block' },
      },
      400,
      CODES.invalidWafSetting,
    );
    // A group of another package is not found under this one.
    await expectError(
      { method: 'GET', url: packages(Z, `/${OWASP_PACKAGE_ID}/groups/${SPECIALS}`) },
      404,
      CODES.wafGroupNotFound,
    );
  });

  it('lists rules with their query parameters; a rule takes only a mode of its allowed_modes', async () => {
    const url = packages(Z, `/${CLOUDFLARE_PACKAGE_ID}/rules`);
    const all = await h.call({ method: 'GET', url: `${url}?per_page=100` });
    const count = PREVIOUS_WAF_RULES.filter((r) => r.package_id === CLOUDFLARE_PACKAGE_ID).length;
    expect(all.body.result_info?.total_count).toBe(count);
    const rule = all.body.result.find((r: { id: string }) => r.id === '100015');
    expect(rule).toMatchObject({
      priority: '1',
      group: { id: SPECIALS, name: 'Cloudflare Specials' },
      default_mode: 'challenge',
      mode: 'default',
      allowed_modes: ['default', 'disable', 'simulate', 'block', 'challenge'],
    });
    const inGroup = await h.call({ method: 'GET', url: `${url}?group_id=${SPECIALS}` });
    expect(inGroup.body.result.every((r: { group: { id: string } }) => r.group.id === SPECIALS)).toBe(true);
    const challenge = await h.call({ method: 'GET', url: `${url}?mode=CHL&per_page=100` });
    expect(challenge.body.result.map((r: { id: string }) => r.id)).toContain('100015');
    const either = await h.call({
      method: 'GET',
      url: `${url}?description=user-agent&priority=999&match=any`,
    });
    expect(either.body.result.length).toBeGreaterThan(0);
    const both = await h.call({ method: 'GET', url: `${url}?description=user-agent&priority=999` });
    expect(both.body.result).toEqual([]);

    const patched = await h.call({ method: 'PATCH', url: `${url}/100015`, payload: { mode: 'disable' } });
    expect(patched.body.result.mode).toBe('disable');
    const group = await h.call({
      method: 'GET',
      url: packages(Z, `/${CLOUDFLARE_PACKAGE_ID}/groups/${SPECIALS}`),
    });
    expect(group.body.result.modified_rules_count).toBe(1);
    const disabled = await h.call({ method: 'GET', url: `${url}?mode=DIS` });
    expect(disabled.body.result.map((r: { id: string }) => r.id)).toContain('100015');
    for (const r of disabled.body.result)
      expect([r.mode, r.mode === 'default' ? r.default_mode : r.mode]).toContain('disable');
    await expectError(
      { method: 'PATCH', url: `${url}/100015`, payload: { mode: 'on' } },
      400,
      CODES.invalidWafSetting,
    );
    await expectError({ method: 'PATCH', url: `${url}/100015`, payload: {} }, 400, CODES.invalidWafSetting);
    await expectError({ method: 'PATCH', url: `${url}/100015`, payload: [1] }, 400, CODES.invalidWafSetting);
    // Anomaly rules: on and off only.
    const owaspRule = PREVIOUS_WAF_RULES.find((r) => r.package_id === OWASP_PACKAGE_ID)?.id;
    await expectError(
      {
        method: 'PATCH',
        url: packages(Z, `/${OWASP_PACKAGE_ID}/rules/${owaspRule}`),
        payload: { mode: 'block' },
      },
      400,
      CODES.invalidWafSetting,
    );
    await expectError({ method: 'GET', url: `${url}/nope` }, 404, CODES.wafRuleNotFound);
    await expectError(
      { method: 'GET', url: packages(Z, `/${OWASP_PACKAGE_ID}/groups/${HONEY_POT}x`) },
      404,
      CODES.wafGroupNotFound,
    );
  });

  it('Free zones get 10600; after the migration every previous WAF endpoint answers 410 (10605)', async () => {
    await expectError({ method: 'GET', url: packages(ZONES.free) }, 400, CODES.wafNotEntitled);
    await expectError(
      { method: 'GET', url: zonePath(ZONES.free, '/firewall/waf/overrides') },
      400,
      CODES.wafNotEntitled,
    );
    await migrate(Z, 'pending');
    for (const [method, url] of [
      ['GET', packages(Z)],
      ['GET', packages(Z, `/${OWASP_PACKAGE_ID}`)],
      ['PATCH', packages(Z, `/${OWASP_PACKAGE_ID}`)],
      ['GET', packages(Z, `/${OWASP_PACKAGE_ID}/groups`)],
      ['GET', packages(Z, `/${CLOUDFLARE_PACKAGE_ID}/rules/100015`)],
      ['GET', zonePath(Z, '/firewall/waf/overrides')],
      ['POST', zonePath(Z, '/firewall/waf/overrides')],
      ['GET', zonePath(Z, '/waf_migration/config?phase_two=1')],
    ] as const) {
      await expectError(
        { method, url, payload: method === 'GET' ? undefined : { mode: 'on' } },
        410,
        CODES.previousWafRetired,
      );
    }
  });
});

describe('URI-based WAF overrides', () => {
  const url = zonePath(Z, '/firewall/waf/overrides');
  const body = {
    urls: ['shop.example.com/*'],
    groups: { [SPECIALS]: 'default' },
    rules: { '100015': 'disable' },
    rewrite_action: { default: 'simulate' },
  };

  it('creates, lists, gets, replaces and deletes', async () => {
    const created = await h.call({ method: 'POST', url, payload: body });
    expect(created.status).toBe(200);
    const id = created.body.result.id;
    expect(created.body.result).toEqual({ id, description: null, priority: 1, paused: false, ...body });
    const list = await h.call({ method: 'GET', url });
    expect(list.body.result).toEqual([created.body.result]);
    expect(list.body.result_info).toMatchObject({ per_page: 50, total_count: 1 });
    expect((await h.call({ method: 'GET', url: `${url}/${id}` })).body.result).toEqual(created.body.result);
    const replaced = await h.call({
      method: 'PUT',
      url: `${url}/${id}`,
      payload: {
        id,
        urls: ['a.example.com'],
        rules: {},
        rewrite_action: {},
        priority: -5,
        paused: true,
        description: 'x',
      },
    });
    expect(replaced.body.result).toEqual({
      id,
      urls: ['a.example.com'],
      rules: {},
      groups: {},
      rewrite_action: {},
      priority: -5,
      paused: true,
      description: 'x',
    });
    expect((await h.call({ method: 'DELETE', url: `${url}/${id}` })).body.result).toEqual({ id });
    await expectError({ method: 'GET', url: `${url}/${id}` }, 404, CODES.wafOverrideNotFound);
    await expectError({ method: 'DELETE', url: `${url}/${id}` }, 404, CODES.wafOverrideNotFound);
  });

  it('refuses invalid bodies with 10611 and a pointer, storing nothing', async () => {
    for (const [payload, pointer] of [
      [{ rules: { '100015': 'disable' } }, '/urls'],
      [{ urls: [], rules: { '100015': 'disable' } }, '/urls'],
      [{ urls: ['a b'], rules: { '100015': 'disable' } }, '/urls/0'],
      [{ urls: ['a'] }, '/rules'],
      [{ urls: ['a'], rules: { nope: 'disable' } }, '/rules/nope'],
      [{ urls: ['a'], rules: { '100015': 'explode' } }, '/rules/100015'],
      [{ urls: ['a'], groups: { [SPECIALS]: 1 } }, `/groups/${SPECIALS}`],
      [
        { urls: ['a'], rules: { '100015': 'block' }, rewrite_action: { kill: 'block' } },
        '/rewrite_action/kill',
      ],
      [{ urls: ['a'], rules: { '100015': 'block' }, priority: 1.5 }, '/priority'],
    ] as const) {
      const error = await expectError({ method: 'POST', url, payload }, 400, CODES.invalidWafOverride);
      expect(error.errors[0]?.source?.pointer).toBe(pointer);
    }
    const created = await h.call({ method: 'POST', url, payload: body });
    const id = created.body.result.id;
    await expectError(
      { method: 'PUT', url: `${url}/${id}`, payload: { urls: ['a'], rules: {} } },
      400,
      CODES.invalidWafOverride,
    );
    await expectError(
      {
        method: 'PUT',
        url: `${url}/${id}`,
        payload: { id: 'other', urls: ['a'], rules: {}, rewrite_action: {} },
      },
      400,
      CODES.invalidWafOverride,
    );
    expect((await h.call({ method: 'GET', url })).body.result).toEqual([created.body.result]);
  });
});

describe('page rules', () => {
  const url = zonePath(Z, '/pagerules');
  const rule = {
    targets: [{ target: 'url', constraint: { operator: 'matches', value: '*example.com/admin/*' } }],
    actions: [
      { id: 'waf', value: 'off' },
      { id: 'browser_cache_ttl', value: 14400 },
      { id: 'forwarding_url', value: { url: 'https://x', status_code: 301 } },
    ],
  };

  it('creates (other settings stored unchanged), lists by priority, gets, replaces, edits and deletes', async () => {
    const created = await h.call({ method: 'POST', url, payload: rule });
    expect(created.status).toBe(200);
    const id = created.body.result.id;
    expect(created.body.result).toMatchObject({ ...rule, priority: 1, status: 'disabled' });
    const second = await h.call({
      method: 'POST',
      url,
      payload: { ...rule, priority: 7, status: 'active', actions: [{ id: 'disable_security' }] },
    });
    const list = await h.call({ method: 'GET', url });
    expect(list.body.result.map((r: { id: string }) => r.id)).toEqual([second.body.result.id, id]);
    const asc = await h.call({ method: 'GET', url: `${url}?direction=asc&status=active` });
    expect(asc.body.result.map((r: { id: string }) => r.id)).toEqual([second.body.result.id]);
    const edited = await h.call({ method: 'PATCH', url: `${url}/${id}`, payload: { status: 'active' } });
    expect(edited.body.result).toMatchObject({ status: 'active', actions: rule.actions, priority: 1 });
    const replaced = await h.call({
      method: 'PUT',
      url: `${url}/${id}`,
      payload: { targets: rule.targets, actions: [{ id: 'waf', value: 'on' }] },
    });
    expect(replaced.body.result).toMatchObject({ status: 'disabled', actions: [{ id: 'waf', value: 'on' }] });
    expect((await h.call({ method: 'GET', url: `${url}/${id}` })).body.result).toEqual(replaced.body.result);
    expect((await h.call({ method: 'DELETE', url: `${url}/${id}` })).body.result).toEqual({ id });
    await expectError({ method: 'GET', url: `${url}/${id}` }, 404, CODES.pageRuleNotFound);
  });

  it('refuses invalid page rules with 10621, and rules past the plan quota with 10622', async () => {
    for (const payload of [
      { actions: rule.actions },
      { targets: [], actions: rule.actions },
      { targets: [{ target: 'ip', constraint: { operator: 'matches', value: 'x' } }], actions: rule.actions },
      { targets: [{ target: 'url', constraint: { operator: 'regex', value: 'x' } }], actions: rule.actions },
      { targets: rule.targets, actions: [] },
      { targets: rule.targets, actions: [{ id: 'waf', value: 'maybe' }] },
      { targets: rule.targets, actions: [{ id: 'disable_security', value: true }] },
      {
        targets: rule.targets,
        actions: [
          { id: 'waf', value: 'on' },
          { id: 'waf', value: 'off' },
        ],
      },
      { targets: rule.targets, actions: [{ id: 'Not A Setting' }] },
      { ...rule, status: 'paused' },
      { ...rule, priority: 0 },
    ]) {
      await expectError({ method: 'POST', url, payload }, 400, CODES.invalidPageRule);
    }
    const free = zonePath(ZONES.free, '/pagerules');
    for (let i = 0; i < 3; i++)
      expect((await h.call({ method: 'POST', url: free, payload: rule })).status).toBe(200);
    await expectError({ method: 'POST', url: free, payload: rule }, 400, CODES.pageRuleQuotaExceeded);
  });
});

describe('migration endpoints', () => {
  it('check, config and status; the status after each transition', async () => {
    const check = await h.call({ method: 'GET', url: zonePath(Z, '/waf_migration/check?phase_two=1') });
    expect(check.body).toMatchObject({
      success: true,
      result: { compatible: true, migration_state: 'start' },
      messages: [],
    });
    await h.call({
      method: 'POST',
      url: zonePath(Z, '/firewall/waf/overrides'),
      payload: { urls: ['a.example.com'], rules: { '100015': 'disable' } },
    });
    const blocked = await h.call({ method: 'GET', url: zonePath(Z, '/waf_migration/check?phase_two=1') });
    expect(blocked.body.result.compatible).toBe(false);
    expect(blocked.body.messages).toEqual([expect.objectContaining({ code: CODES.migrationHasOverrides })]);
    const config = await h.call({ method: 'GET', url: zonePath(Z, '/waf_migration/config?phase_two=1') });
    expect(config.body.result.name).toBe('default');
    expect(config.body.result.rules.at(-1).action_parameters.id).toBe(OWASP_RULESET_ID);
    const status = await h.call({ method: 'GET', url: zonePath(Z, '/waf_migration/status') });
    expect(status.body.result).toMatchObject({
      migration_state: 'start',
      old_waf_status: 'enabled',
      new_waf_status: 'disabled',
    });
    await expectError(
      { method: 'GET', url: zonePath(Z, '/waf_migration/check?phase_two=2') },
      400,
      CODES.invalidQuery,
    );
    await expectError(
      { method: 'GET', url: zonePath(Z, '/waf_migration/config?phase_two=yes') },
      400,
      CODES.invalidQuery,
    );
    await expectError(
      { method: 'POST', url: zonePath(Z, '/waf_migration/status') },
      405,
      CODES.methodNotAllowed,
    );
    await expectError(
      { method: 'GET', url: zonePath(ZONES.free, '/waf_migration/status') },
      400,
      CODES.wafNotEntitled,
    );
  });
});

it('persists across a restart (settings, overrides, page rules, migration state)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cfrules-prevwaf-'));
  const path = join(dir, 'api.db');
  const open = () => {
    const store = openSqliteStore(path);
    const app = buildApp({ store });
    const call = async (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: object) =>
      (await app.inject({ method, url, payload, headers: { authorization: `Bearer ${TOKEN}` } })).json();
    return { store, app, call };
  };
  try {
    const first = open();
    await applyConfig(first.store, readConfig(CONFIG));
    await first.call('PATCH', packages(Z, `/${OWASP_PACKAGE_ID}`), { sensitivity: 'medium' });
    await first.call('PATCH', packages(Z, `/${CLOUDFLARE_PACKAGE_ID}/rules/100015`), { mode: 'block' });
    const override = await first.call('POST', zonePath(ZONES.pro, '/firewall/waf/overrides'), {
      urls: ['a.example.com'],
      rules: { '100015': 'disable' },
    });
    const page = await first.call('POST', zonePath(Z, '/pagerules'), {
      targets: [{ target: 'url', constraint: { operator: 'matches', value: '*' } }],
      actions: [{ id: 'disable_security' }],
    });
    const config = await first.call('GET', zonePath(ZONES.enterprise, '/waf_migration/config?phase_two=1'));
    const entryPoint = await first.call(
      'PUT',
      zonePath(
        ZONES.enterprise,
        '/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=validation&phase_two=1',
      ),
      { rules: config.result.rules },
    );
    expect(entryPoint.success, JSON.stringify(entryPoint.errors)).toBe(true);
    await first.app.close();
    await first.store.close();

    const second = open();
    expect((await second.call('GET', packages(Z, `/${OWASP_PACKAGE_ID}`))).result.sensitivity).toBe('medium');
    expect(
      (await second.call('GET', packages(Z, `/${CLOUDFLARE_PACKAGE_ID}/rules/100015`))).result.mode,
    ).toBe('block');
    expect(
      (await second.call('GET', zonePath(ZONES.pro, `/firewall/waf/overrides/${override.result.id}`))).result,
    ).toEqual(override.result);
    expect((await second.call('GET', zonePath(Z, `/pagerules/${page.result.id}`))).result).toEqual(
      page.result,
    );
    expect(
      (await second.call('GET', zonePath(ZONES.enterprise, '/waf_migration/status'))).result.migration_state,
    ).toBe('validation');
    await second.app.close();
    await second.store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
