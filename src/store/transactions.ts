import type { TableName } from './store.js';

/** What both stores share around their transactions: generations, one at a time, closing. */

const TABLES: readonly TableName[] = [
  'accounts',
  'tokens',
  'zones',
  'filters',
  'firewallRules',
  'wafSettings',
  'wafOverrides',
  'pageRules',
  'wafMigrations',
  'rulesets',
  'accountRulesets',
];

/**
 * The counters behind Store.generation: writes per table through this store, plus commits seen from other
 * connections or processes. Each only grows, so their sum over some tables changes whenever one of them does.
 */
export class WriteCounters {
  private readonly written = Object.fromEntries(TABLES.map((table) => [table, 0])) as Record<
    TableName,
    number
  >;
  private otherCommits = 0;

  /** A write statement ran (its transaction may still roll back); `inTransaction` collects its tables. */
  wrote(tables: readonly TableName[], inTransaction: Set<TableName>): void {
    for (const table of tables) {
      this.written[table] += 1;
      inTransaction.add(table);
    }
  }

  /** Once more when a transaction ends: a copy made after a write may hold rows that a rollback undid. */
  transactionEnded(inTransaction: Set<TableName>): void {
    for (const table of inTransaction) this.written[table] += 1;
    inTransaction.clear();
  }

  /** Another connection committed: to these tables, or to any when they are not known. */
  otherCommitted(tables?: readonly string[]): void {
    if (tables === undefined) {
      this.otherCommits += 1;
      return;
    }
    for (const table of tables) if (table in this.written) this.written[table as TableName] += 1;
  }

  generation(tables: readonly TableName[]): number {
    let generation = this.otherCommits;
    for (const table of tables) generation += this.written[table];
    return generation;
  }
}

/** One holder at a time, in the order they asked (one connection serves one transaction). */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();

  /** Resolves, once every earlier holder has released, to the function that releases this one. */
  acquire(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const granted = this.tail.then(() => release);
    this.tail = this.tail.then(() => held);
    return granted;
  }
}

/** Counts the transactions under way, so that closing can wait for them to end. */
export class InFlight {
  private count = 0;
  private drained: (() => void) | undefined;
  private closed: Promise<void> | undefined;

  /** Runs `task` as one more transaction under way; refused once closing has begun. */
  async track<T>(task: () => Promise<T>): Promise<T> {
    if (this.closed !== undefined) throw new Error('the store is closed');
    this.count += 1;
    try {
      return await task();
    } finally {
      this.count -= 1;
      if (this.count === 0) this.drained?.();
    }
  }

  /**
   * Refuses new transactions, waits for those under way, then runs `finish` (closing the connections); a
   * second call gets the same promise.
   */
  close(finish: () => void | Promise<void>): Promise<void> {
    this.closed ??= (async () => {
      if (this.count > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      await finish();
    })();
    return this.closed;
  }

  get isClosing(): boolean {
    return this.closed !== undefined;
  }
}
