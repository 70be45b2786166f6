// Random bodies and queries on the previous WAF, override, page rule and migration endpoints: never a 5xx,
// 2xx exactly when `success`, and a refused write leaves every stored record as it was.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { CLOUDFLARE_PACKAGE_ID, OWASP_PACKAGE_ID } from '../../src/engine/previous-waf/index.js';
import { freshHarnessPerTest, type Harness, ZONES, zonePath } from './harness.js';

let h: Harness;
freshHarnessPerTest((fresh) => {
  h = fresh;
});

const Z = ZONES.enterprise;
const SPECIALS = 'ea8687e59929c1fd05ba97574ad43f77';

/** Everything these endpoints store for the zone. */
const snapshot = () =>
  h.store.transaction(async (tx) => ({
    settings: await tx.wafSettings.list(Z),
    overrides: (await tx.wafOverrides.list(Z, { page: 1, perPage: 1000 })).items,
    pageRules: await tx.pageRules.list(Z),
    migration: await tx.wafMigrations.get(Z),
  }));

const word = fc.constantFrom(
  'on',
  'off',
  'default',
  'disable',
  'simulate',
  'block',
  'challenge',
  'high',
  'low',
  'medium',
  'off',
  'x',
  '',
  'matches',
  'url',
  'waf',
  'disable_security',
  'active',
  SPECIALS,
  '100015',
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    word,
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(
      fc.oneof(
        word,
        fc.constantFrom(
          'urls',
          'rules',
          'groups',
          'rewrite_action',
          'targets',
          'actions',
          'mode',
          'sensitivity',
          'action_mode',
          'priority',
          'status',
          'id',
          'value',
          'constraint',
          'operator',
          'target',
          '__proto__',
        ),
      ),
      tie('value'),
      { maxKeys: 4 },
    ),
  ),
})).value;

const override = { urls: ['a.example.com'], rules: { '100015': 'disable' } };
const pageRule = {
  targets: [{ target: 'url', constraint: { operator: 'matches', value: '*a*' } }],
  actions: [{ id: 'waf', value: 'off' }],
};

it('random bodies: no 5xx, and a refusal changes nothing', async () => {
  const o = (await h.call({ method: 'POST', url: zonePath(Z, '/firewall/waf/overrides'), payload: override }))
    .body.result.id;
  const p = (await h.call({ method: 'POST', url: zonePath(Z, '/pagerules'), payload: pageRule })).body.result
    .id;
  const targets: [string, string][] = [
    ['PATCH', `/firewall/waf/packages/${OWASP_PACKAGE_ID}`],
    ['PATCH', `/firewall/waf/packages/${CLOUDFLARE_PACKAGE_ID}`],
    ['PATCH', `/firewall/waf/packages/${CLOUDFLARE_PACKAGE_ID}/groups/${SPECIALS}`],
    ['PATCH', `/firewall/waf/packages/${CLOUDFLARE_PACKAGE_ID}/rules/100015`],
    ['POST', '/firewall/waf/overrides'],
    ['PUT', `/firewall/waf/overrides/${o}`],
    ['POST', '/pagerules'],
    ['PUT', `/pagerules/${p}`],
    ['PATCH', `/pagerules/${p}`],
  ];
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...targets), value, async ([method, path], body) => {
      const before = await snapshot();
      const response = await h.call({
        method: method as 'POST',
        url: zonePath(Z, path),
        payload: JSON.stringify(body) ?? 'null',
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBeLessThan(500);
      expect(response.body.success).toBe(response.status === 200);
      if (response.status !== 200) expect(await snapshot()).toEqual(before);
    }),
    { numRuns: 300 },
  );
}, 30_000);

it('random queries on the lists and the migration endpoints: no 5xx', async () => {
  const paths = [
    '/firewall/waf/packages',
    `/firewall/waf/packages/${CLOUDFLARE_PACKAGE_ID}/groups`,
    `/firewall/waf/packages/${CLOUDFLARE_PACKAGE_ID}/rules`,
    '/firewall/waf/overrides',
    '/pagerules',
    '/waf_migration/check',
    '/waf_migration/config',
    '/waf_migration/status',
  ];
  const key = fc.constantFrom(
    'page',
    'per_page',
    'order',
    'direction',
    'match',
    'mode',
    'name',
    'description',
    'group_id',
    'priority',
    'rules_count',
    'status',
    'phase_two',
  );
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...paths),
      fc.array(fc.tuple(key, fc.oneof(word, fc.string(), fc.integer().map(String))), { maxLength: 4 }),
      async (path, pairs) => {
        const query = new URLSearchParams(pairs).toString();
        const response = await h.call({ method: 'GET', url: `${zonePath(Z, path)}?${query}` });
        expect(response.status).toBeLessThan(500);
        expect(response.body.success).toBe(response.status === 200);
      },
    ),
    { numRuns: 300 },
  );
}, 30_000);
