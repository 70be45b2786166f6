import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { RuleName } from '../../engine/outcome.js';
import { ReplayTally, type ReplayTallyJson } from '../../engine/replay.js';
import { ReplayComparison, type ReplayComparisonJson } from '../../engine/replay-comparison.js';
import type { CompiledZone } from '../../engine/zone/types.js';
import { NotTextError, notTextAt } from '../files.js';
import {
  BATCH_BYTES,
  type LineBatch,
  type LineError,
  REPORTED_ERRORS,
  ReplayBatches,
  type ReplayPart,
} from './batch.js';
import { WorkerPool } from './pool.js';

export interface ReplayOptions {
  /** The zone file, which each worker compiles. */
  zone: unknown;
  /** The same zone compiled by this thread, which replays by itself when one worker or one batch will do. */
  compiled: CompiledZone;
  rules: readonly RuleName[];
  /** A second zone, whose outcomes are compared with the first's: its file (for the workers), compiled. */
  compare?: { zone: unknown; compiled: CompiledZone };
  input: Readable;
  workers: number;
  /** The worker thread's script (dist/replay-worker.js). */
  workerScript: URL;
  /** Called with the number of lines read so far, after each batch. */
  progress?: (lines: number) => void;
}

export interface ReplayOutcome {
  tally: ReplayTallyJson;
  /** Present when a second zone was compared. */
  comparison?: ReplayComparisonJson;
  invalid: number;
  errors: LineError[];
  /** Threads that replayed, this one included (0: this one alone, the input being one batch or one thread asked). */
  workers: number;
}

/** The input: a file, gunzipped when it starts as gzip does (whatever its name), or standard input. */
export function openInput(path: string): Readable {
  if (path === '-') return process.stdin;
  const file = openSync(path, 'r');
  const magic = Buffer.alloc(2);
  const read = readSync(file, magic, 0, 2, 0);
  closeSync(file);
  const stream = createReadStream(path);
  return read === 2 && magic[0] === 0x1f && magic[1] === 0x8b ? stream.pipe(createGunzip()) : stream;
}

/**
 * Reads the input in chunks and hands whole lines to the workers (in this thread for one): the main thread
 * only cuts the input at newlines and counts them, so that it keeps up with every worker. The workers
 * start with the second batch: an input of one batch (128 KiB) is replayed here, as each worker would first
 * compile the zone again, which for managed rulesets takes longer than replaying a small file.
 */
export async function replay(options: ReplayOptions): Promise<ReplayOutcome> {
  const batchesHere = () => new ReplayBatches(options.compiled, options.compare?.compiled);
  let inline = options.workers <= 1 ? batchesHere() : undefined;
  let pool: WorkerPool | undefined;
  let held: LineBatch | undefined;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let nextLine = 1;
  const runHere = (batch: LineBatch) => {
    inline ??= batchesHere();
    inline.run(batch);
  };
  const run = async (batch: LineBatch) => {
    if (options.workers <= 1) return runHere(batch);
    // This thread has the zone compiled already, so it is one of the N: it replays a batch itself when the
    // N-1 workers have enough to do — from the start, while they compile the zone again.
    pool ??= new WorkerPool(options.workers - 1, options.workerScript, {
      zone: options.zone,
      ...(options.compare ? { compare: options.compare.zone } : {}),
    });
    if (!pool.trySend(batch)) runHere(batch);
  };
  const dispatch = async (data: Uint8Array) => {
    const batch: LineBatch = { first: nextLine, data };
    nextLine += newlines(data);
    // The first batch waits for a second one, which says the input needs the workers.
    if (!inline && !pool && !held) held = batch;
    else {
      if (held) await run(held);
      held = undefined;
      await run(batch);
    }
    options.progress?.(nextLine - 1);
  };
  let first = true;
  try {
    for await (const chunk of options.input) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      // A binary file (a log still compressed otherwise than gzip, say) is said once, not line by line.
      const notText = first ? notTextAt(buffer, false) : undefined;
      if (notText) throw new NotTextError(notText);
      first = false;
      const end = buffer.lastIndexOf(10);
      if (end < 0) {
        pending.push(buffer);
        pendingBytes += buffer.length;
        continue;
      }
      pending.push(buffer.subarray(0, end + 1));
      pendingBytes += end + 1;
      if (pendingBytes >= BATCH_BYTES) {
        // A copy of its own, so that the worker can take it over (Buffers share a pool).
        await dispatch(new Uint8Array(Buffer.concat(pending, pendingBytes)));
        pending = [];
        pendingBytes = 0;
      }
      const rest = buffer.subarray(end + 1);
      if (rest.length > 0) {
        pending.push(rest);
        pendingBytes += rest.length;
      }
    }
    if (pendingBytes > 0) await dispatch(new Uint8Array(Buffer.concat(pending, pendingBytes)));
    if (held) runHere(held);
    const parts: ReplayPart[] = [...(pool ? await pool.finish() : []), ...(inline ? [inline.result()] : [])];
    return {
      ...merge(options.rules, parts, options.compare !== undefined),
      workers: pool ? options.workers : 0,
    };
  } catch (error) {
    await pool?.stop();
    throw error;
  }
}

function newlines(data: Uint8Array): number {
  const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let count = 0;
  for (let at = buffer.indexOf(10); at >= 0; at = buffer.indexOf(10, at + 1)) count++;
  return count;
}

function merge(
  rules: readonly RuleName[],
  parts: ReplayPart[],
  comparing: boolean,
): Omit<ReplayOutcome, 'workers'> {
  const tally = new ReplayTally(rules);
  for (const part of parts) tally.merge(part.tally);
  // An empty input has no parts, but still compares: no request changed.
  const comparison = comparing ? new ReplayComparison() : undefined;
  for (const part of parts) if (part.comparison) comparison?.merge(part.comparison);
  return {
    tally: tally.toJSON(),
    ...(comparison ? { comparison: comparison.toJSON() } : {}),
    invalid: parts.reduce((sum, part) => sum + part.invalid, 0),
    errors: parts
      .flatMap((part) => part.errors)
      .sort((a, b) => a.line - b.line)
      .slice(0, REPORTED_ERRORS),
  };
}
