/**
 * What `cfrules bench` makes of its windows: each cost is measured once per window, and a figure is the
 * median of its windows with their spread (the fastest and the slowest window). On a loaded machine one
 * window can be slowed down; the median shrugs it off, and the spread shows it.
 */

export interface WindowFigure {
  /** Nanoseconds per call, the median of the windows. */
  median: number;
  /** The fastest window's nanoseconds per call. */
  low: number;
  /** The slowest window's. */
  high: number;
}

/** The median and spread of one cost's per-window figures (at least one). */
export function summarize(windows: readonly number[]): WindowFigure {
  if (windows.length === 0) throw new Error('summarize: no window');
  const sorted = [...windows].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median =
    sorted.length % 2 === 1
      ? (sorted[middle] as number)
      : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  return { median, low: sorted[0] as number, high: sorted[sorted.length - 1] as number };
}

/** Ranks (1-based, inclusive) of rules whose order the windows cannot tell apart. */
export interface RankingDoubt {
  first: number;
  last: number;
}

/**
 * The runs of neighbours, in a list ranked by median (the most expensive first), whose spreads overlap:
 * when the slowest window of a rule is slower than the fastest of the rule ranked above it, another run
 * could swap them. Neighbours that overlap one after another make one run (ranks 2 to 4), so the report
 * says it once.
 */
export function rankingDoubts(ranked: readonly WindowFigure[]): RankingDoubt[] {
  const doubts: RankingDoubt[] = [];
  for (let i = 1; i < ranked.length; i++) {
    const above = ranked[i - 1] as WindowFigure;
    const below = ranked[i] as WindowFigure;
    if (below.high < above.low) continue;
    const last = doubts.at(-1);
    if (last && last.last === i) last.last = i + 1;
    else doubts.push({ first: i, last: i + 1 });
  }
  return doubts;
}
