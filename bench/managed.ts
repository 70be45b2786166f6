/**
 * The managed rulesets' costs (issue 22: both rulesets ready in ≤ 100 ms in a fresh process; replay of
 * mixed traffic through both ≥ 10,000 requests/s on 2 cores):
 *
 * - load: a fresh `node` process imports the built library (dist/) and compiles a zone that deploys both
 *   rulesets, timed from before the import to the compiled zone (median of 7 processes; the import of the
 *   library alone is given apart);
 * - replay: the built `cfrules replay` with 1 and 2 workers over mixed traffic — the ordinary-traffic
 *   corpus (test/engine/corpus/ordinary/) and the project's attack corpus (test/engine/corpus/attacks.ts),
 *   repeated to 6,000 lines — with the baseline of the same file through a zone without managed rules,
 *   the runs alternating;
 * - families: in this process, each rule family's own cost per request (every rule of the family run on
 *   a fresh request context, so that it pays its own transformations; families share those in a zone, so
 *   the sum exceeds the zone's cost).
 *
 * Needs dist/ (the benchmark builds it first). Usage: npm run bench:managed [-- --write]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  cloudflareManagedRuleset,
  compiledRules,
  managedRulesContext,
  owaspCoreRuleset,
} from '../src/engine/managed/index.js';
import { readSampleRequest, type SampleRequest } from '../src/request/index.js';
import { attackCorpus } from '../test/engine/corpus/attacks.js';
import { machineDescription } from './machine.js';
import { managedZone, mixedTraffic } from './managed-zone.js';
import { median } from './measure.js';
import { publish } from './results.js';

const machine = machineDescription();
const build = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
if (build.status !== 0) throw new Error('bench/managed.ts: npm run build failed');

const baselineZone = {
  plan: 'enterprise',
  firewall_rules: [
    {
      id: 'admin',
      action: 'block',
      priority: 1,
      filter: { expression: 'starts_with(http.request.uri.path, "/admin")' },
    },
  ],
};

const dir = mkdtempSync(join(tmpdir(), 'cfrules-bench-managed-'));
const managedPath = join(dir, 'managed.json');
const baselinePath = join(dir, 'baseline.json');
writeFileSync(managedPath, JSON.stringify(managedZone));
writeFileSync(baselinePath, JSON.stringify(baselineZone));

// --- load -------------------------------------------------------------------------------------------
const LOAD_RUNS = 7;
const loadScript = `
const started = performance.now();
const lib = await import(${JSON.stringify(pathToFileURL(resolve('dist/index.js')).href)});
const imported = performance.now();
const zone = JSON.parse(process.argv[1]);
const compiled = lib.compileZone(zone);
if (!compiled.ok) throw new Error('the zone does not compile');
const ready = performance.now();
// The first answer too: a rule is parsed and compiled the first time a request runs it.
const read = lib.readSampleRequest(JSON.parse(process.argv[2]));
if (!read.ok) throw new Error('the first request does not read');
const outcome = compiled.zone.simulate(read.request, { trace: false });
console.log(JSON.stringify({
  imported: imported - started,
  ready: ready - started,
  answered: performance.now() - started,
  action: outcome.action ?? null,
}));
`;
// An attack, so that the first answer runs the rules it matches besides those that run for every request.
const firstRequest = (attackCorpus()[0] as { request: unknown }).request;
const loads: { imported: number; ready: number; answered: number; action: string | null }[] = [];
for (let run = 0; run < LOAD_RUNS; run++) {
  const result = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', loadScript, JSON.stringify(managedZone), JSON.stringify(firstRequest)],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`load run failed: ${result.stderr}`);
  loads.push(JSON.parse(result.stdout));
}
const spread = (values: number[]): string =>
  `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
const readyTimes = loads.map((load) => load.ready);
const answeredTimes = loads.map((load) => load.answered);
// The answer is consumed: a first request that the zone did not stop would not be the case measured.
if (loads.some((load) => load.action !== 'block')) throw new Error('the first request was not blocked');
const importTimes = loads.map((load) => load.imported);

// --- replay -----------------------------------------------------------------------------------------
const LINES = 6_000;
const entries = mixedTraffic();
const lines = Array.from({ length: LINES }, (_, i) =>
  JSON.stringify((entries[i % entries.length] as (typeof entries)[number]).request),
);
const requestsPath = join(dir, 'requests.jsonl');
writeFileSync(requestsPath, `${lines.join('\n')}\n`);

function replayRate(zonePath: string, workers: number): number {
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
  if (!match) throw new Error(`replay failed (${result.status}): ${result.stderr.slice(-500)}`);
  // The report is consumed: a replay that counted nothing would not be a measurement.
  const report = JSON.parse(result.stdout) as { requests?: number };
  if (report.requests !== LINES) throw new Error(`replay reported ${report.requests} requests`);
  return Number((match[1] as string).replaceAll(',', ''));
}
const rates = { managed1: [] as number[], managed2: [] as number[], baseline2: [] as number[] };
for (let round = 0; round < 3; round++) {
  rates.baseline2.push(replayRate(baselinePath, 2));
  rates.managed1.push(replayRate(managedPath, 1));
  rates.managed2.push(replayRate(managedPath, 2));
}
rmSync(dir, { recursive: true, force: true });

// --- families ---------------------------------------------------------------------------------------
const requests: SampleRequest[] = entries.flatMap((entry) => {
  const read = readSampleRequest(entry.request);
  return read.ok ? [read.request] : [];
});
const rules = [...compiledRules(cloudflareManagedRuleset), ...compiledRules(owaspCoreRuleset)];
const familyOf = (rule: (typeof rules)[number]['rule']): string => {
  if (cloudflareManagedRuleset.rules.includes(rule as never)) return 'Cloudflare Managed Ruleset';
  const number = /^(9\d\d)\d{3}/.exec(rule.description)?.[1];
  return number ? `OWASP ${number}` : 'OWASP (anomaly rule)';
};
const families = new Map<string, typeof rules>();
for (const compiled of rules) {
  const family = familyOf(compiled.rule);
  families.set(family, [...(families.get(family) ?? []), compiled]);
}
let sink = 0;
const familyCosts = [...families].map(([family, members]) => {
  const passes: number[] = [];
  for (let pass = 0; pass < 3; pass++) {
    const started = process.hrtime.bigint();
    for (const request of requests) {
      // A fresh context per request and family: the family pays its own transformations.
      const context = managedRulesContext({ ...request, memo: new Map() });
      for (const { filter } of members) if (filter.match(context)) sink++;
    }
    passes.push(Number(process.hrtime.bigint() - started) / 1000 / requests.length);
  }
  return { family, rules: members.length, micros: Math.min(...passes), passes };
});
if (sink < 0) console.log(sink);

const rate = (n: number) => Math.round(n).toLocaleString('en-US');
const ready = median(readyTimes);
const twoWorkers = median(rates.managed2);

publish(`## Managed rulesets (bench/managed.ts)

Machine: ${machine}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench:managed -- --write\`.

**Load** — a fresh process imports the built library and compiles a zone deploying both rulesets
(${cloudflareManagedRuleset.rules.length} + ${owaspCoreRuleset.rules.length} rules): ready after ${ready.toFixed(0)} ms
(median of ${LOAD_RUNS} processes, spread ${spread(readyTimes)} ms), of which ${median(importTimes).toFixed(0)} ms import the
library. Target ≤ 100 ms: ${ready <= 100 ? 'met' : '**missed**'}. The first answer (an attack, blocked) comes
${median(answeredTimes).toFixed(0)} ms after the start (spread ${spread(answeredTimes)} ms): a rule's expression is parsed and compiled
the first time a request runs it, the index reading each rule's condition from a table worked out when the
catalogue was built.

**Replay** — \`cfrules replay\` over ${rate(LINES)} lines of mixed traffic (the ordinary-traffic corpus and the
attack corpus, ${entries.length} distinct requests), median of 3 runs each, runs alternating:

| zone | workers | requests/s | runs |
|---|---:|---:|---|
| one firewall rule (baseline) | 2 | ${rate(median(rates.baseline2))} | ${rates.baseline2.map(rate).join(', ')} |
| both managed rulesets | 1 | ${rate(median(rates.managed1))} | ${rates.managed1.map(rate).join(', ')} |
| both managed rulesets | 2 | ${rate(twoWorkers)} | ${rates.managed2.map(rate).join(', ')} |

Target ≥ 10,000 requests/s on 2 cores: ${twoWorkers >= 10_000 ? 'met' : '**missed**'}. The rate includes each
worker's start and compilation of the zone.

**Rule families** — each family's own cost per request on the same traffic (in one thread, best of 3
passes; each family pays its own transformations, which a zone shares, so the sum exceeds a zone's cost;
the SQL-injection and XSS detectors remember up to 4,096 verdicts on values up to 2 KB across requests, as
in a replay, so a later pass finds some of an earlier one's):

| family | rules | µs per request |
|---|---:|---:|
${familyCosts
  .sort((a, b) => b.micros - a.micros)
  .map(({ family, rules: count, micros }) => `| ${family} | ${count} | ${micros.toFixed(0)} |`)
  .join('\n')}
`);
