import { describe, expect, it } from 'vitest';
import { evenlySpaced } from '../../../src/cli/bench/sample.js';
import { rankingDoubts, summarize } from '../../../src/cli/bench/windows.js';

describe('summarize', () => {
  it('gives the median of the windows, the fastest and the slowest', () => {
    expect(summarize([30, 10, 20, 50, 40])).toEqual({ median: 30, low: 10, high: 50 });
    expect(summarize([4, 1, 3, 2])).toEqual({ median: 2.5, low: 1, high: 4 });
    expect(summarize([7])).toEqual({ median: 7, low: 7, high: 7 });
  });

  it('is not moved by one slow window', () => {
    expect(summarize([10, 11, 10, 500, 11]).median).toBe(11);
  });
});

describe('rankingDoubts', () => {
  const figure = (low: number, median: number, high: number) => ({ low, median, high });

  it('trusts a ranking whose neighbours do not overlap', () => {
    expect(rankingDoubts([figure(90, 100, 110), figure(50, 60, 80), figure(10, 20, 40)])).toEqual([]);
  });

  it('doubts two neighbours when the slower window of the second passes the faster of the first', () => {
    expect(rankingDoubts([figure(90, 100, 110), figure(50, 60, 95), figure(10, 20, 40)])).toEqual([
      { first: 1, last: 2 },
    ]);
    // Touching counts: one window of each took the same time.
    expect(rankingDoubts([figure(90, 100, 110), figure(50, 60, 90)])).toEqual([{ first: 1, last: 2 }]);
  });

  it('joins overlaps in a row into one run, and keeps separate runs apart', () => {
    const ranked = [
      figure(95, 100, 105),
      figure(90, 98, 99),
      figure(85, 92, 96),
      figure(40, 50, 60),
      figure(20, 30, 41),
      figure(1, 2, 3),
    ];
    expect(rankingDoubts(ranked)).toEqual([
      { first: 1, last: 3 },
      { first: 4, last: 5 },
    ]);
  });

  it('has nothing to doubt in a list of one or none', () => {
    expect(rankingDoubts([figure(1, 2, 3)])).toEqual([]);
    expect(rankingDoubts([])).toEqual([]);
  });
});

describe('evenlySpaced', () => {
  it('takes every n-th item from the first, the same on every call', () => {
    const items = Array.from({ length: 10 }, (_, i) => i);
    expect(evenlySpaced(items, 5)).toEqual([0, 2, 4, 6, 8]);
    expect(evenlySpaced(items, 3)).toEqual([0, 3, 6]);
    expect(evenlySpaced(items, 1)).toEqual([0]);
  });

  it('takes everything when asked for as many or more', () => {
    expect(evenlySpaced([1, 2, 3], 3)).toEqual([1, 2, 3]);
    expect(evenlySpaced([1, 2, 3], 9)).toEqual([1, 2, 3]);
  });
});
