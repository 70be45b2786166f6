/**
 * A bounded map that keeps what is used: entries live in a young generation, and when it is full it becomes
 * the old one (the previous old one is dropped). A key found in the old generation moves back to the
 * young one, so values that come back request after request (a browser's user agent, a site's cookie
 * names) stay, while one-off values (tokens, ids) leave within two generations. Clearing the whole map when
 * full, as a plain bounded map does, would forget the frequent values with the rest.
 */
export class RecentMap<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();

  /** `generation`: the entries of one generation; at most twice as many are kept. */
  constructor(private readonly generation: number) {}

  get(key: K): V | undefined {
    const value = this.young.get(key);
    if (value !== undefined || this.old.size === 0) return value;
    const older = this.old.get(key);
    if (older !== undefined) this.set(key, older);
    return older;
  }

  set(key: K, value: V): void {
    if (this.young.size >= this.generation) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }
}
