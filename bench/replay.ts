/**
 * `cfrules replay` throughput (issue 12: ≥ 200,000 requests/s on 2 cores for a zone of 20 rules, the same
 * counts with 1 or N workers): the built command on a generated file of 200,000 requests, with 1 and 2
 * workers. Needs dist/ (npm run build).
 * Usage: npm run bench:replay [-- --write]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { machineDescription } from './machine.js';
import { publish } from './results.js';

const machine = machineDescription();
const REQUESTS = 200_000;
const dir = mkdtempSync(join(tmpdir(), 'cfrules-bench-replay-'));

const expressions = [
  'starts_with(http.request.uri.path, "/admin")',
  'http.request.uri.path contains "/wp-login.php"',
  'ip.src in {192.0.2.0/24 2001:db8:1::/48}',
  'ip.geoip.country in {"KP" "SY"}',
  'lower(http.user_agent) contains "sqlmap"',
  'http.request.method eq "POST" and http.request.uri.path eq "/login"',
  'http.host eq "old.example.com"',
  'ends_with(http.request.uri.path, ".env")',
  'http.request.uri.query contains "union"',
  'cf.bot_management.score lt 10',
];
const zone = {
  firewall_rules: Array.from({ length: 20 }, (_, i) => ({
    id: `b${String(i).padStart(31, '0')}`,
    action: i % 4 === 0 ? 'log' : 'block',
    priority: i + 1,
    filter: { expression: i < 10 ? (expressions[i] as string) : `http.request.uri.path contains "/p${i}/"` },
  })),
};
const zonePath = join(dir, 'zone.json');
writeFileSync(zonePath, JSON.stringify(zone));

const paths = [
  '/',
  '/index.html',
  '/products/42',
  '/admin/users',
  '/api/v2/orders?limit=5',
  '/login',
  '/static/app.css',
  '/p12/x',
];
const agents = ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/126.0', 'curl/8.5.0', 'sqlmap/1.8'];
const lines: string[] = [];
for (let i = 0; i < REQUESTS; i++) {
  const path = paths[i % paths.length] as string;
  lines.push(
    i % 10 === 9
      ? JSON.stringify({
          ClientIP: '198.51.100.7',
          ClientRequestHost: 'example.com',
          ClientRequestMethod: 'GET',
          ClientRequestURI: path,
          ClientRequestUserAgent: agents[i % 3],
          ClientCountry: 'us',
          BotScore: 50,
        })
      : JSON.stringify({
          method: i % 7 === 0 ? 'POST' : 'GET',
          url: `https://example.com${path}`,
          clientIp: i % 5 === 0 ? '192.0.2.9' : '203.0.113.7',
          headers: [
            ['User-Agent', agents[i % 3]],
            ['Accept', 'text/html'],
          ],
          edge: { country: 'US', botScore: 1 + (i % 99) },
        }),
  );
}
const requestsPath = join(dir, 'requests.jsonl');
writeFileSync(requestsPath, `${lines.join('\n')}\n`);

function run(workers: number): { rate: number; output: string } {
  const rates: number[] = [];
  let output = '';
  for (let round = 0; round < 3; round++) {
    const result = spawnSync(
      process.execPath,
      [
        'bin/cfrules.js',
        'replay',
        '-z',
        zonePath,
        '-r',
        requestsPath,
        '-w',
        String(workers),
        '--format',
        'json',
      ],
      { encoding: 'utf8', maxBuffer: 1 << 26 },
    );
    const match = /\(([\d,]+) requests\/s/.exec(result.stderr);
    if (result.status !== 0 || !match) throw new Error(`replay failed: ${result.stderr}`);
    rates.push(Number((match[1] as string).replaceAll(',', '')));
    output = result.stdout;
  }
  return { rate: rates.sort((a, b) => a - b)[1] as number, output };
}

const one = run(1);
const two = run(2);
rmSync(dir, { recursive: true, force: true });
const same = one.output === two.output;
const rate = (n: number) => n.toLocaleString('en-US');

publish(`## Replay (bench/replay.ts)

Machine: ${machine}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`npm run build && npm run bench:replay -- --write\`.

| workers | requests/s (median of 3 runs of ${rate(REQUESTS)} requests) |
|---:|---:|
| 1 (main thread) | ${rate(one.rate)} |
| 2 | ${rate(two.rate)} |

Target ≥ 200,000 requests/s on 2 cores for a zone of 20 rules: ${two.rate >= 200_000 ? 'met' : '**missed**'}. Same counts
with 1 and 2 workers: ${same ? 'yes' : '**no**'} (the JSON reports are identical).

The zone: 20 firewall rules (paths, CIDR sets, countries, user agents, methods, bot score); the file: one
line in ten a Logpush record, the others sample requests. The rate includes starting the command and its
workers and compiling the zone. Where a request's time goes, in a worker (CPU profile of \`--workers 1\`):
reading and checking the sample request (\`readSampleRequest\`: the URL, headers, edge data) about half,
garbage collection about a fifth, \`JSON.parse\` and the zone (the indexed program finds the candidates,
\`simulate\` runs them) the rest. The main thread only cuts the input at newlines and moves whole lines to
the workers (transferred buffers), so a second worker adds what the machine's second core gives.
`);
