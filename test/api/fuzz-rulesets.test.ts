// Properties of the Rulesets endpoints over random requests (as test/api/fuzz.test.ts does for the older
// APIs): every answer is the envelope (or a bodiless 204), never a 5xx; a refused write changes no ruleset
// and no version. Bodies are random JSON, and valid bodies with one value replaced by a random one, so that
// the checks deep inside rules (action parameters, overrides, rate limits, positions) are reached.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CLOUDFLARE_MANAGED_RULESET_ID,
  OWASP_ANOMALY_RULE_ID,
  OWASP_RULESET_ID,
} from '../../src/engine/managed/index.js';
import type { RulesetJson } from '../../src/service/rulesets/model.js';
import { ACCOUNT, type Envelope, freshHarnessPerTest, type Harness, ZONES, zonePath } from './harness.js';
import { RULE_OF_PHASE } from './phase-rules.js';

let h: Harness;
freshHarnessPerTest((fresh) => {
  h = fresh;
});

const TIMEOUT = 30_000;
const ZONE_LIST = [ZONES.enterprise, ZONES.pro] as const;
const base = (zone: string) => zonePath(zone, '/rulesets');
/** The account's rulesets (docs/api.md §11.6), fuzzed beside the zones'. */
const ACCOUNT_BASE = `/client/v4/accounts/${ACCOUNT}/rulesets`;
/** Where the state is read: both zones' rulesets and the account's. */
const BASES = [...ZONE_LIST.map(base), ACCOUNT_BASE];

/** Placeholders for what the seed creates in each zone, replaced in urls and bodies before sending. */
let seeded: Record<string, string> = {};
const resolve = (text: string): string =>
  text.replace(/@(aruleset|arule0|ruleset|rule0|rule1|entry)/g, (_m, name) => seeded[name] ?? name);

async function seed(): Promise<void> {
  const zone = ZONES.enterprise;
  // Start afresh: delete what earlier requests created (entry points first: they may execute the others).
  for (const owner of [base(zone), ACCOUNT_BASE]) {
    const list = (await h.call({ url: `${owner}?per_page=500` })).body.result as RulesetJson[];
    const kinds = ['zone', 'root', 'custom'];
    for (const ruleset of list
      .filter((r) => r.kind !== 'managed')
      .sort((a, b) => kinds.indexOf(a.kind) - kinds.indexOf(b.kind))) {
      await h.app.inject({
        method: 'DELETE',
        url: `${owner}/${ruleset.id}`,
        headers: { authorization: `Bearer ${'T'.repeat(40)}` },
      });
    }
  }
  const accountCustom = (
    await h.call({
      method: 'POST',
      url: ACCOUNT_BASE,
      payload: { name: 'a', kind: 'custom', phase: 'http_request_firewall_custom', rules: [VALID_RULE] },
    })
  ).body.result as RulesetJson;
  await h.call({
    method: 'PUT',
    url: `${ACCOUNT_BASE}/phases/http_request_firewall_custom/entrypoint`,
    payload: { rules: [accountExecute(accountCustom.id)] },
  });
  const custom = (
    await h.call({
      method: 'POST',
      url: base(zone),
      payload: {
        name: 's',
        kind: 'custom',
        phase: 'http_request_firewall_custom',
        rules: [VALID_RULE, { ...VALID_RULE, expression: 'true' }],
      },
    })
  ).body.result as RulesetJson;
  const entry = (
    await h.call({
      method: 'PUT',
      url: `${base(zone)}/phases/http_request_firewall_managed/entrypoint`,
      payload: { rules: [VALID_EXECUTE] },
    })
  ).body.result as RulesetJson;
  seeded = {
    ruleset: custom.id,
    rule0: custom.rules?.[0]?.id ?? '',
    rule1: custom.rules?.[1]?.id ?? '',
    entry: entry.id,
    aruleset: accountCustom.id,
    arule0: accountCustom.rules?.[0]?.id ?? '',
  };
}

/** An account root's rule: deploys one of the account's custom rulesets on a zone. */
const accountExecute = (id: string) => ({
  action: 'execute',
  expression: 'cf.zone.name eq "example.com"',
  action_parameters: { id, version: 'latest' },
});

const VALID_RULE = { action: 'block', expression: 'ip.src eq 192.0.2.1', description: 'd', enabled: true };
const VALID_EXECUTE = {
  action: 'execute',
  expression: 'true',
  action_parameters: {
    id: OWASP_RULESET_ID,
    overrides: {
      action: 'log',
      categories: [{ category: 'paranoia-level-3', enabled: false }],
      rules: [{ id: OWASP_ANOMALY_RULE_ID, score_threshold: 25 }],
    },
  },
};
const VALID_SKIP = {
  action: 'skip',
  expression: 'true',
  action_parameters: { rulesets: [CLOUDFLARE_MANAGED_RULESET_ID] },
  logging: { enabled: true },
};
const VALID_LIMIT = {
  action: 'block',
  expression: 'true',
  ratelimit: {
    characteristics: ['ip.src', 'cf.colo.id'],
    period: 60,
    requests_per_period: 5,
    mitigation_timeout: 60,
    counting_expression: 'http.response.code eq 401',
  },
};

type Method = 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'GET';
interface Target {
  method: Method;
  url: string;
  /** A valid body to mutate. */
  valid: unknown;
}

const targets = (zone: string): Target[] => [
  {
    method: 'POST',
    url: base(zone),
    valid: { name: 'n', kind: 'custom', phase: 'http_request_firewall_custom', rules: [VALID_RULE] },
  },
  {
    method: 'PUT',
    url: `${base(zone)}/@ruleset`,
    valid: { description: 'x', rules: [{ ...VALID_RULE, id: '@rule0' }, VALID_RULE] },
  },
  {
    method: 'POST',
    url: `${base(zone)}/@ruleset/rules`,
    valid: { ...VALID_RULE, position: { after: '@rule0' } },
  },
  {
    method: 'PATCH',
    url: `${base(zone)}/@ruleset/rules/@rule1`,
    valid: { enabled: false, position: { index: 1 } },
  },
  { method: 'DELETE', url: `${base(zone)}/@ruleset/rules/@rule0`, valid: undefined },
  {
    method: 'PUT',
    url: `${base(zone)}/phases/http_request_firewall_managed/entrypoint`,
    valid: { rules: [VALID_EXECUTE, VALID_SKIP] },
  },
  {
    method: 'PUT',
    url: `${base(zone)}/phases/http_request_firewall_custom/entrypoint`,
    valid: {
      rules: [
        VALID_RULE,
        { action: 'skip', expression: 'true', action_parameters: { ruleset: 'current', products: ['waf'] } },
      ],
    },
  },
  { method: 'PUT', url: `${base(zone)}/phases/http_ratelimit/entrypoint`, valid: { rules: [VALID_LIMIT] } },
  // The Rules products' phases: their action parameters are deep, open-ended JSON.
  ...Object.entries(RULE_OF_PHASE).map(([phase, rule]) => ({
    method: 'PUT' as const,
    url: `${base(zone)}/phases/${phase}/entrypoint`,
    valid: { rules: [rule] },
  })),
  { method: 'PUT', url: `${base(zone)}/@entry`, valid: { rules: [VALID_EXECUTE] } },
];
const ACCOUNT_TARGETS: Target[] = [
  {
    method: 'POST',
    url: ACCOUNT_BASE,
    valid: { name: 'n', kind: 'custom', phase: 'http_ratelimit', rules: [VALID_LIMIT] },
  },
  { method: 'PUT', url: `${ACCOUNT_BASE}/@aruleset`, valid: { rules: [{ ...VALID_RULE, id: '@arule0' }] } },
  {
    method: 'PATCH',
    url: `${ACCOUNT_BASE}/@aruleset/rules/@arule0`,
    valid: { action: 'managed_challenge', position: { index: 1 } },
  },
  { method: 'DELETE', url: `${ACCOUNT_BASE}/@aruleset`, valid: undefined },
  {
    method: 'PUT',
    url: `${ACCOUNT_BASE}/phases/http_request_firewall_custom/entrypoint`,
    valid: { rules: [accountExecute('@aruleset')] },
  },
  {
    method: 'PUT',
    url: `${ACCOUNT_BASE}/phases/http_request_firewall_managed/entrypoint`,
    valid: { rules: [VALID_EXECUTE, VALID_SKIP] },
  },
];
// The seed is in the Enterprise zone and the account; the Pro zone's targets are those that name nothing
// seeded.
const BODY_TARGETS = [
  ...targets(ZONES.enterprise),
  ...targets(ZONES.pro).filter((target) => !target.url.includes('@')),
  ...ACCOUNT_TARGETS,
];
const QUERY_TARGETS: Target[] = [
  { method: 'GET', url: base(ZONES.enterprise), valid: undefined },
  { method: 'GET', url: `${base(ZONES.enterprise)}/@ruleset/versions/1`, valid: undefined },
  { method: 'DELETE', url: `${base(ZONES.enterprise)}/@ruleset/versions/1`, valid: undefined },
  {
    method: 'PUT',
    url: `${base(ZONES.pro)}/phases/http_request_firewall_managed/entrypoint`,
    valid: { rules: [{ ...VALID_EXECUTE, enabled: false }] },
  },
  {
    method: 'PUT',
    url: `${base(ZONES.enterprise)}/phases/http_request_firewall_custom/entrypoint`,
    valid: { rules: [] },
  },
];

/** Every version of every ruleset of both zones and of the account. */
async function state(): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const owner of BASES) {
    const list = (await h.call({ url: `${owner}?per_page=500` })).body.result as RulesetJson[];
    for (const ruleset of list.filter((r) => r.kind !== 'managed')) {
      const versions = (await h.call({ url: `${owner}/${ruleset.id}/versions` })).body
        .result as RulesetJson[];
      for (const v of versions)
        out.push((await h.call({ url: `${owner}/${ruleset.id}/versions/${v.version}` })).body.result);
    }
  }
  return out;
}

function expectEnvelope(response: { status: number; body: Envelope }): void {
  expect(response.status).toBeLessThan(500);
  expect(h.internalErrors).toEqual([]);
  if (response.status === 204) return;
  const { body, status } = response;
  expect(status >= 200 && status < 300).toBe(body.success);
  expect(Array.isArray(body.errors) && Array.isArray(body.messages)).toBe(true);
  if (!body.success) {
    expect(body.result).toBeNull();
    for (const error of body.errors) {
      expect(typeof error.code).toBe('number');
      expect(typeof error.message).toBe('string');
    }
  }
}

// ——— arbitraries ———

const randomValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    null,
    true,
    0,
    -1,
    1.5,
    1e21,
    '',
    'current',
    'latest',
    '@rule0',
    '@ruleset',
    '@aruleset',
    'root',
    'cf.zone.name eq "example.com"',
    'f'.repeat(32),
    OWASP_RULESET_ID,
    CLOUDFLARE_MANAGED_RULESET_ID,
    OWASP_ANOMALY_RULE_ID,
    'paranoia-level-1',
    'sqli',
    'block',
    'execute',
    'skip',
    'log',
    'ip.src eq',
    'ip.src eq 1.1.1.1',
    'http.response.code eq 1',
    '__proto__',
    [],
    {},
    [null],
    { before: '' },
    { index: 99 },
    ['cf.colo.id'],
    'http.request.headers["x"]',
  ),
);

/** The paths of every value inside a JSON document (objects and arrays included). */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const own = prefix.length === 0 ? [] : [prefix];
  if (Array.isArray(value)) return [...own, ...value.flatMap((item, i) => paths(item, [...prefix, i]))];
  if (typeof value === 'object' && value !== null) {
    return [...own, ...Object.entries(value).flatMap(([k, v]) => paths(v, [...prefix, k]))];
  }
  return own;
}

/** `valid` with the value at one path replaced, or one member added or removed. */
function mutated(valid: unknown): fc.Arbitrary<string> {
  const all = paths(valid);
  if (all.length === 0) return randomValue.map((value) => JSON.stringify(value));
  return fc
    .tuple(
      fc.constantFrom(...all),
      randomValue,
      fc.constantFrom('set', 'delete', 'add'),
      fc.constantFrom('extra', 'id', 'enabled', 'position', 'overrides', 'ratelimit'),
    )
    .map(([path, value, how, key]) => {
      const copy = structuredClone(valid) as Record<string | number, unknown>;
      let parent: Record<string | number, unknown> = copy;
      for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
      const last = path[path.length - 1] as string | number;
      if (how === 'set') parent[last] = value;
      else if (how === 'delete' && !Array.isArray(parent)) delete parent[last];
      else if (typeof parent[last] === 'object' && parent[last] !== null && !Array.isArray(parent[last]))
        (parent[last] as Record<string, unknown>)[key] = value;
      else parent[last] = value;
      return JSON.stringify(copy);
    });
}

const bodyFor = (target: Target): fc.Arbitrary<string> =>
  fc.oneof(
    mutated(target.valid),
    randomValue.map((value) => JSON.stringify(value)),
    fc.constant(JSON.stringify(target.valid ?? {})),
  );

const queryText = fc
  .array(
    fc.tuple(
      fc.constantFrom('cursor', 'per_page', 'dry_run', 'waf_migration', 'phase_two', 'other'),
      fc.oneof(
        fc.constantFrom('1', '2', '0', 'true', 'false', 'pending', 'validation', '501', '@ruleset', ''),
        fc.string({ maxLength: 10 }),
      ),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => `?${new URLSearchParams(pairs).toString()}`);

async function send(target: Target, query: string, body?: string) {
  return h.call({
    method: target.method,
    url: resolve(`${target.url}${query}`),
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, payload: resolve(body) }),
  });
}

describe('rulesets: random requests', () => {
  it(
    'bodies: the envelope, never a 5xx; a refused write changes nothing',
    async () => {
      await seed();
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...BODY_TARGETS).chain((target) => fc.tuple(fc.constant(target), bodyFor(target))),
          async ([target, body]) => {
            const before = await state();
            const response = await send(target, '', body);
            expectEnvelope(response);
            if (response.status >= 400) expect(await state()).toEqual(before);
            else await seed();
          },
        ),
        { numRuns: 250 },
      );
    },
    TIMEOUT,
  );

  it(
    'queries: the envelope, never a 5xx; a refused write changes nothing',
    async () => {
      await seed();
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...QUERY_TARGETS), queryText, async (target, query) => {
          const before = await state();
          const response = await send(
            target,
            query,
            target.valid === undefined ? undefined : JSON.stringify(target.valid),
          );
          expectEnvelope(response);
          if (response.status >= 400) expect(await state()).toEqual(before);
          else if (target.method !== 'GET') await seed();
        }),
        { numRuns: 150 },
      );
    },
    TIMEOUT,
  );
});
