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
  const runFor = (ms: number): number => {
    const budget = BigInt(ms) * 1_000_000n;
    let count = 0;
    const start = process.hrtime.bigint();
    let elapsed = 0n;
    while (elapsed < budget) {
      for (let i = 0; i < 50; i++) operation();
      count += 50;
      elapsed = process.hrtime.bigint() - start;
    }
    return Number(elapsed) / count;
  };
  runFor(warmupMs);
  const samples = Array.from({ length: windows }, () => runFor(windowMs)).sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)] as number;
  return { ns: median, spread: ((samples[samples.length - 1] as number) - (samples[0] as number)) / median };
}
