/**
 * Before and after: parse and validate of the current code against the code at another git revision
 * (`--against REV`). scripts/run-bench.mjs bundles both, alike, and passes their paths. Each is measured in
 * processes of its own, alternately, with the same warm-up: two versions in one process disturb each
 * other's figures (V8 specialises code shared by both, or code that has seen fewer shapes), and a check of
 * the same code against itself in one process gave ratios from 0.6 to 1.2.
 */
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { measure } from './measure.js';

/** What is compared: the public entry points the benchmark calls. */
interface Library {
  parse: typeof import('../src/index.js').parse;
  validate: typeof import('../src/index.js').validate;
}

interface Expression {
  id: string;
  expr: string;
}

/** Nanoseconds per call, by expression id. */
type Figures = Record<string, { parse: number; validate: number }>;

export interface Comparison {
  revision: string;
  rounds: number;
  /** Now / before over the whole workload (see compareWithRevision). */
  overall: { parse: number; validate: number };
  rows: { id: string; parse: Pair; validate: Pair }[];
}

/** Medians of both sides, and the median of the rounds' ratios (now / before). */
interface Pair {
  before: number;
  now: number;
  ratio: number;
}

const ROUNDS = 5;
const OPTIONS = { lints: false, maxLength: Number.POSITIVE_INFINITY } as const;

const option = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};

/**
 * In a process started by `compareWithRevision`: measures the library it names, prints the figures and
 * returns true. Otherwise returns false at once.
 */
export async function measureIfChild(expressions: Expression[]): Promise<boolean> {
  const bundle = option('--measure-library');
  if (bundle === undefined) return false;
  const library = (await import(pathToFileURL(bundle).href)) as Library;
  // Every shape first, as a real workload mixes them (and as bench/parse.ts warms up).
  for (let round = 0; round < 2000; round++) {
    for (const { expr } of expressions) {
      library.parse(expr);
      library.validate(expr, OPTIONS);
    }
  }
  const figures: Figures = {};
  for (const { id, expr } of expressions) {
    const timing = { windows: 5, windowMs: 100, warmupMs: 200 };
    figures[id] = {
      parse: measure(() => library.parse(expr), timing).ns,
      validate: measure(() => library.validate(expr, OPTIONS), timing).ns,
    };
  }
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  return true;
}

/** The comparison `--against REV` asks for, or undefined without it. */
export function compareWithRevision(expressions: Expression[]): Comparison | undefined {
  const revision = option('--against');
  if (revision === undefined) return undefined;
  const before = option('--against-bundle');
  const now = option('--now-bundle');
  if (before === undefined || now === undefined)
    throw new Error('--against works through scripts/run-bench.mjs (npm run bench:parse)');
  const runs: { before: Figures; now: Figures }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so that neither always gets the machine as the other leaves it.
    const first = round % 2 === 0 ? before : now;
    const second = first === before ? now : before;
    const [a, b] = [child(first), child(second)];
    runs.push(first === before ? { before: a, now: b } : { before: b, now: a });
  }
  const median = (values: number[]) => [...values].sort((x, y) => x - y)[values.length >> 1] as number;
  const pair = (id: string, what: 'parse' | 'validate'): Pair => {
    const side = (run: Figures) => (run[id] as Figures[string])[what];
    return {
      before: median(runs.map((run) => side(run.before))),
      now: median(runs.map((run) => side(run.now))),
      ratio: median(runs.map((run) => side(run.now) / side(run.before))),
    };
  };
  // One expression's figure moves between processes (V8 compiles it one way or another), so the verdict
  // is over the workload: each round's geometric mean of the expressions' ratios, then their median.
  const overall = (what: 'parse' | 'validate') =>
    median(
      runs.map((run) => {
        const logs = expressions.map(({ id }) => {
          const side = (figures: Figures) => (figures[id] as Figures[string])[what];
          return Math.log(side(run.now) / side(run.before));
        });
        return Math.exp(logs.reduce((sum, log) => sum + log, 0) / logs.length);
      }),
    );
  return {
    revision,
    rounds: ROUNDS,
    overall: { parse: overall('parse'), validate: overall('validate') },
    rows: expressions.map(({ id }) => ({ id, parse: pair(id, 'parse'), validate: pair(id, 'validate') })),
  };
}

function child(bundle: string): Figures {
  const result = spawnSync(process.execPath, [process.argv[1] as string, '--measure-library', bundle], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`measuring ${bundle} failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Figures;
}
