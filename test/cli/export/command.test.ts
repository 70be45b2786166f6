// biome-ignore-all lint/suspicious/noTemplateCurlyInString: HCL template sequences in plain strings are what these tests are about
// `cfrules export terraform`, end to end: entry points written through the API of a running `cfrules serve`,
// exported by the built binary, read back with HCL's parser and compared with what the service stored.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHclParser } from '../../../src/terraform/parser.js';
import { RULESET_SCHEMAS } from '../../../src/terraform/ruleset-schema.js';
import { RULE_OF_PHASE } from '../../api/phase-rules.js';
import { schemaProblems } from '../../terraform/schema-check.js';
import { cfrules } from '../run-binary.js';
import { type ServeProcess, startServe } from '../serve-process.js';
import { nastyDescriptions, nastyExpressions, notNfc } from './nasty.js';
import { configurable, readHcl, resource, rulesOf } from './read-hcl.js';

// biome-ignore lint/suspicious/noExplicitAny: API answers, checked by the assertions
type Json = any;

const TOKEN = 'Exp0rt_-'.padEnd(40, 'x');
const READER = 'Exp0rt_-'.padEnd(40, 'r');
const ACCOUNT = '0123456789abcdef0123456789abcdef';
const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
const OTHER_ZONE = '123e105f4ecef8ad9ca31a8372d0c353';
const CUSTOM_ZONE = '223e105f4ecef8ad9ca31a8372d0c353';
const CMR = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';
const config = `accounts:
  - id: 0123456789abcdef0123456789abcdef
    email: ops@example.com
    tokens:
      - value: ${TOKEN}
        zones: ["*"]
        permissions: [read, edit]
      - value: ${READER}
        zones: [${OTHER_ZONE}]
        permissions: [read]
zones:
  - id: ${ZONE}
    name: example.com
    plan: enterprise
    account: 0123456789abcdef0123456789abcdef
  - id: ${OTHER_ZONE}
    name: other.example
    plan: pro
    account: 0123456789abcdef0123456789abcdef
  - id: ${CUSTOM_ZONE}
    name: custom.example
    plan: enterprise
    account: 0123456789abcdef0123456789abcdef
`;

const dir = mkdtempSync(join(tmpdir(), 'cfrules-export-'));
const db = join(dir, 'export.db');
let serve: ServeProcess;
/** The entry points as the API returns them after the writes, by phase. */
const stored: Record<string, Json> = {};
/** Entry points of the Rules products' phases. */
const rulesProducts: Record<string, Json> = {};

/** A write to the service under `base` (the API's URL and an owner's path) that must succeed: its result. */
const caller = (base: string) => async (method: string, path: string, body: unknown) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Json;
  if (!answer.success) throw new Error(`${method} ${path}: ${JSON.stringify(answer.errors)}`);
  return answer.result as Json;
};

const put = (phase: string, body: unknown): Promise<Json> =>
  caller(`${serve.url}/zones/${ZONE}`)('PUT', `/rulesets/phases/${phase}/entrypoint`, body);

beforeAll(async () => {
  const file = join(dir, 'cfrules.yaml');
  writeFileSync(file, config);
  serve = await startServe(['--port', '0', '--db', db, '--config', file]);
  stored.http_request_firewall_custom = await put('http_request_firewall_custom', {
    description: 'custom rules: ${not a template}',
    rules: [
      ...nastyExpressions.map((expression, i) => ({
        action: 'block',
        expression,
        description: nastyDescriptions[i % nastyDescriptions.length],
        enabled: i % 4 !== 1,
      })),
      {
        action: 'block',
        expression: 'http.request.uri.path eq "/blocked"',
        action_parameters: {
          response: {
            status_code: 403,
            content: '{"error": "${blocked}"}\n',
            content_type: 'application/json',
          },
        },
      },
      {
        action: 'skip',
        ref: 'skip-health',
        expression: 'http.request.uri.path eq "/health"',
        description: 'skip the rest, rate limits and the managed rules',
        action_parameters: {
          ruleset: 'current',
          phases: ['http_ratelimit', 'http_request_firewall_managed'],
        },
        logging: { enabled: false },
      },
    ],
  });
  stored.http_request_firewall_managed = await put('http_request_firewall_managed', {
    rules: [
      {
        action: 'skip',
        expression: 'http.request.uri.path eq "/${legacy}"',
        action_parameters: { rulesets: [OWASP] },
      },
      {
        action: 'execute',
        expression: 'true',
        description: 'Cloudflare Managed Ruleset, Apache rules off',
        action_parameters: { id: CMR, overrides: { categories: [{ category: 'apache', enabled: false }] } },
      },
      {
        action: 'execute',
        expression: 'true',
        description: 'OWASP: PL1, threshold 60, log',
        action_parameters: {
          id: OWASP,
          version: 'latest',
          overrides: {
            action: 'log',
            categories: [
              { category: 'paranoia-level-2', enabled: false },
              { category: 'paranoia-level-3', enabled: false },
              { category: 'paranoia-level-4', enabled: false },
            ],
            rules: [{ id: '6179ae15870a4bb7b2d480d4843b323c', action: 'block', score_threshold: 60 }],
          },
        },
      },
    ],
  });
  // The Rules products' phases: written for either provider.
  for (const phase of [
    'http_request_transform',
    'http_response_headers_transform',
    'http_request_cache_settings',
  ])
    rulesProducts[phase] = await put(phase, { rules: [RULE_OF_PHASE[phase]] });
  stored.http_ratelimit = await put('http_ratelimit', {
    rules: [
      {
        action: 'block',
        expression: 'http.request.uri.path eq "/login"',
        ratelimit: {
          characteristics: ['ip.src', 'cf.colo.id'],
          period: 60,
          requests_per_period: 10,
          mitigation_timeout: 600,
          counting_expression: 'http.request.uri.path eq "/${login}" and http.request.method eq "POST"',
        },
      },
    ],
  });
}, 30_000);

afterAll(async () => {
  await serve?.stop('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

/** A port nothing listens on: one the system just gave and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const exportArgs = () => ['export', 'terraform', '--api', serve.url, '--zone', ZONE];
const withToken = { env: { CLOUDFLARE_API_TOKEN: TOKEN } };

describe('cfrules export terraform', { timeout: 30_000 }, () => {
  it('writes every entry point so that HCL reads back exactly what the service stored', async () => {
    const run = await cfrules(exportArgs(), withToken);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const document = await readHcl(run.stdout);
    const everyPhase = { ...stored, ...rulesProducts };
    expect(Object.keys(document.resource.cloudflare_ruleset).sort()).toEqual(Object.keys(everyPhase).sort());
    for (const [phase, ruleset] of Object.entries(everyPhase)) {
      const written = resource(document, phase);
      expect(written).toMatchObject({
        zone_id: ZONE,
        name: ruleset.name,
        description: ruleset.description,
        kind: 'zone',
        phase,
      });
      // Every expression and description byte for byte, and everything else the rules hold.
      expect(rulesOf(written)).toEqual(configurable(ruleset.rules));
      expect(run.stdout).toContain(
        `# terraform import cloudflare_ruleset.${phase} zones/${ZONE}/${ruleset.id}\nresource "cloudflare_ruleset" "${phase}" {`,
      );
    }
    const expressions = rulesOf(resource(document, 'http_request_firewall_custom')).map(
      (r: Json) => r.expression,
    );
    expect(expressions.slice(0, nastyExpressions.length)).toEqual(nastyExpressions);
  });

  it('writes the configuration to -o FILE and prints the import commands, as text or JSON', async () => {
    const file = join(dir, 'rulesets.tf');
    const token = ['--token', TOKEN];
    const run = await cfrules([
      ...exportArgs(),
      ...token,
      '--phase',
      'http_request_firewall_managed',
      '-o',
      file,
    ]);
    expect(run.code).toBe(0);
    const managed = stored.http_request_firewall_managed;
    const command = `terraform import cloudflare_ruleset.http_request_firewall_managed zones/${ZONE}/${managed.id}`;
    expect(run.stdout).toBe(`${command}\n`);
    const document = await readHcl(readFileSync(file, 'utf8'));
    expect(Object.keys(document.resource.cloudflare_ruleset)).toEqual(['http_request_firewall_managed']);

    const json = await cfrules([...exportArgs(), ...token, '--imports', '--format', 'json']);
    expect(JSON.parse(json.stdout)).toContainEqual({
      address: 'cloudflare_ruleset.http_request_firewall_managed',
      id: `zones/${ZONE}/${managed.id}`,
      command,
    });
    // One import per entry point: the WAF's three and the Rules products' phases written.
    expect(JSON.parse(json.stdout)).toHaveLength(3 + Object.keys(rulesProducts).length);
  });

  it('writes provider 4 with --provider 4: blocks, its import ids, and the same values read back', async () => {
    const run = await cfrules([...exportArgs(), '--provider', '4'], withToken);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('version = ">= 4.48, < 5.0.0"');
    expect(run.stdout).not.toMatch(/^\s*version\s*=\s*"(latest|1)"/m);
    const document = await readHcl(run.stdout);
    // The WAF's phases and the Rules products', headers written one block each.
    const everyPhase = { ...stored, ...rulesProducts };
    expect(Object.keys(document.resource.cloudflare_ruleset).sort()).toEqual(Object.keys(everyPhase).sort());
    expect(run.stdout).toContain('headers {\n        name      = "x-rewritten"\n');
    for (const [phase, ruleset] of Object.entries(everyPhase)) {
      expect(rulesOf(resource(document, phase))).toEqual(configurable(ruleset.rules));
      expect(run.stdout).toContain(`  id = "zone/${ZONE}/${ruleset.id}"\n`);
    }
    const imports = await cfrules(
      [...exportArgs(), '--provider', '4', '--imports', '--phase', 'http_request_transform'],
      withToken,
    );
    expect(imports.stdout).toBe(
      `terraform import cloudflare_ruleset.http_request_transform zone/${ZONE}/${rulesProducts.http_request_transform.id}\n`,
    );
    const bad = await cfrules([...exportArgs(), '--provider', '3'], withToken);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown provider '3': expected one of 5, 4");
  });

  it('finds the zone by name, and exports the same from the database file offline', async () => {
    const online = await cfrules(
      ['export', 'terraform', '--api', serve.url, '--zone', 'example.com'],
      withToken,
    );
    const offline = await cfrules(['export', 'terraform', '--db', db, '--zone', ZONE]);
    expect(offline.stderr).toBe('');
    expect(offline.code).toBe(0);
    expect(offline.stdout).toBe(online.stdout);
    expect(online.stdout).toBe((await cfrules(exportArgs(), withToken)).stdout);
  });

  it('warns about text that is not in NFC, which Terraform would change', async () => {
    const zone = `${serve.url}/zones/${OTHER_ZONE}/rulesets/phases/http_request_firewall_custom/entrypoint`;
    const response = await fetch(zone, {
      method: 'PUT',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ rules: [{ action: 'block', expression: `http.host eq "${notNfc}.example"` }] }),
    });
    const rule = ((await response.json()) as Json).result.rules[0];
    const run = await cfrules(['export', 'terraform', '--api', serve.url, '--zone', OTHER_ZONE], withToken);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      `cfrules export: warning: cloudflare_ruleset.http_request_firewall_custom: rule ${rule.id}: expression is not in Unicode normalization form C; Terraform stores strings in NFC, so it would plan to change it\n`,
    );
  });

  it('says why it cannot export, with exit status 1', async () => {
    const fail = async (args: string[], env: Record<string, string | undefined>, message: RegExp) => {
      const run = await cfrules(args, { env });
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(message);
      expect(run.code).toBe(1);
    };
    await fail(
      exportArgs(),
      { CLOUDFLARE_API_TOKEN: 'N0pe'.padEnd(40, 'x') },
      /^cfrules export: the API refused the token for zone 023e\w+ \(HTTP 403: 9109 Invalid access token\); check --token or CLOUDFLARE_API_TOKEN/,
    );
    await fail(
      ['export', 'terraform', '--api', serve.url, '--zone', ZONE],
      { CLOUDFLARE_API_TOKEN: READER },
      /^cfrules export: the API refused the token for zone .*10000 Authentication error/,
    );
    await fail(
      ['export', 'terraform', '--api', serve.url, '--zone', 'f'.repeat(32)],
      withToken.env,
      /^cfrules export: zone f{32} not found \(HTTP 404: 7003 /,
    );
    await fail(
      ['export', 'terraform', '--api', serve.url, '--zone', 'nowhere.example'],
      withToken.env,
      /^cfrules export: no zone named 'nowhere.example' that this token reaches/,
    );
    await fail(
      ['export', 'terraform', '--api', serve.url, '--zone', OTHER_ZONE, '--phase', 'http_ratelimit'],
      withToken.env,
      /^cfrules export: zone 123e\w+ has no entry point ruleset in http_ratelimit: nothing to export/,
    );
    const closed = `http://127.0.0.1:${await closedPort()}/client/v4`;
    await fail(
      ['export', 'terraform', '--api', closed, '--zone', ZONE],
      withToken.env,
      new RegExp(`^cfrules export: cannot reach the API at ${closed}: ECONNREFUSED \\(check --api`),
    );
    await fail(
      ['export', 'terraform', '--api', serve.url.replace('/client/v4', '/nope'), '--zone', ZONE],
      withToken.env,
      /^cfrules export: http:\/\/127\.0\.0\.1:\d+\/nope is not Cloudflare's v4 API: it has no route for \/zones/,
    );
  });

  it('says why a --db file is not a database, and leaves no file behind', async () => {
    const missing = join(dir, 'missing.db');
    const empty = join(dir, 'empty.db');
    writeFileSync(empty, '');
    const notSqlite = join(dir, 'notes.db');
    writeFileSync(notSqlite, 'just some text, long enough to fill a header\n');
    const cases: [string, string][] = [
      [missing, `cannot read the database file ${missing}: no such file`],
      [join(missing, 'x.db'), `cannot read the database file ${join(missing, 'x.db')}: no such file`],
      [dir, `${dir} is a directory, not a database file`],
      [empty, `${empty} is empty, not a database file of cfrules serve`],
      [notSqlite, `${notSqlite} is not a database file of cfrules serve (not an SQLite database)`],
    ];
    for (const target of ['terraform', 'zone']) {
      for (const [path, message] of cases) {
        const run = await cfrules(['export', target, '--db', path, '--zone', ZONE]);
        expect(run.stdout).toBe('');
        expect(run.stderr).toBe(`cfrules export: ${message}\n`);
        expect(run.code).toBe(1);
      }
    }
    // Nothing was created or changed: SQLite would have made the empty file a database with cfrules' tables.
    expect(existsSync(missing)).toBe(false);
    expect(readFileSync(empty, 'utf8')).toBe('');
    expect(
      readdirSync(dir)
        .filter((name) => /^(missing|empty|notes)\.db/.test(name))
        .sort(),
    ).toEqual(['empty.db', 'notes.db']);
  });

  it('names each custom ruleset it leaves out, from the API and from the database', async () => {
    const call = caller(`${serve.url}/zones/${CUSTOM_ZONE}`);
    const custom = await call('POST', '/rulesets', {
      name: 'Office "rules"\u202e',
      kind: 'custom',
      phase: 'http_request_firewall_custom',
      rules: [{ action: 'block', expression: 'http.request.uri.path eq "/office"' }],
    });
    await call('PUT', '/rulesets/phases/http_request_firewall_custom/entrypoint', {
      rules: [{ action: 'block', expression: 'http.request.uri.path eq "/private"' }],
    });
    // The name as JSON writes it, with the right-to-left override escaped for the terminal.
    const warning =
      `cfrules export: warning: custom ruleset ${custom.id} "Office \\"rules\\"\\u202e" (http_request_firewall_custom) left out: ` +
      "the Terraform provider declares custom rulesets at account level, and this export writes the zone's entry points only\n";
    const online = await cfrules(
      ['export', 'terraform', '--api', serve.url, '--zone', CUSTOM_ZONE],
      withToken,
    );
    const offline = await cfrules(['export', 'terraform', '--db', db, '--zone', 'custom.example']);
    for (const run of [online, offline]) {
      expect(run.code).toBe(0);
      expect(run.stderr).toBe(warning);
      const document = await readHcl(run.stdout);
      expect(Object.keys(document.resource.cloudflare_ruleset)).toEqual(['http_request_firewall_custom']);
      expect(run.stdout).toContain('/private');
      expect(run.stdout).not.toContain('/office');
    }
    // A phase that holds no custom ruleset leaves nothing out.
    await call('PUT', '/rulesets/phases/http_ratelimit/entrypoint', {
      rules: [
        {
          action: 'block',
          expression: 'true',
          ratelimit: {
            characteristics: ['ip.src', 'cf.colo.id'],
            period: 60,
            requests_per_period: 10,
            mitigation_timeout: 600,
          },
        },
      ],
    });
    const ratelimit = await cfrules([
      'export',
      'terraform',
      '--db',
      db,
      '--zone',
      CUSTOM_ZONE,
      '--phase',
      'http_ratelimit',
    ]);
    expect(ratelimit.stderr).toBe('');
    expect(ratelimit.code).toBe(0);
  });

  it("exports an account's root entry points and custom rulesets with --account, from the API and the database", async () => {
    const call = caller(`${serve.url}/accounts/${ACCOUNT}`);
    const custom = (name: string, phase: string, rule: unknown) =>
      call('POST', '/rulesets', { name, kind: 'custom', phase, rules: [rule] });
    const admin = await custom('Admin paths', 'http_request_firewall_custom', {
      action: 'block',
      expression: 'starts_with(http.request.uri.path, "/admin")',
    });
    // Same name once made an identifier: the second is admin_paths_2.
    const admin2 = await custom('admin-paths', 'http_request_firewall_custom', {
      action: 'log',
      expression: 'http.request.uri.path eq "/wp-admin"',
    });
    const transform = await custom(
      'Strip tracking',
      'http_request_transform',
      RULE_OF_PHASE.http_request_transform,
    );
    const root = await call('PUT', '/rulesets/phases/http_request_firewall_custom/entrypoint', {
      rules: [
        {
          action: 'execute',
          expression: 'cf.zone.name eq "example.com"',
          action_parameters: { id: admin.id },
        },
      ],
    });
    const parser = await loadHclParser();
    const online = await cfrules(
      ['export', 'terraform', '--api', serve.url, '--account', ACCOUNT],
      withToken,
    );
    const offline = await cfrules(['export', 'terraform', '--db', db, '--account', ACCOUNT.toUpperCase()]);
    expect(online).toMatchObject({ code: 0, stderr: '' });
    expect(offline.stdout).toBe(online.stdout);
    expect(schemaProblems(parser, online.stdout, RULESET_SCHEMAS['5'])).toEqual([]);
    const document = await readHcl(online.stdout);
    const names = {
      http_request_firewall_custom: root,
      admin_paths: admin,
      admin_paths_2: admin2,
      strip_tracking: transform,
    };
    expect(Object.keys(document.resource.cloudflare_ruleset).sort()).toEqual(Object.keys(names).sort());
    for (const [name, ruleset] of Object.entries(names)) {
      expect(resource(document, name)).toMatchObject({
        account_id: ACCOUNT,
        name: ruleset.name,
        kind: ruleset.kind,
        phase: ruleset.phase,
      });
      expect(online.stdout).toContain(`  id = "accounts/${ACCOUNT}/${ruleset.id}"\n`);
    }
    expect(root.kind).toBe('root');
    expect(rulesOf(resource(document, 'admin_paths'))).toEqual(configurable(admin.rules));
    // The root deploys the custom ruleset by its resource, so that Terraform creates that first.
    expect(online.stdout).toMatch(/id = cloudflare_ruleset\.admin_paths\.id\n/);

    const offlineAccount = (...more: string[]) =>
      cfrules(['export', 'terraform', '--db', db, '--account', ACCOUNT, ...more]);
    const v4 = await offlineAccount('--provider', '4', '--imports');
    expect(v4.stdout).toContain(
      `terraform import cloudflare_ruleset.admin_paths account/${ACCOUNT}/${admin.id}\n`,
    );
    const v4Configuration = await offlineAccount('--provider', '4');
    expect(schemaProblems(parser, v4Configuration.stdout, RULESET_SCHEMAS['4'])).toEqual([]);

    // Only the phases asked for; an account with nothing there, or unknown, or a token that cannot reach it.
    const phase = await offlineAccount('--phase', 'http_request_transform', '--imports');
    expect(phase.stdout).toBe(
      `terraform import cloudflare_ruleset.strip_tracking accounts/${ACCOUNT}/${transform.id}\n`,
    );
    const nothing = await offlineAccount('--phase', 'http_ratelimit');
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toMatch(
      `account ${ACCOUNT} has no entry point or custom ruleset in http_ratelimit: nothing to export`,
    );
    const unknown = 'f'.repeat(32);
    for (const run of [
      await cfrules(['export', 'terraform', '--api', serve.url, '--account', unknown], withToken),
      await cfrules(['export', 'terraform', '--db', db, '--account', unknown]),
    ]) {
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(new RegExp(`^cfrules export: account ${unknown} not found`));
    }
    const refused = await cfrules(['export', 'terraform', '--api', serve.url, '--account', ACCOUNT], {
      env: { CLOUDFLARE_API_TOKEN: READER },
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`the API refused the token for account ${ACCOUNT} (HTTP 403`);
  });

  it('reports a failure as JSON with --format json', async () => {
    const run = await cfrules([...exportArgs(), '--imports', '--format', 'json'], {
      env: { CLOUDFLARE_API_TOKEN: READER },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      ok: false,
      error: { kind: 'export', message: expect.stringMatching(/^the API refused the token for zone /) },
    });
  });

  it('tells a server that is not the API from one that refuses', async () => {
    const html = createHttpServer((_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'),
    );
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
    const api = `http://127.0.0.1:${(html.address() as { port: number }).port}/client/v4`;
    const run = await cfrules(['export', 'terraform', '--api', api, '--zone', ZONE], withToken);
    await new Promise((resolve) => html.close(resolve));
    expect(run.stderr).toBe(
      `cfrules export: ${api} is not Cloudflare's v4 API: GET /zones/${ZONE} answered HTTP 200 without its JSON envelope (check --api, which ends with /client/v4)\n`,
    );
    expect(run.code).toBe(1);
  });

  it('reports usage errors with exit status 2', async () => {
    const usage = async (args: string[], message: string) => {
      const run = await cfrules(args, { env: { CLOUDFLARE_API_TOKEN: undefined } });
      expect(run.stderr).toBe(`cfrules export: ${message}\nRun 'cfrules export --help' for usage.\n`);
      expect(run.code).toBe(2);
    };
    await usage(['export'], 'say what to export: cfrules export terraform --zone ZONE');
    await usage(
      ['export', 'pulumi', '--zone', ZONE],
      "unknown target 'pulumi': expected one of terraform, zone",
    );
    await usage(['export', 'terraform'], '--zone ZONE is required: the id or the name of the zone to export');
    await usage(
      ['export', 'terraform', '--zone', ZONE],
      'no API token: pass --token TOKEN or set CLOUDFLARE_API_TOKEN (or read a database with --db)',
    );
    await usage(
      ['export', 'terraform', '--zone', ZONE, '--token', 't', '--phase', 'http_request_sbfm'],
      "unknown phase 'http_request_sbfm': expected one of http_request_firewall_custom, http_request_firewall_managed, http_ratelimit, http_request_dynamic_redirect, http_request_transform, http_config_settings, http_request_origin, http_request_late_transform, http_request_cache_settings, http_custom_errors, http_response_headers_transform, http_response_compression, http_log_custom_fields",
    );
    await usage(
      ['export', 'terraform', '--zone', ZONE, '--token', 't', '--api', 'ftp://x'],
      "--api must be an http:// or https:// URL, not 'ftp://x'",
    );
    await usage(
      ['export', 'terraform', '--zone', ZONE, '--db', db, '--token', 't'],
      '--db reads the database file offline: give it without --api and --token',
    );
    await usage(
      ['export', 'terraform', '--zone', ZONE, '--account', ACCOUNT, '--db', db],
      "give --zone or --account, not both: an export writes one zone's or one account's rulesets",
    );
    await usage(
      ['export', 'terraform', '--account', 'acme', '--db', db],
      "--account takes an account id (32 hexadecimal characters), not 'acme'",
    );
    await usage(
      ['export', 'zone', '--account', ACCOUNT, '--db', db],
      '--account is an option of export terraform; export zone writes the whole zone',
    );
  });
});
