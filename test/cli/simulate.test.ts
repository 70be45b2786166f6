import { describe, expect, it } from 'vitest';
import { run } from './in-process.js';
import { cfrules } from './run-binary.js';

// `cfrules simulate`: one request against a zone file, as a tree or as JSON.

const zone = {
  firewall_rules: [
    {
      id: 'b2000000000000000000000000000001',
      ref: 'admin-block',
      action: 'block',
      priority: 1,
      filter: { expression: 'starts_with(http.request.uri.path, "/admin")' },
    },
  ],
};
const files = {
  'zone.json': JSON.stringify(zone),
  'admin.json': JSON.stringify({ url: 'https://example.com/admin' }),
  'home.json': JSON.stringify({ url: 'https://example.com/' }),
};

describe('cfrules simulate', () => {
  it('prints the decision as a tree', () => {
    const result = run(['simulate', '--zone', 'zone.json', '--request', 'admin.json'], files);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('admin-block');
    expect(result.stdout).toMatch(/block/);
  });

  it('prints the result as JSON', () => {
    const result = run(['simulate', '-z', 'zone.json', '-r', 'admin.json', '--format', 'json'], files);
    const output = JSON.parse(result.stdout);
    expect(output.action).toBe('block');
    expect(output.decidedBy).toMatchObject({ id: 'b2000000000000000000000000000001', ref: 'admin-block' });
    expect(output.trace[0]).toMatchObject({ type: 'stage', name: 'firewall_rules' });
    const home = JSON.parse(
      run(['simulate', '-z', 'zone.json', '-r', 'home.json', '--format', 'json'], files).stdout,
    );
    expect(home.action).toBe('none');
  });

  it('reads the request from standard input', () => {
    const result = run(
      ['simulate', '-z', 'zone.json', '-r', '-', '--format', 'json'],
      files,
      JSON.stringify({ url: 'https://example.com/admin/x' }),
    );
    expect(JSON.parse(result.stdout).action).toBe('block');
  });

  it('reports a bad zone and a bad request with their paths, exit 2', () => {
    const badZone = run(['simulate', '-z', 'zone.json', '-r', 'admin.json'], {
      ...files,
      'zone.json': JSON.stringify({
        firewall_rules: [{ action: 'block', filter: { expression: 'http.host eq' } }],
      }),
    });
    expect(badZone.code).toBe(2);
    expect(badZone.stderr).toMatch(
      /^cfrules simulate: zone\.json:1: \/firewall_rules\/0\/filter\/expression: /,
    );
    const badRequest = run(['simulate', '-z', 'zone.json', '-r', 'bad.json'], {
      ...files,
      'bad.json': JSON.stringify({ method: 3 }),
    });
    expect(badRequest.code).toBe(2);
    expect(badRequest.stderr).toMatch(/^cfrules simulate: bad\.json: method: /);
    expect(run(['simulate', '-r', 'admin.json'], files).stderr).toContain('--zone is required');
  });

  it('simulates the example zone with the built binary', async () => {
    const result = await cfrules([
      'simulate',
      '--zone',
      'examples/zone/zone.json',
      '--request',
      'examples/requests/sqli.json',
      '--format',
      'json',
    ]);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toMatchObject({
      action: 'block',
      decidedBy: { id: 'a09e8e33b3335e7e3a30dc5a54209ccb', stage: 'http_request_firewall_managed' },
    });
  });
});
