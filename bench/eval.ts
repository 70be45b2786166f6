/**
 * Evaluation benchmark on the reference workload (bench/workload.json, a copy of the reference material's workload): each expression is
 * compiled and run round-robin over the four requests' prebuilt contexts, like the reference engine's
 * figures. Baseline measured in the same run: a hand-written JS function for the same predicate over the
 * same values. Also: compile time, and memory for 10,000 distinct compiled regex filters.
 * Usage: npm run bench:eval [-- --write]   (--write updates bench/RESULTS.md)
 */
import { readFileSync } from 'node:fs';
import type { RequestContext } from '../src/eval/context.js';
import type { SampleRequest } from '../src/request/index.js';
import type { IpAddress } from '../src/scheme/ip.js';
import { machineDescription } from './machine.js';
import { expectTally, measure, measurePair, type Timing } from './measure.js';
import { publish } from './results.js';
import { compareWithRevision, type Metric, measureIfChild, type Pair } from './revision.js';

interface Workload {
  expressions: { id: string; expr: string }[];
  requests: { name: string; fields: Record<string, unknown> }[];
  expected_matches: Record<string, Record<string, boolean>>;
  reference_engine: { ns: Record<string, { exec_round_robin_mean: number }> };
}

const workload: Workload = JSON.parse(readFileSync('bench/workload.json', 'utf8'));
const OPTIONS = { lints: false, maxLength: Number.POSITIVE_INFINITY } as const;

/** The share of the four requests an expression matches (what its timed calls must add up to). */
const matchShare = (id: string): number =>
  workload.requests.filter((r) => workload.expected_matches[id]?.[r.name] === true).length /
  workload.requests.length;

// `--against REV`: the compiled filter's exec, this code against the code at REV (bench/revision.ts).
const METRICS: Record<string, Metric> = {
  exec: {
    prepare: (library, { id, expr }) => {
      const checked = library.validate(expr, OPTIONS);
      const compiled = checked.ast && library.compile(checked.ast);
      if (!compiled?.ok) throw new Error(`${id} does not compile`);
      const contexts = workload.requests.map((r) => {
        const read = library.readSampleRequest(r);
        if (!read.ok) throw new Error(`${r.name} does not read`);
        return compiled.filter.context(read.request);
      });
      let i = 0;
      return () => compiled.filter.match(contexts[i++ & 3] as RequestContext);
    },
    check: (timing, { id }) => expectTally(id, timing, matchShare(id)),
  },
};
if (await measureIfChild(workload.expressions, METRICS)) process.exit(0);

// Loaded only now: a child process of `--against` runs a bundle of this file without the library
// (scripts/run-bench.mjs), and measures only the version it was given.
const { validate } = await import('../src/check/validate.js');
const { compile } = await import('../src/eval/compile.js');
const { regexCacheStats } = await import('../src/regex/index.js');
const { fieldValue, readSampleRequest } = await import('../src/request/index.js');
const requests: SampleRequest[] = workload.requests.map((r) => {
  const read = readSampleRequest(r);
  if (!read.ok) throw new Error(`${r.name}: ${JSON.stringify(read.problems)}`);
  return read.request;
});

/** The values the hand-written functions read: what the request gives, as plain JS. */
interface Plain {
  path: string;
  query: string;
  host: string;
  method: string;
  ua: string;
  country: string | undefined;
  port: number;
  ip: IpAddress;
  values: string[];
}
// The same values the contexts hold (same strings, same addresses), so that only the evaluation differs.
const plain: Plain[] = requests.map((request) => {
  const get = (name: string) => fieldValue(request, name);
  return {
    path: get('http.request.uri.path') as string,
    query: get('http.request.uri.query') as string,
    host: get('http.host') as string,
    method: get('http.request.method') as string,
    ua: get('http.user_agent') as string,
    country: get('ip.geoip.country') as string | undefined,
    port: get('cf.edge.server_port') as number,
    ip: get('ip.src') as IpAddress,
    values: get('http.request.headers.values') as string[],
  };
});

const e5Hosts = new Set(Array.from({ length: 1000 }, (_, i) => `h${String(i).padStart(4, '0')}.example.com`));
/** The same predicates written by hand in plain JS: the baseline of each row. */
const handWritten: Record<string, (v: Plain) => boolean> = {
  'E1-contains': (v) => v.path.includes('/admin'),
  'E2-ip-in-cidr': (v) => v.ip.family === 4 && (v.ip.value >>> 24 === 10 || v.ip.value >>> 16 === 0xc0a8),
  'E3-regex': (v) => /(googlebot|bingbot|yandex)\/\d+\.\d+/i.test(v.ua),
  'E4-and-or-5': (v) =>
    v.host === 'example.com' &&
    v.method === 'POST' &&
    (v.country === 'CN' || v.port !== 443 || v.query.includes('token=')),
  'E5-in-1000-strings': (v) => e5Hosts.has(v.host),
  'E6-any-lower-headers': (v) => v.values.some((value) => value.toLowerCase().includes('x')),
  'E7-wildcard': (v) => /^\/api\/.*\/users\/.*$/is.test(v.path),
};

interface Row {
  id: string;
  exec: Timing;
  closures: Timing;
  /** Median of the per-window ratios of exec to the baseline, measured in alternating windows. */
  toJs: number;
  baseline: Timing;
  compile: Timing;
  reference: number;
}

const rows: Row[] = [];
for (const { id, expr } of workload.expressions) {
  const checked = validate(expr, OPTIONS);
  if (!checked.ast) throw new Error(`${id} does not validate`);
  const ast = checked.ast;
  const compiled = compile(ast);
  if (!compiled.ok) throw new Error(`${id} does not compile`);
  const { filter } = compiled;
  const contexts: RequestContext[] = requests.map((request) => filter.context(request));
  // The results must be the reference engine's (this also derives every field into the contexts).
  workload.requests.forEach((r, i) => {
    const got = filter.match(contexts[i] as RequestContext);
    if (got !== workload.expected_matches[id]?.[r.name]) throw new Error(`${id} on ${r.name}: got ${got}`);
    if (handWritten[id]?.(plain[i] as Plain) !== got)
      throw new Error(`hand-written ${id} on ${r.name} disagrees`);
  });
  let i = 0;
  const hand = handWritten[id] as (v: Plain) => boolean;
  let j = 0;
  const paired = measurePair(
    () => filter.match(contexts[i++ & 3] as RequestContext),
    () => hand(plain[j++ & 3] as Plain),
  );
  const closureFilter = compile(ast, { generateCode: false });
  if (!closureFilter.ok) throw new Error(`${id} does not compile`);
  let k = 0;
  const closures = measure(() => closureFilter.filter.match(contexts[k++ & 3] as RequestContext));
  // Every timed call's answer was consumed; they must add up to the reference engine's answers.
  const share = matchShare(id);
  expectTally(`${id} compiled`, paired.a, share);
  expectTally(`${id} hand-written`, paired.b, share);
  expectTally(`${id} closures`, closures, share);

  const compileTime = measure(() => compile(ast), { windows: 5, windowMs: 100 });
  rows.push({
    id,
    exec: paired.a,
    closures,
    baseline: paired.b,
    toJs: paired.ratio,
    compile: compileTime,
    reference: workload.reference_engine.ns[id]?.exec_round_robin_mean ?? NaN,
  });
}

// Memory: 10,000 filters, each with its own regex. RE2's heap is a fixed 16 MiB outside the JS heap; the
// regex cache keeps it bounded by evicting (and freeing) the least recently used patterns.
global.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const started = process.hrtime.bigint();
const filters = Array.from({ length: 10_000 }, (_, n) => {
  const result = compile(`http.user_agent matches "^agent-${n}/\\d+"`);
  if (!result.ok) throw new Error('regex filter does not compile');
  return result.filter;
});
// Patterns are handed to RE2 on first use (after their literal prefilter passes): run each filter once on
// a user agent it matches, so that every pattern really is compiled by RE2.
filters.forEach((filter, n) => {
  if (!filter.match(new Map([['http.user_agent', `agent-${n}/7`]])))
    throw new Error(`regex filter ${n} does not match`);
});
const regexCompileMs = Number(process.hrtime.bigint() - started) / 1e6;
global.gc?.();
const heapAfter = process.memoryUsage().heapUsed;
const stats = regexCacheStats();

const targets: Record<string, 'fast' | 'reference'> = {
  'E1-contains': 'fast',
  'E2-ip-in-cidr': 'fast',
  'E4-and-or-5': 'fast',
  'E7-wildcard': 'fast',
  'E3-regex': 'reference',
  'E5-in-1000-strings': 'reference',
  'E6-any-lower-headers': 'reference',
};
const fmt = (ns: number) =>
  ns >= 10_000 ? `${(ns / 1000).toFixed(0)} µs` : ns >= 100 ? `${ns.toFixed(0)} ns` : `${ns.toFixed(1)} ns`;
const lines = [
  '| expression | cfrules exec | spread | closures only | hand-written JS | ratio to JS | reference | ratio to reference | target | met | compile |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---|:--:|---:|',
  ...rows.map((r) => {
    const { toJs } = r;
    const toReference = r.exec.ns / r.reference;
    const kind = targets[r.id];
    const met = kind === 'fast' ? toJs <= 1.5 && toReference <= 2 : toReference <= 1;
    const target = kind === 'fast' ? '≤ 1.5× JS, ≤ 2× reference' : '≤ reference';
    return `| ${r.id} | ${fmt(r.exec.ns)} | ±${(r.exec.spread * 50).toFixed(0)}% | ${fmt(r.closures.ns)} | ${fmt(r.baseline.ns)} | ${toJs.toFixed(2)}× | ${fmt(r.reference)} | ${toReference.toFixed(2)}× | ${target} | ${met ? 'yes' : '**no**'} | ${fmt(r.compile.ns)} |`;
  }),
];
const machine = machineDescription();
const memory = `10,000 distinct regex filters (\`http.user_agent matches "^agent-N/\\d+"\`): compiled and each run once in ${(regexCompileMs / 1000).toFixed(1)} s (${(regexCompileMs / 10).toFixed(0)} µs each, RE2 compilation included); JS heap grew by ${((heapAfter - heapBefore) / 2 ** 20).toFixed(1)} MiB for the ${filters.length} filters (${((heapAfter - heapBefore) / filters.length / 1024).toFixed(1)} KiB each); the regex cache holds ${stats.size} of at most ${stats.capacity} compiled patterns in RE2's fixed 16 MiB heap (${stats.evicted} evicted and freed).`;
const note = `Each exec cell is the median of 9 windows of 150 ms of \`filter.match(ctx)\` round-robin over the four
requests' prebuilt contexts (their fields already derived, as the reference engine's contexts are); the
hand-written JS baseline runs the same predicate over the same values held in plain objects, in windows
alternating with the filter's (9 pairs of 150 ms); "ratio to JS" is the median of the per-pair ratios, so
that both sides of a ratio ran on the machine as it was at that moment. "cfrules exec" is the default tier, a filter compiled to one generated JavaScript function
(src/eval/generate.ts); "closures only" is the fallback tier where code generation is disallowed
(\`generateCode: false\`). "compile" is \`compile(typedAst)\` (generating the function, which V8 compiles in
1–3 µs, and building sets and patterns; validation excluded). The reference figures are the reference engine's round-robin means from
workload.json (another machine of the same kind, so compare ratios). Every match result equals the
workload's \`expected_matches\`.

E3's \`matches\` runs on V8's RegExp, with V8's linear-time fallback for searches that backtrack too much
(src/regex/v8/linear.ts); patterns V8 cannot bound run on RE2 (re2-wasm, ~1.5–5 µs a call, see the
regex section). Run to run, on this shared 2-vCPU VM, cells vary by ±30% or more, so the "met" column can
flip for a cell near its threshold. Every timed call's result is consumed and the results are checked
against the workload's answers (bench/measure.ts, issue 26): figures measured before 2026-11-28 dropped
the results, which let V8 skip pure work (E1 then showed 4–9 ns; \`includes\` alone costs some 16 ns on
these paths when its result is used). Each measured operation gets a loop of its own: one shared,
megamorphic call site added ~25 ns to the baselines.`;
const against = compareWithRevision(workload.expressions, Object.keys(METRICS));
const comparison =
  against &&
  [
    `Before and after: \`filter.match\` of this code against \`${against.revision}\` (git revision), each bundled`,
    `alike and measured in processes of its own, alternately (${against.rounds} of each, same warm-up, every`,
    "result consumed and checked); a ratio is the median of the rounds' ratios (below 1: faster now).",
    '',
    '| expression | exec before | exec now | now / before |',
    '|---|---:|---:|---:|',
    ...against.rows.map(({ id, pairs }) => {
      const pair = pairs.exec as Pair;
      return `| ${id} | ${fmt(pair.before)} | ${fmt(pair.now)} | ${pair.ratio.toFixed(2)}× |`;
    }),
    `| **workload** (geometric mean) | | | **${against.overall.exec?.toFixed(2)}×** |`,
  ].join('\n');
const report = `## Evaluation (bench/eval.ts)\n\nMachine: ${machine}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench:eval -- --write${against ? ` --against ${against.revision}` : ''}\`.\n\n${lines.join('\n')}\n\n${comparison ? `${comparison}\n\n` : ''}${memory}\n\n${note}\n`;
publish(report);
