// The benchmarks' harness (bench/measure.ts) times the work it is given: every result is consumed, so V8
// cannot drop the measured call, and the tally says what the calls answered.
import { describe, expect, it } from 'vitest';
import { expectTally, measure, measurePair } from '../../bench/measure.js';

const PATHS = ['/admin/users', '/api/v1/items', '/static/app.js', '/admin'];
const QUICK = { windows: 3, windowMs: 40, warmupMs: 40 };

describe('measure', () => {
  it('folds every result into its tally: truthy results counted, numbers added', () => {
    let i = 0;
    const found = measure(() => PATHS[i++ & 3]?.includes('/admin'), QUICK);
    expect(found.calls).toBeGreaterThan(0);
    // Two of the four paths hold "/admin"; a window can stop part-way through the cycle of four.
    expect(Math.abs(found.tally - found.calls / 2)).toBeLessThanOrEqual(QUICK.windows * 2);
    expect(() => expectTally('includes', found, 0.5)).not.toThrow();
    expect(() => expectTally('includes', found, 0.25)).toThrow(/expected/);

    let j = 0;
    const lengths = measure(() => PATHS[j++ & 3]?.length ?? 0, QUICK);
    const perCycle = PATHS.reduce((sum, path) => sum + path.length, 0);
    expect(Math.abs(lengths.tally - (lengths.calls * perCycle) / 4)).toBeLessThanOrEqual(
      QUICK.windows * perCycle,
    );
  });

  it('does not time a pure call as cheaper than a loop that checks every result of it', () => {
    // A pure call whose result is dropped costs V8 almost nothing (1.2 ns against 16.5 ns for this one);
    // the harness must time the call itself. Timed with its result dropped, this call came out at a fifth
    // of the checked loop; timed with it consumed, at about the loop's cost. Half leaves room for noise.
    const checkedLoop = (): number => {
      let count = 0;
      const calls = 2_000_000;
      const started = process.hrtime.bigint();
      for (let k = 0; k < calls; k++) if (PATHS[k & 3]?.includes('/admin')) count++;
      const ns = Number(process.hrtime.bigint() - started) / calls;
      if (count !== calls / 2) throw new Error('the checked loop miscounted');
      return ns;
    };
    const loopTimes: number[] = [];
    const harnessTimes: number[] = [];
    for (let round = 0; round < 5; round++) {
      loopTimes.push(checkedLoop());
      let i = 0;
      harnessTimes.push(measure(() => PATHS[i++ & 3]?.includes('/admin'), QUICK).ns);
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[2] as number;
    expect(median(harnessTimes)).toBeGreaterThan(median(loopTimes) / 2);
  });
});

describe('measurePair', () => {
  it('tallies each operation on its own', () => {
    const pair = measurePair(
      () => 1,
      () => 2,
      { windows: 3, windowMs: 30, warmupMs: 30 },
    );
    expect(pair.a.tally).toBe(pair.a.calls);
    expect(pair.b.tally).toBe(2 * pair.b.calls);
  });
});
