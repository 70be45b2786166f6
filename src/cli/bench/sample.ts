/**
 * `count` items of `items`, evenly spaced from the first (every 10th of 1,000 for 100): a sample that is the
 * same on every run, so that two runs compare, and that spans the whole file rather than its beginning,
 * whose traffic may differ from the rest. All of them when `count` is not smaller.
 */
export function evenlySpaced<T>(items: readonly T[], count: number): T[] {
  if (count >= items.length) return [...items];
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)] as T);
}
