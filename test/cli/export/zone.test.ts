// `cfrules export zone`: the zone file of a zone, read from a service running in this process (over HTTP,
// with a token) or from its database file; both sources give the same file, which the engine's checks accept.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { CliIo } from '../../../src/cli/command.js';
import { loadCommands, runCli } from '../../../src/cli/main.js';
import { compileZone } from '../../../src/engine/index.js';
import { CLOUDFLARE_MANAGED_RULESET_ID } from '../../../src/engine/managed/index.js';
import {
  OWASP_PACKAGE_ID,
  PREVIOUS_WAF_GROUPS,
  PREVIOUS_WAF_RULES,
} from '../../../src/engine/previous-waf/index.js';
import { checkPreviousWaf } from '../../../src/engine/previous-waf/simulate.js';
import type { ZoneFile } from '../../../src/engine/zone/model.js';
import { buildApp } from '../../../src/http/app.js';
import { applyConfig, readConfig } from '../../../src/service/setup.js';
import { openSqliteStore } from '../../../src/store/sqlite.js';
import type { Store } from '../../../src/store/store.js';

await loadCommands();

const ACCOUNT = '0123456789abcdef0123456789abcdef';
const TOKEN = 'Z0ne_exp'.padEnd(40, 'x');
const READER = 'Z0ne_exp'.padEnd(40, 'r');
const OUTSIDER = 'Z0ne_exp'.padEnd(40, 'o');
const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
const FREE = '33333333333333333333333333333333';
const MIGRATED = '22222222222222222222222222222222';
const SPECIALS = 'ea8687e59929c1fd05ba97574ad43f77';
const sqliUnion = PREVIOUS_WAF_RULES.find(
  (rule) => rule.description === 'SQL injection: UNION-based queries',
);
const flash = PREVIOUS_WAF_GROUPS.find((group) => group.name === 'Cloudflare Flash');

const dir = mkdtempSync(join(tmpdir(), 'cfrules-export-zone-'));
const db = join(dir, 'zone.db');
let store: Store;
let app: FastifyInstance;
let api: string;

// biome-ignore lint/suspicious/noExplicitAny: API answers, checked by the assertions
async function call(method: string, path: string, body?: unknown, token = TOKEN): Promise<any> {
  const response = await fetch(`${api}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = await response.json();
  if (!answer.success) throw new Error(`${method} ${path}: ${JSON.stringify(answer.errors)}`);
  return answer.result;
}

beforeAll(async () => {
  store = openSqliteStore(db);
  await applyConfig(
    store,
    readConfig({
      accounts: [
        {
          id: ACCOUNT,
          email: 'ops@example.com',
          tokens: [
            { value: TOKEN, zones: ['*'], permissions: ['read', 'edit'] },
            { value: READER, zones: [ZONE], permissions: ['read'] },
            { value: OUTSIDER, zones: [FREE], permissions: ['read'] },
          ],
        },
      ],
      zones: [
        { id: ZONE, name: 'example.com', plan: 'enterprise', account: ACCOUNT },
        { id: FREE, name: 'free.example', plan: 'free', account: ACCOUNT },
        { id: MIGRATED, name: 'migrated.example', plan: 'business', account: ACCOUNT },
      ],
    }),
  );
  app = buildApp({ store });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  api = `${address}/client/v4`;
  const z = `/zones/${ZONE}`;
  await call('POST', `${z}/firewall/rules`, [
    {
      action: 'block',
      priority: 2,
      description: 'no admin',
      filter: { expression: 'http.request.uri.path eq "/admin"' },
    },
    {
      action: 'bypass',
      products: ['waf'],
      description: 'office',
      filter: { expression: 'ip.src in {192.0.2.0/24}', description: 'the office' },
    },
  ]);
  await call('PUT', `${z}/rulesets/phases/http_request_firewall_custom/entrypoint`, {
    rules: [{ action: 'challenge', expression: 'ip.src.country eq "T1"', description: 'Tor', ref: 'tor' }],
  });
  await call('PUT', `${z}/rulesets/phases/http_request_firewall_managed/entrypoint`, {
    rules: [
      { action: 'execute', expression: 'true', action_parameters: { id: CLOUDFLARE_MANAGED_RULESET_ID } },
    ],
  });
  const packages = `${z}/firewall/waf/packages`;
  await call('PATCH', `${packages}/${OWASP_PACKAGE_ID}`, { sensitivity: 'low', action_mode: 'block' });
  await call('PATCH', `${packages}/${sqliUnion?.package_id}/rules/${sqliUnion?.id}`, { mode: 'simulate' });
  await call('PATCH', `${packages}/${flash?.package_id}/groups/${flash?.id}`, { mode: 'on' });
  await call('POST', `${z}/firewall/waf/overrides`, {
    urls: ['example.com/api/*'],
    groups: { [SPECIALS]: 'disable' },
    rewrite_action: { block: 'challenge' },
    priority: 3,
  });
  for (const [priority, value] of [
    [1, 'off'],
    [5, 'on'],
  ] as const) {
    await call('POST', `${z}/pagerules`, {
      targets: [{ target: 'url', constraint: { operator: 'matches', value: `example.com/p${priority}/*` } }],
      actions: [{ id: 'waf', value }],
      priority,
      status: 'active',
    });
  }
  // The account's: a custom ruleset its root entry point deploys on example.com only.
  const accountCustom = (await call('POST', `/accounts/${ACCOUNT}/rulesets`, {
    name: 'account admin',
    kind: 'custom',
    phase: 'http_request_firewall_custom',
    rules: [{ action: 'managed_challenge', expression: 'http.request.uri.path eq "/login"' }],
  })) as { id: string };
  await call('PUT', `/accounts/${ACCOUNT}/rulesets/phases/http_request_firewall_custom/entrypoint`, {
    rules: [
      {
        action: 'execute',
        expression: 'cf.zone.name eq "example.com"',
        action_parameters: { id: accountCustom.id },
      },
    ],
  });
  await call('PUT', `/zones/${FREE}/rulesets/phases/http_request_firewall_custom/entrypoint`, {
    rules: [{ action: 'block', expression: 'http.host eq "free.example"' }],
  });
  const migrated = `/zones/${MIGRATED}/rulesets/phases/http_request_firewall_managed/entrypoint`;
  await call('PUT', `${migrated}?waf_migration=pending&phase_two=1`, {
    rules: [
      { action: 'execute', expression: 'true', action_parameters: { id: CLOUDFLARE_MANAGED_RULESET_ID } },
    ],
  });
});

afterAll(async () => {
  await app.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  files: Record<string, string>;
}

async function exportZone(args: string[]): Promise<Run> {
  const run: Run = { code: -1, stdout: '', stderr: '', files: {} };
  const io: CliIo = {
    stdout: (text) => {
      run.stdout += text;
    },
    stderr: (text) => {
      run.stderr += text;
    },
    readFile: () => {
      throw new Error('no file is read');
    },
    writeFile: (path, text) => {
      run.files[path] = text;
    },
    readStdin: () => '',
    env: {},
  };
  run.code = await runCli(['export', 'zone', ...args], io);
  return run;
}

const fromApi = (zone: string, token = TOKEN) => exportZone(['--zone', zone, '--api', api, '--token', token]);
const fromDb = (zone: string) => exportZone(['--zone', zone, '--db', db]);

describe('cfrules export zone', () => {
  it('writes the zone file of a zone read over the API', async () => {
    const run = await fromApi(ZONE);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const file = JSON.parse(run.stdout) as ZoneFile;
    expect(file.plan).toBe('enterprise');
    expect(file.firewall_rules?.map((rule) => [rule.action, rule.filter.expression, rule.priority])).toEqual([
      ['block', 'http.request.uri.path eq "/admin"', 2],
      ['bypass', 'ip.src in {192.0.2.0/24}', null],
    ]);
    expect(file.firewall_rules?.[1]).toMatchObject({
      products: ['waf'],
      filter: { description: 'the office' },
    });
    expect(file.rulesets?.map((ruleset) => [ruleset.kind, ruleset.phase])).toEqual([
      ['zone', 'http_request_firewall_custom'],
      ['zone', 'http_request_firewall_managed'],
    ]);
    expect(file.rulesets?.[0]?.rules[0]).toMatchObject({ action: 'challenge', ref: 'tor', enabled: true });
    // The account's root entry point, then the custom ruleset it executes; the zone's name scopes them.
    expect(file.name).toBe('example.com');
    expect(file.account_rulesets?.map((ruleset) => [ruleset.kind, ruleset.phase, ruleset.name])).toEqual([
      ['root', 'http_request_firewall_custom', 'default'],
      ['custom', 'http_request_firewall_custom', 'account admin'],
    ]);
    expect(file.previous_waf).toEqual({
      enabled: true,
      packages: [{ id: OWASP_PACKAGE_ID, sensitivity: 'low', action_mode: 'block' }],
      groups: [{ id: flash?.id, mode: 'on' }],
      rules: [{ id: sqliUnion?.id, mode: 'simulate' }],
      overrides: [
        expect.objectContaining({
          urls: ['example.com/api/*'],
          groups: { [SPECIALS]: 'disable' },
          rewrite_action: { block: 'challenge' },
          priority: 3,
          paused: false,
        }),
      ],
    });
    // The page rule that applies first comes first, as the API lists them.
    expect(file.page_rules?.map((rule) => [rule.priority, rule.actions])).toEqual([
      [5, [{ id: 'waf', value: 'on' }]],
      [1, [{ id: 'waf', value: 'off' }]],
    ]);
    expect(file.waf_migration).toEqual({
      migration_state: 'start',
      old_waf_status: 'enabled',
      new_waf_status: 'disabled',
    });
    expect(checkPreviousWaf(file.previous_waf, file.page_rules)).toEqual([]);
    // The engine takes the file as written: no unknown key, nothing it refuses.
    const compiled = compileZone(file);
    expect(compiled.ok ? [] : compiled.problems).toEqual([]);
  });

  it('writes the same file from the database, offline', async () => {
    const [api, offline] = await Promise.all([fromApi(ZONE), fromDb(ZONE)]);
    expect(offline.code).toBe(0);
    expect(JSON.parse(offline.stdout)).toEqual(JSON.parse(api.stdout));
    const byName = await exportZone(['--zone', 'example.com', '--db', db]);
    expect(byName.stdout).toBe(offline.stdout);
  });

  it('leaves the previous WAF out of Free zones and of zones that completed the migration', async () => {
    for (const read of [fromApi, fromDb]) {
      const free = JSON.parse((await read(FREE)).stdout) as ZoneFile;
      expect(free).toEqual({
        plan: 'free',
        name: 'free.example',
        rulesets: [expect.objectContaining({ phase: 'http_request_firewall_custom' })],
        // Every zone of the account has the account's rulesets; their expressions choose the zones.
        account_rulesets: [
          expect.objectContaining({ kind: 'root' }),
          expect.objectContaining({ kind: 'custom' }),
        ],
      });
      const migrated = JSON.parse((await read(MIGRATED)).stdout) as ZoneFile;
      expect(migrated.previous_waf).toBeUndefined();
      expect(compileZone(free).ok && compileZone(migrated).ok).toBe(true);
      expect(migrated.waf_migration).toEqual({
        migration_state: 'complete',
        old_waf_status: 'disabled',
        new_waf_status: 'enabled',
      });
    }
  });

  it('writes JSON to -o FILE, and YAML when FILE ends in .yaml', async () => {
    const json = await exportZone(['--zone', ZONE, '--db', db, '-o', 'zone.json']);
    expect(json.code).toBe(0);
    expect(json.stdout).toBe('');
    const yaml = await exportZone(['--zone', ZONE, '--db', db, '--output', 'zone.yaml']);
    expect(yaml.code).toBe(0);
    expect(yaml.files['zone.yaml']).toMatch(/^plan: enterprise$/m);
    expect(parseYaml(yaml.files['zone.yaml'] as string)).toEqual(
      JSON.parse(json.files['zone.json'] as string),
    );
  });

  it('fails with status 1 when the token may not read the zone', async () => {
    const run = await fromApi(ZONE, OUTSIDER);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^cfrules export: the API refused the token for zone 023e105f/);
  });

  it("reads with a read-only token; one scoped to the zone leaves the account's rulesets out, saying so", async () => {
    const run = await fromApi(ZONE, READER);
    expect(run.code).toBe(0);
    const file = JSON.parse(run.stdout) as ZoneFile;
    expect(file.account_rulesets).toBeUndefined();
    expect(file.rulesets).toHaveLength(2);
    expect(run.stderr).toBe(
      `cfrules export: warning: the account's rulesets are left out: the token does not reach account ${ACCOUNT} (it takes a token for every zone of the account, with account_rulesets:read)\n`,
    );
  });

  it('refuses the options of export terraform (usage error)', async () => {
    const run = await exportZone(['--zone', ZONE, '--db', db, '--phase', 'http_ratelimit']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--phase is an option of export terraform');
  });
});
