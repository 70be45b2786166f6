/**
 * Before and after: figures of the current code against the code at another git revision (`--against REV`):
 * parse and validate (bench/parse.ts), evaluation (bench/eval.ts). scripts/run-bench.mjs bundles both, alike, and passes their paths. Each is measured in
 * processes of its own, alternately, with the same warm-up: two versions in one process disturb each
 * other's figures (V8 specialises code shared by both, or code that has seen fewer shapes), and a check of
 * the same code against itself in one process gave ratios from 0.6 to 1.2.
 */
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { measure, median, type Timing } from './measure.js';

/** What is compared: the library's public entry points, as each version exports them. */
export type Library = typeof import('../src/index.js');

export interface Expression {
  id: string;
  expr: string;
}

/**
 * A figure measured on both versions: from a library and an expression, the operation to time (its results
 * are consumed by the harness), prepared outside the timing. `check` may throw when a timing's tally shows
 * wrong answers.
 */
export interface Metric {
  prepare(library: Library, expression: Expression): () => unknown;
  check?(timing: Timing, expression: Expression): void;
}

/** Nanoseconds per call, by expression id, then by metric. */
type Figures = Record<string, Record<string, number>>;

export interface Comparison {
  revision: string;
  rounds: number;
  /** Now / before over the whole workload, by metric (see compareWithRevision). */
  overall: Record<string, number>;
  rows: { id: string; pairs: Record<string, Pair> }[];
}

/** Medians of both sides, and the median of the rounds' ratios (now / before). */
export interface Pair {
  before: number;
  now: number;
  ratio: number;
}

const ROUNDS = 5;

const option = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};

/**
 * In a process started by `compareWithRevision`: measures the library it names, prints the figures and
 * returns true. Otherwise returns false at once.
 */
export async function measureIfChild(
  expressions: Expression[],
  metrics: Record<string, Metric>,
  /**
   * How long each operation runs before its windows are timed. The default suits an expression's
   * parse or match; a whole request through a zone runs thousands of functions, which V8 optimises over
   * the first second or so (bench/zone.ts), and timing them sooner times the optimising.
   */
  warmupMs = 200,
): Promise<boolean> {
  const bundle = option('--measure-library');
  if (bundle === undefined) return false;
  const library = (await import(pathToFileURL(bundle).href)) as Library;
  const operations = expressions.map((expression) =>
    Object.entries(metrics).map(([name, metric]) => ({
      name,
      metric,
      run: metric.prepare(library, expression),
    })),
  );
  // Every shape first, as a real workload mixes them (and as the benchmarks warm up).
  let consumed = 0;
  for (let round = 0; round < 2000; round++)
    for (const row of operations) for (const { run } of row) consumed += run() ? 1 : 0;
  const figures: Figures = {};
  expressions.forEach((expression, i) => {
    const timing = { windows: 5, windowMs: 100, warmupMs };
    const row: Record<string, number> = {};
    for (const { name, metric, run } of operations[i] as (typeof operations)[number]) {
      const measured = measure(run, timing);
      metric.check?.(measured, expression);
      row[name] = measured.ns;
    }
    figures[expression.id] = row;
  });
  process.stdout.write(`${JSON.stringify({ figures, consumed })}\n`);
  return true;
}

/** The comparison `--against REV` asks for, or undefined without it. */
export function compareWithRevision(expressions: Expression[], metrics: string[]): Comparison | undefined {
  const revision = option('--against');
  if (revision === undefined) return undefined;
  const before = option('--against-bundle');
  const now = option('--now-bundle');
  if (before === undefined || now === undefined)
    throw new Error('--against works through scripts/run-bench.mjs (npm run bench:NAME -- --against REV)');
  const runs: { before: Figures; now: Figures }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so that neither always gets the machine as the other leaves it.
    const first = round % 2 === 0 ? before : now;
    const second = first === before ? now : before;
    const [a, b] = [child(first), child(second)];
    runs.push(first === before ? { before: a, now: b } : { before: b, now: a });
  }
  const side = (figures: Figures, id: string, metric: string) =>
    (figures[id] as Record<string, number>)[metric] as number;
  const pair = (id: string, metric: string): Pair => ({
    before: median(runs.map((run) => side(run.before, id, metric))),
    now: median(runs.map((run) => side(run.now, id, metric))),
    ratio: median(runs.map((run) => side(run.now, id, metric) / side(run.before, id, metric))),
  });
  // One expression's figure moves between processes (V8 compiles it one way or another), so the verdict
  // is over the workload: each round's geometric mean of the expressions' ratios, then their median.
  const overall = (metric: string) =>
    median(
      runs.map((run) => {
        const logs = expressions.map(({ id }) =>
          Math.log(side(run.now, id, metric) / side(run.before, id, metric)),
        );
        return Math.exp(logs.reduce((sum, log) => sum + log, 0) / logs.length);
      }),
    );
  return {
    revision,
    rounds: ROUNDS,
    overall: Object.fromEntries(metrics.map((metric) => [metric, overall(metric)])),
    rows: expressions.map(({ id }) => ({
      id,
      pairs: Object.fromEntries(metrics.map((metric) => [metric, pair(id, metric)])),
    })),
  };
}

function child(bundle: string): Figures {
  // The benchmark bundled without the library, when scripts/run-bench.mjs made one.
  const script = option('--child-bundle') ?? (process.argv[1] as string);
  const result = spawnSync(process.execPath, [script, '--measure-library', bundle], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`measuring ${bundle} failed: ${result.stderr}`);
  return (JSON.parse(result.stdout) as { figures: Figures }).figures;
}
