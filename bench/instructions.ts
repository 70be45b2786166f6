/**
 * The managed rulesets' cost counted in machine instructions rather than timed: on a shared 2-vCPU VM two
 * timings of the same code differ by ±15%, which hides any change of a few percent. Here each process runs
 * under valgrind's cachegrind (every instruction counted, whatever the machine's other load) with V8's
 * `--predictable` and a fixed random seed (V8 on one thread, its garbage collections on a fixed schedule):
 * the import and compilation then count the same to a few instructions in a billion, and a request's
 * figure differs by a few percent between runs of one build (Node's own threads still interleave as they
 * will), so the builds alternate over ROUNDS rounds and the ratio is the median of the rounds' ratios.
 *
 * A process imports the library, compiles a zone deploying both managed rulesets and simulates every
 * request of the mixed traffic (the ordinary-traffic corpus and the attack corpus, one request in
 * STRIDE) `PASSES` times; the same process without the passes gives what the import and the compilation
 * cost, and the difference divided by the requests simulated is a request's cost.
 *
 * Instructions are not time: a builtin written in C++ (Buffer's Latin-1 decoding, a RegExp) and JavaScript
 * doing the same work differ in instructions per nanosecond, and cache misses count nothing. Read a change
 * in instructions as a change in work, and time it too.
 *
 * Usage: npm run bench:instructions [-- --against REV] [-- --write]. Needs valgrind (Debian: valgrind) and
 * builds dist/ first when it measures this code alone.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { machineDescription } from './machine.js';
import { managedZone, mixedTraffic } from './managed-zone.js';
import { median } from './measure.js';
import { publish } from './results.js';

const STRIDE = 6;
const PASSES = 2;
const ROUNDS = 3;

const option = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};

if (spawnSync('valgrind', ['--version']).status !== 0) {
  console.error('bench/instructions.ts: valgrind is not installed (Debian: apt-get install valgrind)');
  process.exit(2);
}

const before = option('--against-bundle');
let now = option('--now-bundle');
if (!now) {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('bench/instructions.ts: npm run build failed');
  now = resolve('dist/index.js');
}

const dir = mkdtempSync(join(tmpdir(), 'cfrules-bench-instructions-'));
const zonePath = join(dir, 'zone.json');
const requestsPath = join(dir, 'requests.jsonl');
writeFileSync(zonePath, JSON.stringify(managedZone));
const requests = mixedTraffic()
  .filter((_, i) => i % STRIDE === 0)
  .map((entry) => JSON.stringify(entry.request));
writeFileSync(requestsPath, `${requests.join('\n')}\n`);

// Every answer is consumed: the count of blocked requests is printed and compared between the versions.
const child = `
import { readFileSync } from 'node:fs';
const [library, zonePath, requestsPath, passes] = process.argv.slice(1);
const lib = await import(library);
const compiled = lib.compileZone(JSON.parse(readFileSync(zonePath, 'utf8')));
if (!compiled.ok) throw new Error('the zone does not compile');
const lines = readFileSync(requestsPath, 'utf8').split('\\n').filter(Boolean);
let blocked = 0;
for (let pass = 0; pass < Number(passes); pass++)
  for (const line of lines) {
    const read = lib.readSampleRequest(JSON.parse(line));
    if (!read.ok) throw new Error('a request does not read');
    if (compiled.zone.simulate(read.request, { trace: false }).action === 'block') blocked++;
  }
console.log(JSON.stringify({ blocked }));
`;

interface Count {
  instructions: number;
  blocked: number;
}

function count(library: string, passes: number): Count {
  const result = spawnSync(
    'valgrind',
    [
      '--tool=cachegrind',
      '--cache-sim=no',
      '--cachegrind-out-file=/dev/null',
      process.execPath,
      '--predictable',
      '--random-seed=1',
      '--input-type=module',
      '-e',
      child,
      pathToFileURL(library).href,
      zonePath,
      requestsPath,
      String(passes),
    ],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  const refs = /I\s+refs:\s+([\d,]+)/.exec(result.stderr);
  if (result.status !== 0 || !refs) throw new Error(`valgrind run failed: ${result.stderr.slice(-800)}`);
  return {
    instructions: Number((refs[1] as string).replaceAll(',', '')),
    blocked: (JSON.parse(result.stdout) as { blocked: number }).blocked,
  };
}

interface Figures {
  load: number;
  perRequest: number;
  blocked: number;
}

function measured(library: string): Figures {
  const load = count(library, 0);
  const full = count(library, PASSES);
  return {
    load: load.instructions,
    perRequest: (full.instructions - load.instructions) / (PASSES * requests.length),
    blocked: full.blocked / PASSES,
  };
}

const libraries: [string, string][] = before
  ? [
      [`${option('--against')} (before)`, before],
      ['this code', now],
    ]
  : [['this code', now]];
const rounds: Figures[][] = [];
for (let round = 0; round < ROUNDS; round++) rounds.push(libraries.map(([, library]) => measured(library)));
rmSync(dir, { recursive: true, force: true });
const blockedCounts = new Set(rounds.flat().map((figures) => figures.blocked));
if (blockedCounts.size !== 1) throw new Error('the versions do not block the same requests');

const millions = (n: number) => `${(n / 1e6).toFixed(n < 1e8 ? 2 : 0)} M`;
const rows = libraries.map(([name], at) => {
  const load = rounds.map((round) => (round[at] as Figures).load);
  const perRequest = rounds.map((round) => (round[at] as Figures).perRequest);
  return `| ${name} | ${millions(median(load))} | ${millions(median(perRequest))} (${millions(Math.min(...perRequest))}–${millions(Math.max(...perRequest))}) |`;
});
const ratioOf = (key: 'load' | 'perRequest') =>
  rounds.map((round) => (round[1] as Figures)[key] / (round[0] as Figures)[key]);
const ratio = before
  ? `\n\nNow / before (median of the rounds' ratios): import and compilation ${median(ratioOf('load')).toFixed(3)}, a request ${median(ratioOf('perRequest')).toFixed(3)} (rounds: ${ratioOf(
      'perRequest',
    )
      .map((r) => r.toFixed(3))
      .join(', ')}).`
  : '';
publish(`## Instructions (bench/instructions.ts)

Machine: ${machineDescription()}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench:instructions -- ${before ? `--against ${option('--against')} ` : ''}--write\`.

| build | import and compile both managed rulesets | a request (mixed traffic), median (range) |
|---|---:|---:|
${rows.join('\n')}${ratio}

Instructions counted by valgrind's cachegrind with V8's \`--predictable\` and a fixed random seed, over
${requests.length} requests of the mixed traffic (one in ${STRIDE} of the ordinary and attack corpora),
${PASSES} passes, ${ROUNDS} rounds with the builds alternating; a request's figure is the process's count
minus that of the same process without the passes, divided by the requests simulated. Every run blocks the
same ${rounds[0]?.[0]?.blocked} requests a pass. Instructions are not time (see bench/instructions.ts): the
managed rulesets' section gives the times.
`);
