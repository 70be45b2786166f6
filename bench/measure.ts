/** Timing helpers shared by the benchmarks: warm up, then the median of several timed windows. */

export interface Timing {
  /** Median nanoseconds per operation. */
  ns: number;
  /** Spread of the windows, (max - min) / median. */
  spread: number;
}

export function measure(
  operation: () => unknown,
  { windows = 7, windowMs = 200, warmupMs = 300 } = {},
): Timing {
  const run = runner();
  run(operation, warmupMs);
  return timing(Array.from({ length: windows }, () => run(operation, windowMs)));
}

/**
 * Two operations measured in alternating windows, and the median of their per-window ratios (`a / b`):
 * on a shared VM whose speed drifts, both windows of a pair see the same machine, so the ratio holds
 * steadier than the ratio of two separately measured medians.
 */
export function measurePair(
  a: () => unknown,
  b: () => unknown,
  { windows = 9, windowMs = 150, warmupMs = 300 } = {},
): { a: Timing; b: Timing; ratio: number } {
  const [runA, runB] = [runner(), runner()];
  runA(a, warmupMs);
  runB(b, warmupMs);
  const pairs = Array.from({ length: windows }, () => [runA(a, windowMs), runB(b, windowMs)] as const);
  const ratios = pairs.map(([x, y]) => x / y).sort((x, y) => x - y);
  return {
    a: timing(pairs.map(([x]) => x)),
    b: timing(pairs.map(([, y]) => y)),
    ratio: ratios[Math.floor(ratios.length / 2)] as number,
  };
}

type Runner = (operation: () => unknown, ms: number) => number;

/**
 * A loop that runs `operation` in batches for `ms` milliseconds and gives nanoseconds per call. Each
 * measurement gets a loop of its own, compiled from source: a loop shared by every measurement would see
 * many operations at its call site, and V8 would stop inlining them, adding ~20 ns to every figure after
 * the first (and flattering the first).
 */
function runner(): Runner {
  return new Function(
    'hrtime',
    `return function runFor(operation, ms) {
      const budget = BigInt(ms) * 1000000n;
      let count = 0;
      const start = hrtime.bigint();
      let elapsed = 0n;
      while (elapsed < budget) {
        for (let i = 0; i < 50; i++) operation();
        count += 50;
        elapsed = hrtime.bigint() - start;
      }
      return Number(elapsed) / count;
    };`,
  )(process.hrtime) as Runner;
}

function timing(samples: number[]): Timing {
  const sorted = [...samples].sort((x, y) => x - y);
  const median = sorted[Math.floor(sorted.length / 2)] as number;
  return { ns: median, spread: ((sorted[sorted.length - 1] as number) - (sorted[0] as number)) / median };
}
