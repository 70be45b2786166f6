import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cfrules } from './run-binary.js';

// `cfrules replay` with the built binary (its worker threads are a file of the bundle).

const dir = mkdtempSync(join(tmpdir(), 'cfrules-replay-'));
const zonePath = join(dir, 'zone.json');
writeFileSync(
  zonePath,
  JSON.stringify({
    firewall_rules: [
      {
        id: 'a1',
        ref: 'admin-block',
        action: 'block',
        filter: { expression: 'starts_with(http.request.uri.path, "/admin")' },
      },
      { id: 'a2', ref: 'post-log', action: 'log', filter: { expression: 'http.request.method eq "POST"' } },
      {
        id: 'a3',
        ref: 'fr-challenge',
        action: 'managed_challenge',
        filter: { expression: 'ip.src.country eq "FR"' },
      },
    ],
  }),
);
const lines = Array.from({ length: 3000 }, (_, i) =>
  i % 5 === 4
    ? JSON.stringify({
        ClientIP: '198.51.100.7',
        ClientRequestHost: 'example.com',
        ClientRequestMethod: 'GET',
        ClientRequestURI: `/page/${i}`,
        ClientCountry: 'fr',
      })
    : JSON.stringify({
        method: i % 2 ? 'POST' : 'GET',
        url: `https://example.com/${i % 3 === 0 ? 'admin' : 'home'}/${i}`,
      }),
);
const requestsPath = join(dir, 'requests.jsonl');
writeFileSync(requestsPath, `${lines.join('\n')}\n`);
const gzPath = join(dir, 'requests.jsonl.gz');
writeFileSync(gzPath, gzipSync(`${lines.join('\n')}\n`));

const replayJson = async (args: string[]) => {
  const result = await cfrules(['replay', '--zone', zonePath, '--format', 'json', ...args]);
  return { ...result, report: result.stdout ? JSON.parse(result.stdout) : undefined };
};

describe('cfrules replay', () => {
  it('counts actions and rule hits, the same with one worker or two, gzipped or not', async () => {
    const one = await replayJson(['--requests', requestsPath, '--workers', '1']);
    expect(one.code).toBe(0);
    expect(one.report.requests).toBe(3000);
    expect(one.report.invalid).toBe(0);
    const blocked = lines.filter((_, i) => i % 5 !== 4 && i % 3 === 0).length;
    expect(one.report.actions).toEqual({
      block: blocked,
      managed_challenge: 600,
      none: 3000 - blocked - 600,
    });
    const byRef = Object.fromEntries(one.report.rules.map((rule: { ref: string }) => [rule.ref, rule]));
    expect(byRef['fr-challenge']).toMatchObject({
      matched: 600,
      decided: 600,
      samples: [{ line: 5, url: 'https://example.com/page/4' }, { line: 10 }, { line: 15 }],
    });
    const two = await replayJson(['--requests', requestsPath, '--workers', '2']);
    expect(two.report).toEqual(one.report);
    const gz = await replayJson(['--requests', gzPath, '--workers', '2']);
    expect(gz.report).toEqual(one.report);
    expect(two.stderr).toMatch(/^replayed 3,000 requests in [\d.]+ s \([\d,]+ requests\/s, 2 workers\)\n$/);
  });

  it('replays a file of one batch (< 128 KiB) in the main thread, without compiling the zone per worker', async () => {
    const small = join(dir, 'small.jsonl');
    writeFileSync(small, `${lines.slice(0, 100).join('\n')}\n`);
    const two = await replayJson(['--requests', small, '--workers', '2']);
    const one = await replayJson(['--requests', small, '--workers', '1']);
    expect(two.report).toEqual(one.report);
    expect(two.report.requests).toBe(100);
    expect(two.stderr).toMatch(/^replayed 100 requests in [\d.]+ s \([\d,]+ requests\/s, 1 worker\)\n$/);
  });

  it('warns on standard error about rules it cannot simulate, and replays the rest', async () => {
    const withTransform = join(dir, 'zone-transform.json');
    writeFileSync(
      withTransform,
      JSON.stringify({
        rulesets: [
          {
            id: 'transform',
            kind: 'zone',
            phase: 'http_request_dynamic_redirect',
            rules: [
              {
                id: 'bulk-redirect',
                action: 'redirect',
                expression: 'true',
                action_parameters: { from_list: { name: 'moved', key: 'http.request.full_uri' } },
              },
            ],
          },
          {
            id: 'custom',
            kind: 'zone',
            phase: 'http_request_firewall_custom',
            rules: [
              { id: 'admin', action: 'block', expression: 'starts_with(http.request.uri.path, "/admin")' },
            ],
          },
        ],
      }),
    );
    const small = join(dir, 'small-transform.jsonl');
    writeFileSync(small, `${lines.slice(0, 10).join('\n')}\n`);
    const result = await cfrules(['replay', '-z', withTransform, '-r', small, '-w', '1', '--format', 'json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'cfrules replay: warning: ' +
        `${withTransform}:1: /rulesets/0/rules/0/action_parameters/from_list: the entries of the Bulk Redirect list moved are not part of the zone file`,
    );
    expect(JSON.parse(result.stdout).requests).toBe(10);
  });

  it('prints a summary', async () => {
    const result = await cfrules(['replay', '-z', zonePath, '-r', requestsPath, '-w', '1']);
    expect(result.stdout).toContain('Requests: 3,000');
    expect(result.stdout).toMatch(
      /admin-block \[firewall_rules\]: [\d,]+ matched, [\d,]+ decided; e\.g\. line 1 https:\/\/example\.com\/admin\/0/,
    );
    expect(result.stdout).toContain('Rules that never matched: 0');
  });

  it('reports lines that are not requests by number, and replays the others (status 1)', async () => {
    const path = join(dir, 'bad.jsonl');
    writeFileSync(path, ['{"url": "https://example.com/admin"}', 'not json', '{"method": 3}', ''].join('\n'));
    const result = await replayJson(['--requests', path, '--workers', '2']);
    expect(result.code).toBe(1);
    expect(result.report).toMatchObject({ requests: 1, invalid: 2, actions: { block: 1 } });
    expect(result.stderr).toMatch(/^cfrules replay: .*bad\.jsonl: line 2: not JSON: /m);
    expect(result.stderr).toMatch(/^cfrules replay: .*bad\.jsonl: line 3: method: /m);
    expect(result.stderr).toMatch(/^replayed 1 request in /m);
  });

  it('fails on a file without requests, saying so, unless --allow-empty (as validate does)', async () => {
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const blank = join(dir, 'blank.jsonl');
    writeFileSync(blank, '\n  \n\n');
    const emptyGz = join(dir, 'empty.jsonl.gz');
    writeFileSync(emptyGz, gzipSync(''));
    for (const path of [empty, blank, emptyGz]) {
      const failed = await cfrules(['replay', '-z', zonePath, '-r', path, '-w', '1']);
      expect(failed.code).toBe(1);
      expect(failed.stdout).toMatch(/^Requests: 0\n/);
      expect(failed.stderr).toContain(
        `cfrules replay: ${path}: error[empty-input]: no request in this input (--allow-empty accepts that)\n`,
      );
      const allowed = await replayJson(['-r', path, '--allow-empty']);
      expect(allowed.code).toBe(0);
      expect(allowed.report).toMatchObject({ requests: 0, invalid: 0 });
      expect(allowed.stderr).toContain(
        `cfrules replay: ${path}: warning[empty-input]: no request in this input`,
      );
    }
    const stdin = await cfrules(['replay', '-z', zonePath, '-r', '-'], { stdin: '' });
    expect(stdin.code).toBe(1);
    expect(stdin.stderr).toContain('cfrules replay: -: error[empty-input]: no request in this input');
  });

  it('refuses standard input for both the requests and a zone, which it can give only once', async () => {
    for (const args of [
      ['-z', '-', '-r', '-'],
      ['-z', zonePath, '--compare', '-', '-r', '-'],
    ]) {
      const result = await cfrules(['replay', ...args], { stdin: '{"url":"https://example.com/"}\n' });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        'cfrules replay: standard input can be read only once (- was given twice)',
      );
    }
  });

  it('counts a file of invalid lines only as invalid, not as empty (status 1)', async () => {
    const path = join(dir, 'only-bad.jsonl');
    writeFileSync(path, 'not json\n');
    const result = await replayJson(['-r', path, '--allow-empty']);
    expect(result.code).toBe(1);
    expect(result.report).toMatchObject({ requests: 0, invalid: 1 });
    expect(result.stderr).not.toContain('empty-input');
  });

  it('refuses a bad zone or a missing file (status 2)', async () => {
    const badZone = join(dir, 'bad-zone.json');
    writeFileSync(
      badZone,
      JSON.stringify({ firewall_rules: [{ action: 'block', filter: { expression: 'http.host eq' } }] }),
    );
    const zone = await cfrules(['replay', '--zone', badZone, '--requests', requestsPath]);
    expect(zone.code).toBe(2);
    expect(zone.stderr).toMatch(/\/firewall_rules\/0\/filter\/expression: Filter parsing error/);
    const missing = await cfrules(['replay', '--zone', zonePath, '--requests', join(dir, 'nope.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.jsonl: no such file');
  });
});

// The same zone with admin-block changed: POST requests only, and the pages under /home/1 too.
const changedZonePath = join(dir, 'changed-zone.json');
writeFileSync(
  changedZonePath,
  JSON.stringify({
    firewall_rules: [
      {
        id: 'a1',
        ref: 'admin-block',
        action: 'block',
        filter: {
          expression:
            '(starts_with(http.request.uri.path, "/admin") and http.request.method eq "POST") or starts_with(http.request.uri.path, "/home/1")',
        },
      },
      { id: 'a2', ref: 'post-log', action: 'log', filter: { expression: 'http.request.method eq "POST"' } },
      {
        id: 'a3',
        ref: 'fr-challenge',
        action: 'managed_challenge',
        filter: { expression: 'ip.src.country eq "FR"' },
      },
    ],
  }),
);

describe('cfrules replay --compare', () => {
  // What the lines are (see above): every fifth a French Logpush record, the others sample requests, POST
  // on odd i, under /admin when i is a multiple of 3, /home otherwise.
  const sampleLines = [...lines.keys()].filter((i) => i % 5 !== 4);
  const unblocked = sampleLines.filter((i) => i % 3 === 0 && i % 2 === 0); // GET /admin: no longer blocked
  const newlyBlocked = sampleLines.filter((i) => i % 3 !== 0 && String(i).startsWith('1')); // /home/1…
  const adminBlock = { id: 'a1', ref: 'admin-block', stage: 'firewall_rules' };
  const samplesOf = (indexes: number[], path: string) =>
    indexes.slice(0, 3).map((i) => ({ line: i + 1, url: `https://example.com/${path}/${i}` }));

  it('reports the requests whose outcome changes, by change, the same with one worker or two', async () => {
    const one = await replayJson(['--requests', requestsPath, '--compare', changedZonePath, '-w', '1']);
    expect(one.code).toBe(0);
    expect(newlyBlocked.length).toBeGreaterThan(unblocked.length);
    expect(one.report.comparison).toEqual({
      requests: 3000,
      changed: unblocked.length + newlyBlocked.length,
      actions: {
        none: { old: 1600, new: 1600 + unblocked.length - newlyBlocked.length },
        block: { old: 800, new: 800 - unblocked.length + newlyBlocked.length },
        managed_challenge: { old: 600, new: 600 },
      },
      changes: [
        {
          from: { action: 'none' },
          to: { action: 'block', decidedBy: adminBlock },
          requests: newlyBlocked.length,
          samples: samplesOf(newlyBlocked, 'home'),
        },
        {
          from: { action: 'block', decidedBy: adminBlock },
          to: { action: 'none' },
          requests: unblocked.length,
          samples: samplesOf(unblocked, 'admin'),
        },
      ],
    });
    expect(one.report.comparison.changes[1].samples.map((s: { line: number }) => s.line)).toEqual([1, 7, 13]);
    // The old zone's own report is as without --compare.
    const alone = await replayJson(['--requests', requestsPath, '-w', '1']);
    expect({ ...one.report, comparison: undefined }).toEqual({ ...alone.report, comparison: undefined });
    expect(alone.report).not.toHaveProperty('comparison');
    // More than one batch: the worker thread replays some of it, and the parts add up to the same.
    const two = await replayJson(['--requests', requestsPath, '--compare', changedZonePath, '-w', '2']);
    expect(two.stderr).toMatch(/, 2 workers\)\n$/);
    expect(JSON.stringify(two.report.comparison)).toBe(JSON.stringify(one.report.comparison));
  });

  /** The log replayed through the test zone, compared with the changed zone. */
  const compareReplay = (...options: string[]) =>
    cfrules(['replay', '-z', zonePath, '-r', requestsPath, '--compare', changedZonePath, ...options]);

  it('prints the comparison after the summary, with the totals per action in both zones', async () => {
    const result = await compareReplay();
    expect(result.code).toBe(0);
    const changed = (unblocked.length + newlyBlocked.length).toLocaleString('en-US');
    const comparison = result.stdout.slice(result.stdout.indexOf('Rules that never matched'));
    expect(comparison).toContain(
      `Compared with ${changedZonePath}: ${changed} of 3,000 requests change outcome (${((100 * (unblocked.length + newlyBlocked.length)) / 3000).toFixed(1)}%)`,
    );
    expect(comparison).toMatch(/^Final actions +old +new +change$/m);
    expect(comparison).toMatch(
      new RegExp(
        `^  block +800 +${800 - unblocked.length + newlyBlocked.length} +\\+${newlyBlocked.length - unblocked.length}$`,
        'm',
      ),
    );
    expect(comparison).toMatch(/^ {2}managed_challenge +600 +600$/m);
    expect(comparison).toContain('Changes (2), by requests: old → new, requests, first requests');
    const [first, second] = comparison
      .split('\n')
      .filter((line) => line.startsWith('  ') && line.includes(' → '));
    expect(first).toMatch(
      new RegExp(
        `^  none → block by admin-block \\[firewall_rules\\]: ${newlyBlocked.length} \\([\\d.]+%\\); e\\.g\\. line 2 https://example\\.com/home/1, line `,
      ),
    );
    expect(second).toBe(
      `  block by admin-block [firewall_rules] → none: ${unblocked.length} (13.3%); e.g. line 1 https://example.com/admin/0, line 7 https://example.com/admin/6, line 13 https://example.com/admin/12`,
    );
    const top = await compareReplay('--top', '1');
    expect(top.stdout).toContain('  … 1 more (--top N shows more, --format json all)\n');
    expect(top.stdout).not.toContain('block by admin-block [firewall_rules] → none');
  });

  it('shows the example URLs escaped for the terminal', async () => {
    const path = join(dir, 'bidi.jsonl');
    writeFileSync(path, `${JSON.stringify({ url: 'https://example.com/admin/\u202etxt.exe' })}\n`);
    const result = await cfrules(['replay', '-z', zonePath, '-r', path, '--compare', changedZonePath]);
    expect(result.stdout).toContain(
      'block by admin-block [firewall_rules] → none: 1 (100.0%); e.g. line 1 https://example.com/admin/\\u202etxt.exe\n',
    );
    expect(result.stdout).not.toContain('\u202e');
    expect(result.stdout).toContain(
      `Compared with ${changedZonePath}: 1 of 1 request changes outcome (100.0%)\n`,
    );
  });

  it('exits with status 1 with --fail-on-change when an outcome changed, 0 when none did', async () => {
    const changed = await compareReplay('--fail-on-change');
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain(
      `${(unblocked.length + newlyBlocked.length).toLocaleString('en-US')} requests changed outcome (--fail-on-change)\n`,
    );
    const same = await replayJson([
      '--requests',
      requestsPath,
      '--compare',
      zonePath,
      '--fail-on-change',
      '-w',
      '2',
    ]);
    expect(same.code).toBe(0);
    expect(same.report.comparison).toMatchObject({ requests: 3000, changed: 0, changes: [] });
    expect(same.report.comparison.actions.block).toEqual({ old: 800, new: 800 });
    const text = await cfrules(['replay', '-z', zonePath, '-r', requestsPath, '--compare', zonePath]);
    expect(text.stdout).toContain(`Compared with ${zonePath}: no request changes outcome\n`);
    expect(text.stdout).not.toContain('Changes (');
  });

  it('refuses --fail-on-change without --compare, and a bad or missing NEW_ZONE, naming it (status 2)', async () => {
    const alone = await cfrules(['replay', '-z', zonePath, '-r', requestsPath, '--fail-on-change']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--fail-on-change needs --compare');
    const badZone = join(dir, 'bad-new-zone.json');
    writeFileSync(
      badZone,
      JSON.stringify({ firewall_rules: [{ action: 'block', filter: { expression: 'http.host eq' } }] }),
    );
    const bad = await cfrules(['replay', '-z', zonePath, '-r', requestsPath, '--compare', badZone]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^cfrules replay: .*bad-new-zone\.json:1: \/firewall_rules\/0\/filter\/expression: Filter parsing error/m,
    );
    expect(bad.stdout).toBe('');
    const missing = await cfrules([
      'replay',
      '-z',
      zonePath,
      '-r',
      requestsPath,
      '--compare',
      join(dir, 'nope.json'),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.json: no such file');
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  });
});
