/**
 * How a database file is flushed to disk (SQLite's `synchronous`, in WAL mode):
 * - `full` (the default): every commit fsyncs the log before the transaction returns, so an acknowledged
 *   write survives anything, power loss included;
 * - `normal`: commits are fsynced only at checkpoints. A process crash (even `kill -9`) still loses
 *   nothing, since the kernel writes the page cache out; an OS crash or power loss can lose the last
 *   acknowledged transactions, but the database stays consistent (never half a transaction).
 * Ignored for `:memory:`, which keeps nothing anyway.
 */
export type Synchronous = 'full' | 'normal';
export const SYNCHRONOUS_MODES: readonly Synchronous[] = ['full', 'normal'];
