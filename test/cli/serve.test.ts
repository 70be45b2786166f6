// `cfrules serve`, run as the built binary: start-up output, first start, config, persistence across
// restarts, clean stop on SIGTERM, and start-up failures.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cfrules } from './run-binary.js';
import { startServe } from './serve-process.js';

// biome-ignore lint/suspicious/noExplicitAny: API answers, checked by the assertions
type Json = any;

const dir = mkdtempSync(join(tmpdir(), 'cfrules-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TOKEN = 'Tok3n_-'.padEnd(40, 'x');
const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
const config = `accounts:
  - id: 0123456789abcdef0123456789abcdef
    email: ops@example.com
    api_key: ${'c'.repeat(37)}
    tokens:
      - value: ${TOKEN}
        zones: ["*"]
        permissions: [read, edit]
zones:
  - id: ${ZONE}
    name: example.com
    plan: enterprise
    account: 0123456789abcdef0123456789abcdef
`;

describe('cfrules serve', { timeout: 30_000 }, () => {
  it('prints the credentials of a first start once, and stops cleanly on SIGTERM', async () => {
    const db = join(dir, 'first.db');
    const first = await startServe(['--port', '0', '--db', db]);
    expect(first.output).toMatch(/First start/);
    const token = /api token +(\S+)/.exec(first.output)?.[1] as string;
    const zone = /zone +([0-9a-f]{32}) +example\.com \(enterprise\)/.exec(first.output)?.[1];
    expect(token).toHaveLength(40);
    const response = await fetch(`${first.url}/zones/${zone}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Json).result.name).toBe('example.com');
    expect(await first.stop('SIGTERM')).toBe(0);

    // The second start finds the data: no new credentials, the same token works.
    const second = await startServe(['--port', '0', '--db', db]);
    expect(second.output).not.toMatch(/First start/);
    const again = await fetch(`${second.url}/zones`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await again.json()) as Json).result.map((z: { id: string }) => z.id)).toEqual([zone]);
    expect(await second.stop('SIGINT')).toBe(0);
  });

  it('serves the console at / beside the API, and not with --no-console', async () => {
    const withPages = await startServe(['--port', '0', '--db', ':memory:']);
    const root = withPages.url.replace(/\/client\/v4$/, '/');
    expect(withPages.output).toContain(`console at ${root}\nlistening on ${withPages.url}\n`);
    const page = await fetch(root);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script defer src="console.js"></script>');
    expect(await withPages.stop('SIGTERM')).toBe(0);

    const apiAlone = await startServe(['--port', '0', '--db', ':memory:', '--no-console']);
    expect(apiAlone.output).not.toMatch(/console at/);
    const none = await fetch(apiAlone.url.replace(/\/client\/v4$/, '/'));
    expect(none.status).toBe(404);
    expect(((await none.json()) as Json).errors[0].code).toBe(7003);
    expect(await apiAlone.stop('SIGTERM')).toBe(0);
  });

  it('applies a config (twice harmlessly) and keeps what was written across restarts', async () => {
    const db = join(dir, 'config.db');
    const file = join(dir, 'cfrules.yaml');
    writeFileSync(file, config);
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    const one = await startServe(['--port', '0', '--db', db, '--config', file]);
    expect(one.output).toMatch(/applied .*cfrules\.yaml: 1 account, 1 token, 1 zone/);
    expect(one.output).not.toMatch(/warning/);
    const created = await fetch(`${one.url}/zones/${ZONE}/filters`, {
      method: 'POST',
      headers,
      body: JSON.stringify([{ expression: 'http.host eq "a.example"' }]),
    });
    expect(created.status).toBe(200);
    expect(await one.stop('SIGTERM')).toBe(0);

    const two = await startServe(['--port', '0', '--db', db, '--config', file]);
    const listed = (await (await fetch(`${two.url}/zones/${ZONE}/filters`, { headers })).json()) as Json;
    expect(listed.result.map((f: { expression: string }) => f.expression)).toEqual([
      'http.host eq "a.example"',
    ]);
    expect(await two.stop('SIGTERM')).toBe(0);
  });

  it("runs the README's quick start: its serve command, then its curl calls", async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const serveArgs = /npm ci && npx cfrules serve (.*?)\s+#/.exec(readme)?.[1]?.split(' ') as string[];
    expect(serveArgs).toContain('--config');
    const server = await startServe([...serveArgs, '--port', '0', '--db', join(dir, 'readme.db')]);
    const token = /^TOKEN=(\S+)$/m.exec(readme)?.[1];
    const zone = /^ZONE=(\S+)$/m.exec(readme)?.[1];
    // The shell's single quotes keep the JSON as written.
    const payload = /-d '(.*)'$/m.exec(readme)?.[1] as string;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${server.url}/zones/${zone}/firewall/rules`, {
      method: 'POST',
      headers,
      body: payload,
    });
    expect(created.status).toBe(200);
    const listed = (await (
      await fetch(`${server.url}/zones/${zone}/firewall/rules`, { headers })
    ).json()) as Json;
    expect(listed.result).toHaveLength(1);
    expect(listed.result[0]).toMatchObject({
      action: 'block',
      filter: { expression: 'http.request.uri.path contains "/admin"' },
    });
    expect(await server.stop('SIGINT')).toBe(0);
  });

  it('warns, in one line, when a config leaves the service without any credential', async () => {
    const file = join(dir, 'no-credentials.yaml');
    writeFileSync(file, config.replace(/ {4}api_key: .*\n {4}tokens:\n(?: {6,}.*\n)*/, ''));
    expect(readFileSync(file, 'utf8')).not.toMatch(/api_key|tokens/);
    const server = await startServe(['--port', '0', '--db', ':memory:', '--config', file]);
    const warnings = server.output.split('\n').filter((line) => line.includes('warning'));
    expect(warnings).toEqual([
      `cfrules serve: warning: ${file}: the config declares no credentials (no api_key, no tokens), so no ` +
        'request can be authenticated; add a token to an account: accounts: [{id: <32 hex>, email: <e-mail>, ' +
        'tokens: [{value: <40 characters>, zones: ["*"]}]}] (docs/api.md, "The config file")',
    ]);
    // It still starts (the operator may mean to add credentials next), and indeed nobody gets in.
    const answer = await fetch(`${server.url}/zones`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.status).toBe(403);
    expect(await server.stop('SIGTERM')).toBe(0);
    // The page the warning points at shows the same line.
    const api = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    expect(api).toContain(warnings[0].replace(file, 'cfrules.yaml'));
    expect(api).toMatch(/^### The config file$/m);

    // A database that has credentials already (a first start's) needs none from the config: no warning.
    const db = join(dir, 'zones-only.db');
    const first = await startServe(['--port', '0', '--db', db]);
    const account = /account +([0-9a-f]{32})/.exec(first.output)?.[1] as string;
    const token = /api token +(\S+)/.exec(first.output)?.[1] as string;
    expect(await first.stop('SIGTERM')).toBe(0);
    const zonesOnly = join(dir, 'zones-only.yaml');
    writeFileSync(zonesOnly, `zones:\n  - name: other.example\n    account: ${account}\n`);
    const second = await startServe(['--port', '0', '--db', db, '--config', zonesOnly]);
    expect(second.output).toMatch(/applied .*: 0 accounts, 0 tokens, 1 zone\b/);
    expect(second.output).not.toMatch(/warning/);
    const zones = await fetch(`${second.url}/zones`, { headers: { authorization: `Bearer ${token}` } });
    expect(zones.status).toBe(200);
    expect(await second.stop('SIGTERM')).toBe(0);
  });

  it('refuses to start on a bad config, naming the bad value', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, config.replace('c'.repeat(37), 'not-a-key'));
    const result = await cfrules(['serve', '--port', '0', '--db', ':memory:', '--config', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /bad\.yaml: accounts\[0\]\.api_key: must be 37 lowercase hexadecimal characters/,
    );
    const missing = await cfrules([
      'serve',
      '--port',
      '0',
      '--db',
      ':memory:',
      '--config',
      join(dir, 'none.yaml'),
    ]);
    expect(missing).toMatchObject({ code: 1 });
    expect(missing.stderr).toMatch(/cannot read .*none\.yaml: no such file/);
  });

  it('says when the port is taken, and refuses a bad port', async () => {
    const running = await startServe(['--port', '0', '--db', ':memory:']);
    const port = new URL(running.url).port;
    const clash = await cfrules(['serve', '--port', port, '--db', ':memory:']);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toMatch(new RegExp(`port ${port} is in use`));
    expect(await running.stop('SIGTERM')).toBe(0);
    const bad = await cfrules(['serve', '--port', 'http']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--port must be a number/);
  });

  it('keeps the secrets of a first start for a start that listens when the port is taken', async () => {
    const db = join(dir, 'busy-port.db');
    const occupant = createServer();
    await new Promise<void>((resolve) => occupant.listen(0, '127.0.0.1', resolve));
    const port = String((occupant.address() as AddressInfo).port);
    const clash = await cfrules(['serve', '--port', port, '--db', db]);
    await new Promise((resolve) => occupant.close(resolve));
    expect(clash.code).toBe(1);
    expect(clash.stderr).toBe(`cfrules serve: port ${port} is in use (--port 0 picks a free one)\n`);
    expect(clash.stdout).toBe('');

    // The port is free again: this start is the first that listens, and shows the secrets.
    const started = await startServe(['--port', port, '--db', db]);
    expect(started.output).toMatch(/First start/);
    const token = /api token +(\S+)/.exec(started.output)?.[1] as string;
    const zones = await fetch(`${started.url}/zones`, { headers: { authorization: `Bearer ${token}` } });
    expect(zones.status).toBe(200);
    expect(((await zones.json()) as Json).result.map((z: { name: string }) => z.name)).toEqual([
      'example.com',
    ]);
    expect(await started.stop('SIGTERM')).toBe(0);
  });

  it('keeps writes made with --synchronous normal, and refuses another mode', async () => {
    const db = join(dir, 'normal.db');
    const file = join(dir, 'normal.yaml');
    writeFileSync(file, config);
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    const one = await startServe(['--port', '0', '--db', db, '--config', file, '--synchronous', 'normal']);
    const created = await fetch(`${one.url}/zones/${ZONE}/filters`, {
      method: 'POST',
      headers,
      body: JSON.stringify([{ expression: 'http.host eq "kept.example"' }]),
    });
    expect(created.status).toBe(200);
    expect(await one.stop('SIGTERM')).toBe(0);

    const two = await startServe(['--port', '0', '--db', db, '--config', file]);
    const listed = (await (await fetch(`${two.url}/zones/${ZONE}/filters`, { headers })).json()) as Json;
    expect(listed.result.map((f: { expression: string }) => f.expression)).toEqual([
      'http.host eq "kept.example"',
    ]);
    expect(await two.stop('SIGTERM')).toBe(0);

    const bad = await cfrules(['serve', '--synchronous', 'off']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--synchronous must be full or normal, not 'off'/);
  });
});
