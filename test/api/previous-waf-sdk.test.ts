// The official `cloudflare` SDK (7.3.0) over a socket on the previous WAF, its overrides, page rules and the
// WAF migration: its methods where it has them (packages, groups, rules, overrides, pageRules), raw calls
// where it has none (PATCH of a package, waf_migration/*), and its error classes on our errors.
import type Cloudflare from 'cloudflare';
import { APIError, BadRequestError, NotFoundError } from 'cloudflare';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLOUDFLARE_PACKAGE_ID, OWASP_PACKAGE_ID } from '../../src/engine/previous-waf/index.js';
import { CODES } from '../../src/service/errors.js';
import { ZONES } from './harness.js';
import { type SocketService, serveOnSocket } from './sdk-harness.js';

let service: SocketService;
let cf: Cloudflare;
const zone_id = ZONES.enterprise;
const SPECIALS = 'ea8687e59929c1fd05ba97574ad43f77';

beforeAll(async () => {
  service = await serveOnSocket();
  cf = service.client();
});
afterAll(async () => {
  await service?.close();
});

it('packages, groups and rules through the SDK (auto-pagination included)', async () => {
  const names: string[] = [];
  for await (const pkg of cf.firewall.waf.packages.list({ zone_id, per_page: 5 }))
    names.push((pkg as { name: string }).name);
  expect(names).toEqual(['CloudFlare', 'OWASP ModSecurity Core Rule Set', 'USER']);
  expect(await cf.firewall.waf.packages.get(OWASP_PACKAGE_ID, { zone_id })).toMatchObject({
    detection_mode: 'anomaly',
  });
  // No SDK method patches a package: a raw call.
  const patched = await cf.patch<{ result: { sensitivity: string } }>(
    `/zones/${zone_id}/firewall/waf/packages/${OWASP_PACKAGE_ID}`,
    { body: { sensitivity: 'medium' } },
  );
  expect(patched.result.sensitivity).toBe('medium');

  const groups = [];
  for await (const group of cf.firewall.waf.packages.groups.list(CLOUDFLARE_PACKAGE_ID, {
    zone_id,
    per_page: 5,
  }))
    groups.push(group);
  expect(groups.length).toBeGreaterThan(5);
  const edited = await cf.firewall.waf.packages.groups.edit(SPECIALS, {
    zone_id,
    package_id: CLOUDFLARE_PACKAGE_ID,
    mode: 'off',
  });
  expect(edited).toMatchObject({ mode: 'off' });
  expect(
    await cf.firewall.waf.packages.groups.get(SPECIALS, { zone_id, package_id: CLOUDFLARE_PACKAGE_ID }),
  ).toMatchObject({ mode: 'off' });

  const rules = [];
  for await (const rule of cf.firewall.waf.packages.rules.list(CLOUDFLARE_PACKAGE_ID, {
    zone_id,
    per_page: 50,
  }))
    rules.push(rule);
  expect(rules.map((r) => (r as { id: string }).id)).toContain('100015');
  expect(
    await cf.firewall.waf.packages.rules.edit('100015', {
      zone_id,
      package_id: CLOUDFLARE_PACKAGE_ID,
      mode: 'block',
    }),
  ).toMatchObject({ mode: 'block' });
  expect(
    await cf.firewall.waf.packages.rules.get('100015', { zone_id, package_id: CLOUDFLARE_PACKAGE_ID }),
  ).toMatchObject({ mode: 'block' });
  await expect(
    cf.firewall.waf.packages.rules.edit('100015', { zone_id, package_id: CLOUDFLARE_PACKAGE_ID, mode: 'on' }),
  ).rejects.toBeInstanceOf(BadRequestError);
  await expect(cf.firewall.waf.packages.get('0'.repeat(32), { zone_id })).rejects.toBeInstanceOf(
    NotFoundError,
  );
});

it('overrides (typed void since 7.2: the whole envelope comes back) and page rules', async () => {
  const created = (await cf.firewall.waf.overrides.create({
    zone_id,
    urls: ['shop.example.com/*'],
    rules: { '100015': 'disable' },
  } as never)) as unknown as { result: { id: string } };
  const id = created.result.id;
  const listed = (await cf.firewall.waf.overrides.list({ zone_id })) as unknown as {
    result: { id: string }[];
  };
  expect(listed.result.map((o) => o.id)).toEqual([id]);
  await cf.firewall.waf.overrides.update(id, {
    zone_id,
    id,
    urls: ['b.example.com'],
    rules: {},
    rewrite_action: {},
  });
  const got = (await cf.firewall.waf.overrides.get(id, { zone_id })) as unknown as {
    result: { urls: string[] };
  };
  expect(got.result.urls).toEqual(['b.example.com']);
  const blocked = await cf.get<{ result: { compatible: boolean }; messages: { code: number }[] }>(
    `/zones/${zone_id}/waf_migration/check`,
    { query: { phase_two: 1 } },
  );
  expect(blocked.result.compatible).toBe(false);
  expect(blocked.messages[0]?.code).toBe(CODES.migrationHasOverrides);
  await cf.firewall.waf.overrides.delete(id, { zone_id });

  const page = await cf.pageRules.create({
    zone_id,
    targets: [{ target: 'url', constraint: { operator: 'matches', value: '*example.com/admin/*' } }],
    actions: [{ id: 'waf', value: 'off' }],
    status: 'active',
  });
  expect(await cf.pageRules.list({ zone_id })).toEqual([page]);
  expect(await cf.pageRules.edit(page.id, { zone_id, priority: 3 })).toMatchObject({ priority: 3 });
  expect(await cf.pageRules.get(page.id, { zone_id })).toMatchObject({ priority: 3 });
  const config = await cf.get<{ result: { rules: { action: string }[] } }>(
    `/zones/${zone_id}/waf_migration/config`,
    { query: { phase_two: 1 } },
  );
  expect(config.result.rules.map((r) => r.action)).toEqual(['skip', 'execute', 'execute']);
  await cf.pageRules.update(page.id, {
    zone_id,
    targets: page.targets,
    actions: [{ id: 'always_use_https' }],
  });
  expect(await cf.pageRules.delete(page.id, { zone_id })).toEqual({ id: page.id });
});

it('after the migration: status through a raw call, and 410 (APIError) from the previous WAF', async () => {
  // The migration itself, as the dashboard does it: the generated configuration to the managed entry point.
  const config = await cf.get<{ result: { rules: unknown[] } }>(`/zones/${zone_id}/waf_migration/config`, {
    query: { phase_two: 1 },
  });
  await cf.rulesets.phases.update(
    'http_request_firewall_managed',
    { zone_id, rules: config.result.rules as never },
    { query: { waf_migration: 'pending', phase_two: 1 } },
  );
  const status = await cf.get<{ result: { migration_state: string } }>(
    `/zones/${zone_id}/waf_migration/status`,
  );
  expect(status.result.migration_state).toBe('complete');
  const error = await cf.firewall.waf.packages.get(OWASP_PACKAGE_ID, { zone_id }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(APIError);
  expect((error as APIError).status).toBe(410);
  expect((error as APIError).errors[0]).toMatchObject({ code: CODES.previousWafRetired });
});
