// Token permissions (docs/api.md, "Permissions"): every route checks the permission its product needs,
// zone deletion and plan changes have their own, and the legacy `read`/`edit` words keep working.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CLOUDFLARE_MANAGED_RULESET_ID } from '../../src/engine/managed/catalogue.js';
import { buildApp } from '../../src/http/app.js';
import { PERMISSION_NAMES, type PermissionName } from '../../src/service/permissions.js';
import { applyConfig, readConfig } from '../../src/service/setup.js';
import {
  ACCOUNT,
  EMAIL,
  freshHarnessPerTest,
  type Harness,
  OTHER_TOKEN,
  SCOPED_TOKEN,
  TOKEN,
  ZONES,
  zonePath,
} from './harness.js';

let h: Harness;
freshHarnessPerTest((fresh) => {
  h = fresh;
});

/** A 40-character token value of its own for a list of permissions and zones. */
const tokenFor = (permissions: readonly string[], zones: readonly string[]) =>
  createHash('sha256').update(`${permissions.join()}|${zones.join()}`).digest('base64url').slice(0, 40);

/** Adds tokens to ACCOUNT (the config is applied again, as at a restart) and answers their values. */
async function addTokens(...tokens: { permissions: string[]; zones?: string[] }[]): Promise<string[]> {
  const values = tokens.map(({ permissions, zones = ['*'] }) => tokenFor(permissions, zones));
  await applyConfig(
    h.store,
    readConfig({
      accounts: [
        {
          id: ACCOUNT,
          email: EMAIL,
          api_key: 'a'.repeat(37),
          tokens: tokens.map(({ permissions, zones = ['*'] }, i) => ({
            value: values[i],
            zones,
            permissions,
          })),
        },
      ],
    }),
  );
  return values;
}

const Z = ZONES.enterprise;

function expectForbidden(response: Awaited<ReturnType<Harness['call']>>, missing?: string) {
  expect(response.status).toBe(403);
  expect(response.body.errors[0]).toMatchObject({ code: 10000, message: 'Authentication error' });
  if (missing) expect(JSON.stringify(response.body.errors[0]?.error_chain)).toContain(missing);
}

describe('zone-scoped tokens', () => {
  it('with the legacy edit, cannot change the plan nor delete the zone; pausing still works', async () => {
    const filter = await h.call({
      method: 'POST',
      url: zonePath(Z, '/filters'),
      token: SCOPED_TOKEN,
      payload: [{ expression: 'http.request.uri.path eq "/x"' }],
    });
    expect(filter.status).toBe(200);
    const upgrade = { method: 'PATCH' as const, url: zonePath(ZONES.enterprise), token: SCOPED_TOKEN };
    expectForbidden(await h.call({ ...upgrade, payload: { plan: { id: 'free' } } }), 'billing:edit');
    expectForbidden(await h.call({ method: 'DELETE', url: zonePath(Z), token: SCOPED_TOKEN }), 'zone:edit');
    const zone = await h.call({ url: zonePath(Z), token: SCOPED_TOKEN });
    expect(zone.body.result.plan.id).toBe('enterprise');
    expect((await h.call({ url: zonePath(Z, '/filters'), token: SCOPED_TOKEN })).body.result).toHaveLength(1);
    const paused = await h.call({ ...upgrade, payload: { paused: true } });
    expect(paused.status).toBe(200);
    expect(paused.body.result.paused).toBe(true);
  });

  it('with billing:edit and zone:edit by name, may change the plan and delete the zone, not create one', async () => {
    const [token] = await addTokens({
      permissions: ['zone:read', 'billing:edit', 'zone:edit'],
      zones: ['example.com'],
    });
    const upgrade = await h.call({ method: 'PATCH', url: zonePath(Z), token, payload: { plan: 'pro' } });
    expect(upgrade.body.result.plan.id).toBe('pro');
    // Pausing is a setting, which this token was not given.
    expectForbidden(
      await h.call({ method: 'PATCH', url: zonePath(Z), token, payload: { paused: true } }),
      'zone_settings:edit',
    );
    expectForbidden(
      await h.call({ method: 'POST', url: '/client/v4/zones', token, payload: { name: 'new.example' } }),
    );
    expect((await h.call({ method: 'DELETE', url: zonePath(Z), token })).status).toBe(200);
    expect((await h.call({ url: zonePath(Z) })).status).toBe(404);
  });
});

describe('account-wide tokens', () => {
  it('with the legacy edit keep creating, upgrading and deleting zones', async () => {
    const created = await h.call({
      method: 'POST',
      url: '/client/v4/zones',
      payload: { name: 'new.example' },
    });
    expect(created.status).toBe(200);
    const id = created.body.result.id as string;
    const upgraded = await h.call({ method: 'PATCH', url: zonePath(id), payload: { plan: 'business' } });
    expect(upgraded.body.result.plan.id).toBe('business');
    expect((await h.call({ method: 'DELETE', url: zonePath(id) })).status).toBe(200);
  });

  it('need zone:read to list zones, and zone:edit to create one', async () => {
    const [rulesOnly, creator] = await addTokens(
      { permissions: ['firewall_services:edit'] },
      { permissions: ['zone:edit'] },
    );
    expectForbidden(await h.call({ url: '/client/v4/zones', token: rulesOnly }), 'zone:read');
    expectForbidden(
      await h.call({
        method: 'POST',
        url: '/client/v4/zones',
        token: rulesOnly,
        payload: { name: 'a.example' },
      }),
      'zone:edit',
    );
    const created = await h.call({
      method: 'POST',
      url: '/client/v4/zones',
      token: creator,
      payload: { name: 'b.example' },
    });
    expect(created.status).toBe(200);
  });
});

describe('products', () => {
  it('firewall services edit reaches filters and firewall rules, not rulesets nor the WAF', async () => {
    const [token] = await addTokens({ permissions: ['firewall_services:edit'] });
    const created = await h.call({
      method: 'POST',
      url: zonePath(Z, '/firewall/rules'),
      token,
      payload: [{ action: 'block', filter: { expression: 'ip.src eq 192.0.2.1' } }],
    });
    expect(created.status).toBe(200);
    expect((await h.call({ url: zonePath(Z, '/filters'), token })).body.result).toHaveLength(1);
    expectForbidden(await h.call({ url: zonePath(Z, '/rulesets'), token }), 'rulesets:read');
    expectForbidden(await h.call({ url: zonePath(Z, '/firewall/waf/packages'), token }), 'zone_waf:read');
    expectForbidden(await h.call({ url: zonePath(Z, '/pagerules'), token }), 'page_rules:read');
  });

  it('read permissions read and never write', async () => {
    const [token] = await addTokens({ permissions: ['rulesets:read'] });
    expect((await h.call({ url: zonePath(Z, '/rulesets'), token })).status).toBe(200);
    expectForbidden(
      await h.call({
        method: 'PUT',
        url: zonePath(Z, '/rulesets/phases/http_request_firewall_custom/entrypoint'),
        token,
        payload: { rules: [] },
      }),
      'rulesets:edit',
    );
  });

  it('the WAF migration hook of an entry point also needs zone_waf:edit', async () => {
    const [rulesets, both] = await addTokens(
      { permissions: ['rulesets:edit'] },
      { permissions: ['rulesets:edit', 'zone_waf:edit'] },
    );
    const put = (token: string) =>
      h.call({
        method: 'PUT',
        url: zonePath(
          ZONES.pro,
          '/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=pending&phase_two=1',
        ),
        token,
        payload: {
          rules: [
            {
              action: 'execute',
              expression: 'true',
              action_parameters: { id: CLOUDFLARE_MANAGED_RULESET_ID },
            },
          ],
        },
      });
    const status = async () =>
      (await h.call({ url: zonePath(ZONES.pro, '/waf_migration/status') })).body.result;
    const before = await status();
    expectForbidden(await put(rulesets), 'zone_waf:edit');
    expect(await status()).toEqual(before);
    expect((await put(both)).status).toBe(200);
    expect(await status()).not.toEqual(before);
  });

  it('simulating a request reads every product', async () => {
    const [partial, reader] = await addTokens(
      { permissions: ['firewall_services:read', 'rulesets:read'] },
      { permissions: ['read'] },
    );
    const simulate = (token: string) =>
      h.call({
        method: 'POST',
        url: zonePath(Z, '/simulate'),
        token,
        payload: { request: { url: 'https://example.com/' } },
      });
    expectForbidden(await simulate(partial), 'zone_waf:read and page_rules:read');
    expect((await simulate(reader)).status).toBe(200);
    // Compiling the zone's managed rulesets the first time takes a few seconds.
  }, 30_000);
});

describe('every route', () => {
  /** The permission a route needs by the documented rule: its product's read for GET, edit otherwise. */
  function needed(method: string, url: string): PermissionName[] | undefined {
    if (url === '/client/v4/filters/validate-expr') return undefined;
    if (url === '/client/v4/zones') return [method === 'GET' ? 'zone:read' : 'zone:edit'];
    if (url === '/client/v4/zones/:zone_id') {
      if (method === 'GET') return ['zone:read'];
      return [method === 'DELETE' ? 'zone:edit' : 'zone_settings:edit'];
    }
    if (url.endsWith('/simulate'))
      return ['firewall_services:read', 'rulesets:read', 'zone_waf:read', 'page_rules:read'];
    const product = url.startsWith('/client/v4/accounts/')
      ? 'account_rulesets'
      : url.includes('/rulesets')
        ? 'rulesets'
        : url.includes('/pagerules')
          ? 'page_rules'
          : url.includes('/firewall/waf') || url.includes('/waf_migration')
            ? 'zone_waf'
            : 'firewall_services';
    return [`${product}:${method === 'GET' ? 'read' : 'edit'}`];
  }

  // The zone's own routes (DELETE among them) work on a zone of their own, so that the others keep theirs.
  const sample = (url: string) =>
    url
      .replace(':zone_id', url.endsWith(':zone_id') ? ZONES.free : Z)
      .replace(':account_id', ACCOUNT)
      .replace(':phase', 'http_request_firewall_custom')
      .replace(':version', '1')
      .replace(/:[a-z_]+/g, 'f'.repeat(32));

  it('refuses a token without permissions, and lets the documented permission through', async () => {
    const routes: { method: string; url: string }[] = [];
    const app = buildApp({ store: h.store, reportError: () => {} });
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD') routes.push({ method, url: route.url });
      }
    });
    await app.ready();
    const [none] = await addTokens({ permissions: [] });
    const tokens = new Map<string, string>();
    for (const name of PERMISSION_NAMES)
      tokens.set(name, (await addTokens({ permissions: [name] }))[0] as string);
    expect(routes.length).toBeGreaterThan(40);
    const checked: string[] = [];
    for (const { method, url } of routes) {
      const call = async (token: string) => {
        const response = await app.inject({
          method: method as 'GET',
          url: sample(url),
          headers: { authorization: `Bearer ${token}` },
          ...(method === 'GET' ? {} : { payload: {} }),
        });
        return response.statusCode;
      };
      const first = await call(none as string);
      // The other methods of a path answer 405 whoever asks: there is nothing there to protect.
      if (first === 405) continue;
      const needs = needed(method, url);
      checked.push(`${method} ${url}`);
      if (!needs) {
        expect(first, `${method} ${url}`).not.toBe(403);
        continue;
      }
      expect(first, `${method} ${url} without permissions`).toBe(403);
      if (needs.length === 1) {
        expect(await call(tokens.get(needs[0] as PermissionName) as string), `${method} ${url}`).not.toBe(
          403,
        );
      }
    }
    expect(checked.length).toBeGreaterThan(40);
    await app.close();
  });

  it('the legacy words and the global key still reach everything they did', async () => {
    for (const token of [TOKEN]) {
      expect((await h.call({ url: zonePath(Z, '/rulesets'), token })).status).toBe(200);
      expect((await h.call({ url: zonePath(Z, '/firewall/waf/packages'), token })).status).toBe(200);
    }
    const byKey = await h.call({
      auth: false,
      url: zonePath(Z, '/pagerules'),
      headers: { 'x-auth-email': EMAIL, 'x-auth-key': 'a'.repeat(37) },
    });
    expect(byKey.status).toBe(200);
  });
});

describe('zone names', () => {
  it('are unique per account: another account may use one, and learns nothing about it', async () => {
    // other.example belongs to OTHER_ACCOUNT; example.com to ACCOUNT.
    const mine = await h.call({
      method: 'POST',
      url: '/client/v4/zones',
      payload: { name: 'other.example' },
    });
    expect(mine.status).toBe(200);
    expect(mine.body.result.account.id).toBe(ACCOUNT);
    const theirs = await h.call({
      method: 'POST',
      url: '/client/v4/zones',
      token: OTHER_TOKEN,
      payload: { name: 'example.com' },
    });
    expect(theirs.status).toBe(200);
    // Each account sees its own zone of that name only.
    const listed = await h.call({ url: '/client/v4/zones?name=other.example' });
    expect(listed.body.result.map((zone: { id: string }) => zone.id)).toEqual([mine.body.result.id]);
    const again = await h.call({
      method: 'POST',
      url: '/client/v4/zones',
      payload: { name: 'other.example' },
    });
    expect(again.body.errors[0]).toMatchObject({ code: 1061, message: 'other.example already exists' });
  });
});

describe('the config', () => {
  it('refuses an unknown permission with the list of known ones', () => {
    expect(() =>
      readConfig({
        accounts: [
          { id: ACCOUNT, email: EMAIL, tokens: [{ value: 'x'.repeat(40), permissions: ['waf:edit'] }] },
        ],
      }),
    ).toThrow(
      /accounts\[0\]\.tokens\[0\]\.permissions\[0\]: must be a permission \(zone:read, .*rulesets:edit\), or read or edit/,
    );
  });
});
