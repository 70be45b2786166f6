/**
 * `cfrules replay` throughput (issue 12: ≥ 200,000 requests/s on 2 cores for a zone of 20 rules, the same
 * counts with 1 or N workers): the built command on a generated file of 1,000,000 requests (enough for the
 * rate to be the stream's, not the start-up's), with 1 and 2 workers. Needs dist/ (npm run build).
 * Usage: npm run bench:replay [-- --write]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileZone } from '../src/engine/index.js';
import type { CompiledZone } from '../src/engine/zone/types.js';
import { readSampleRequest } from '../src/request/index.js';
import { fromLogpush, isLogpushRecord } from '../src/request/logpush.js';
import { machineDescription } from './machine.js';
import { median } from './measure.js';
import { publish } from './results.js';

const machine = machineDescription();
const REQUESTS = 1_000_000;
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

function run(workers: number, path = requestsPath): { rate: number; seconds: number; output: string } {
  const rates: number[] = [];
  const times: number[] = [];
  let output = '';
  for (let round = 0; round < 3; round++) {
    const result = spawnSync(
      process.execPath,
      ['bin/cfrules.js', 'replay', '-z', zonePath, '-r', path, '-w', String(workers), '--format', 'json'],
      { encoding: 'utf8', maxBuffer: 1 << 26 },
    );
    const match = /in ([\d.]+) s \(([\d,]+) requests\/s/.exec(result.stderr);
    if (result.status !== 0 || !match) throw new Error(`replay failed: ${result.stderr}`);
    times.push(Number(match[1]));
    rates.push(Number((match[2] as string).replaceAll(',', '')));
    output = result.stdout;
  }
  return { rate: median(rates), seconds: median(times), output };
}

// What a replay costs before its first request: starting the workers and compiling the zone in each.
const onePath = join(dir, 'one.jsonl');
writeFileSync(onePath, `${lines[0]}\n`);
const startup = run(2, onePath);
const one = run(1);
const two = run(2);
rmSync(dir, { recursive: true, force: true });

/**
 * Where a request's time goes, in this process on the first 100,000 lines: each step measured with the
 * steps before it (best of 5 passes), the differences being the step's own cost.
 */
function breakdown(): { parse: number; read: number; simulate: number } {
  const sample = lines.slice(0, 100_000);
  const compiled = compileZone(zone);
  if (!compiled.ok) throw new Error('the bench zone does not compile');
  const simulated: CompiledZone = compiled.zone;
  let sink = 0;
  const read = (line: string) => {
    const json = JSON.parse(line);
    const result = readSampleRequest(isLogpushRecord(json) ? fromLogpush(json) : json);
    if (!result.ok) throw new Error('a bench request does not read');
    return result.request;
  };
  // Each step answers a number, summed so that no work can be optimized away.
  const steps = [
    (line: string) => (JSON.parse(line) === null ? 0 : 1),
    (line: string) => read(line).edge.size,
    (line: string) => simulated.simulate(read(line), { trace: false }).matched.length,
  ];
  const best = steps.map((step) => {
    let fastest = Number.POSITIVE_INFINITY;
    for (let pass = 0; pass < 5; pass++) {
      const started = process.hrtime.bigint();
      for (const line of sample) sink += step(line);
      fastest = Math.min(fastest, Number(process.hrtime.bigint() - started) / sample.length);
    }
    return fastest;
  });
  if (sink < 0) console.log(sink);
  const [parse, parseRead, all] = best as [number, number, number];
  return { parse, read: parseRead - parse, simulate: all - parseRead };
}
const steps = breakdown();
const ns = (value: number) => `${(value / 1000).toFixed(1)} µs`;
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
line in ten a Logpush record, the others sample requests. The rate is the command's own (from reading the
first line to the report), so it includes starting the workers and compiling the zone in each: a replay of
a one-line file takes ${startup.seconds.toFixed(2)} s with 2 workers, which a short file pays in full.

Per request, in one thread (best of 5 passes over 100,000 lines): \`JSON.parse\` ${ns(steps.parse)}, reading and
checking the sample request (\`readSampleRequest\`: URL, headers, edge data) ${ns(steps.read)}, the zone
(\`simulate\` without a trace: the indexed program finds the candidates, they run) ${ns(steps.simulate)}. The main
thread only cuts the input at newlines and moves whole lines to the workers (transferred buffers), so a
second worker adds what the machine's second core gives.
`);
