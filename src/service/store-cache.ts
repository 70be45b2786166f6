import type { Store, TableName } from '../store/store.js';

/**
 * Values derived from store reads, kept in memory while the tables they come from are unchanged: any write
 * to one of them (through this store, or by another process on the same database) empties the cache before
 * its next lookup, so a value is never served once the rows it came from may have changed. Only found
 * values are kept (a miss is read again every time), at most `maxEntries` of them, and they are frozen
 * through and through: every request shares them.
 *
 * Why: reading rows is most of what a read request costs (better-sqlite3 builds a JS string for every text
 * value, ~0.2 µs each, so ~50 µs for a page of 25 filters), and clients read far more often than they write.
 */
export class StoreCache<V extends object> {
  private readonly values = new Map<string, V>();
  private generation: number | undefined;

  constructor(
    private readonly store: Store,
    private readonly tables: readonly TableName[],
    private readonly maxEntries = 1000,
  ) {}

  /** The value under `key`, from memory or from `load` (which reads the cache's tables). */
  async get(key: string, load: () => Promise<V>): Promise<V>;
  async get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined>;
  async get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const generation = this.current();
    const kept = this.values.get(key);
    if (kept !== undefined) return kept;
    const value = await load();
    // Kept only if nothing was written while it was read: it might hold rows of before that write.
    if (value !== undefined && this.current() === generation) {
      // Rarely reached (a service has few credentials and zones): starting afresh is simpler than an LRU.
      if (this.values.size >= this.maxEntries) this.values.clear();
      this.values.set(key, deepFreeze(value));
    }
    return value;
  }

  /** The store's generation of the cache's tables, after emptying the cache if it moved. */
  private current(): number {
    const generation = this.store.generation(this.tables);
    if (generation !== this.generation) {
      this.values.clear();
      this.generation = generation;
    }
    return generation;
  }
}

/** Freezes a value made of plain objects and arrays, and everything in it. */
function deepFreeze<V extends object>(value: V): V {
  Object.freeze(value);
  for (const member of Object.values(value)) {
    if (typeof member === 'object' && member !== null && !Object.isFrozen(member)) deepFreeze(member);
  }
  return value;
}
