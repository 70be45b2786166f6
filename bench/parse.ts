/**
 * Parse-time benchmark on the reference workload (bench/workload.json, a copy of the reference material's workload): each expression is
 * parsed repeatedly and compared with the reference engine's parse figure in that file. A lexer-only
 * run of the same expressions is the baseline measured in the same run, so the parser's own share shows.
 * `validate` (parse + type check: literals read by type, regexes compiled by RE2) is what corresponds to
 * the reference engine's parse, which type-checks and compiles regexes as it parses.
 * `--against REV` adds the same run's before/after: parse and validate of this code against the code at git
 * revision REV, in alternating windows.
 * Usage: npm run bench:parse [-- --write] [-- --against REV]   (--write updates bench/RESULTS.md)
 */
import { readFileSync } from 'node:fs';
import { machineDescription } from './machine.js';
import { measure } from './measure.js';
import { publish } from './results.js';
import { compareWithRevision, type Metric, measureIfChild, type Pair } from './revision.js';

interface Workload {
  expressions: { id: string; expr: string }[];
  reference_engine: { ns: Record<string, { parse: number }> };
}

// Paths are relative to the project root (npm runs scripts there; the bundle itself lives in a temp dir).
const workloadUrl = 'bench/workload.json';
const workload: Workload = JSON.parse(readFileSync(workloadUrl, 'utf8'));
const targets = new Set([
  'E1-contains',
  'E2-ip-in-cidr',
  'E4-and-or-5',
  'E6-any-lower-headers',
  'E7-wildcard',
]);

// E5 (20,014 characters) is far over Cloudflare's 4,096 limit; the benchmark measures the engine, not the limit.
const OPTIONS = { lints: false, maxLength: Number.POSITIVE_INFINITY } as const;
const METRICS: Record<string, Metric> = {
  parse: {
    prepare:
      (library, { expr }) =>
      () =>
        library.parse(expr),
  },
  validate: {
    prepare:
      (library, { expr }) =>
      () =>
        library.validate(expr, OPTIONS),
  },
};
if (await measureIfChild(workload.expressions, METRICS)) process.exit(0);

// Loaded only now: a child process of `--against` runs a bundle of this file without the library
// (scripts/run-bench.mjs), and measures only the version it was given.
const { validate } = await import('../src/check/validate.js');
const { tokenize } = await import('../src/lang/lexer.js');
const { parse } = await import('../src/lang/parse.js');

// Warm up on every shape first, as a real workload mixes them.
for (let round = 0; round < 2000; round++) for (const { expr } of workload.expressions) parse(expr);

const rows = workload.expressions.map(({ id, expr }) => {
  if (!parse(expr).ast) throw new Error(`${id} does not parse`);
  const lexOnly = measure(() => tokenize(expr));
  const options = OPTIONS;
  if (!validate(expr, options).ok) throw new Error(`${id} does not validate`);
  const full = measure(() => parse(expr));
  const checked = measure(() => validate(expr, options));
  const reference = workload.reference_engine.ns[id]?.parse ?? Number.NaN;
  return { id, chars: expr.length, lexOnly, full, checked, reference, ratio: full.ns / reference };
});

const against = compareWithRevision(workload.expressions, Object.keys(METRICS));
const comparison =
  against &&
  [
    `Before and after: this code against \`${against.revision}\` (git revision), each bundled alike and measured`,
    `in processes of its own, alternately (${against.rounds} of each, same warm-up); a ratio is the median of the`,
    "rounds' ratios (below 1: faster now).",
    '',
    '| expression | parse before | parse now | now / before | validate before | validate now | now / before |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...against.rows.map(({ id, pairs }) => {
      const cells = (pair: Pair | undefined) =>
        pair ? `${fmt(pair.before)} | ${fmt(pair.now)} | ${pair.ratio.toFixed(2)}×` : ' | | ';
      return `| ${id} | ${cells(pairs.parse)} | ${cells(pairs.validate)} |`;
    }),
    `| **workload** (geometric mean) | | | **${against.overall.parse?.toFixed(2)}×** | | | **${against.overall.validate?.toFixed(2)}×** |`,
    '',
    "One expression's figure moves by tens of percent between processes (V8 compiles it one way or another; the",
    'same code against itself gives 0.7× to 1.2× on single rows), so the verdict is the workload row: the median',
    "over the rounds of each round's geometric mean. Even that row gave 0.99× (parse) and 0.92× (validate) for",
    'the same code against itself on 2026-11-26: differences under about 10% are noise here.',
  ].join('\n');

function fmt(ns: number): string {
  return ns >= 10_000 ? `${(ns / 1000).toFixed(0)} µs` : `${ns.toFixed(0)} ns`;
}
const lines = [
  '| expression | chars | lex only | lex + parse | spread | reference | ratio | target ≤ 3× | validate | validate / reference |',
  '|---|---:|---:|---:|---:|---:|---:|:--:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.id} | ${r.chars} | ${fmt(r.lexOnly.ns)} | ${fmt(r.full.ns)} | ±${(r.full.spread * 50).toFixed(0)}% | ${fmt(r.reference)} | ${r.ratio.toFixed(2)}× | ${targets.has(r.id) ? (r.ratio <= 3 ? 'yes' : '**no**') : '—'} | ${fmt(r.checked.ns)} | ${(r.checked.ns / r.reference).toFixed(2)}× |`,
  ),
];
const machine = machineDescription();
const note = `Reading these figures: each cell is the median of 7 windows of 200 ms after warming up on every expression
(real workloads mix shapes, and V8 optimises differently for one shape alone). The spread column is the
range of the windows; on this shared 2-vCPU VM it is often ±30–40% (garbage collection and neighbours),
so differences under ~1.5× between runs are noise. The "lex only" column is the same run's baseline: the
contextual lexer alone, so the parser's share is the difference. E2's lexing time has been bimodal across
runs (about 0.7 µs or 1.2 µs, depending on how V8 optimised the lexer in that process), so its parse ratio
moves between about 1.9× and 3.2× from run to run.

The "validate" column is parse plus type checking (literals read by type, sets built, regexes checked),
which is what the reference engine's parse does; E5 is measured with the length limit lifted (it is 20,014
characters, far over Cloudflare's 4,096). E3's regex check is served from the checker's pattern cache
here (512 patterns); checking a new pattern costs 0.2–0.8 ms, dominated by compiling it with RE2
(re2-wasm), against the reference's 0.37 ms for the whole parse including regex compilation.`;
const report = `## Parse (bench/parse.ts)\n\nMachine: ${machine}. Date: ${new Date().toISOString().slice(0, 10)}.\n\n${lines.join('\n')}\n\n${note}\n${comparison ? `\n${comparison}\n` : ''}`;
publish(report);
