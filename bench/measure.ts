/**
 * Timing helpers shared by the benchmarks: warm up, then the median of several timed windows.
 *
 * Every result of a measured operation is consumed: the loop folds it into a tally (numbers added, other
 * values counted when truthy) that the timing returns. V8 drops a call whose result nobody reads when it
 * has no side effect, and a loop around it then times nothing (issue 26: `includes` came out at 1.2 ns
 * dropped, 16.5 ns used); a call whose result decides a branch must run. Benchmarks check the tally
 * against the answers they expect (`expectTally`), so a figure is also known to come from the right work.
 * test/bench/measure.test.ts holds the harness to this.
 */

export interface Timing {
  /** Median nanoseconds per operation. */
  ns: number;
  /** Spread of the windows, (max - min) / median. */
  spread: number;
  /** The timed calls' results folded (numbers added, other values counted when truthy), over every window. */
  tally: number;
  /** The number of timed calls, over every window. */
  calls: number;
}

/**
 * Throws unless the tally is the expected average per call times the calls, within 1% (the calls of a
 * window cycle through the inputs, so a window can end part-way through a cycle): the measured operation
 * gave the answers the benchmark knows to be right.
 */
export function expectTally(label: string, timing: Timing, perCall: number): void {
  const expected = perCall * timing.calls;
  if (Math.abs(timing.tally - expected) > Math.abs(expected) * 0.01 + 1e-9)
    throw new Error(
      `${label}: the timed calls added up to ${timing.tally} over ${timing.calls} calls, expected ${expected}`,
    );
}

export function measure(
  operation: () => unknown,
  { windows = 7, windowMs = 200, warmupMs = 300 } = {},
): Timing {
  const run = runner();
  run(operation, warmupMs);
  return timing(Array.from({ length: windows }, () => run(operation, windowMs)));
}

/** The middle value (the upper of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  return [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] as number;
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
  return {
    a: timing(pairs.map(([x]) => x)),
    b: timing(pairs.map(([, y]) => y)),
    ratio: median(pairs.map(([x, y]) => x.ns / y.ns)),
  };
}

/** One timed window: nanoseconds per call, and the results folded. */
interface Window {
  ns: number;
  tally: number;
  calls: number;
}

type Runner = (operation: () => unknown, ms: number) => Window;

/**
 * A loop that runs `operation` in batches for `ms` milliseconds and gives nanoseconds per call, with every
 * result folded into the window's tally (see the top of this file). Each
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
      let tally = 0;
      const start = hrtime.bigint();
      let elapsed = 0n;
      while (elapsed < budget) {
        for (let i = 0; i < 50; i++) {
          const result = operation();
          if (typeof result === 'number') tally += result;
          else if (result) tally++;
        }
        count += 50;
        elapsed = hrtime.bigint() - start;
      }
      return { ns: Number(elapsed) / count, tally, calls: count };
    };`,
  )(process.hrtime) as Runner;
}

function timing(windows: Window[]): Timing {
  const times = windows.map((window) => window.ns);
  const middle = median(times);
  return {
    ns: middle,
    spread: (Math.max(...times) - Math.min(...times)) / middle,
    tally: windows.reduce((sum, window) => sum + window.tally, 0),
    calls: windows.reduce((sum, window) => sum + window.calls, 0),
  };
}
