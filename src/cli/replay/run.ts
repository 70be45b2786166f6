import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { RuleName } from '../../engine/outcome.js';
import { ReplayTally, type ReplayTallyJson } from '../../engine/replay.js';
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
  zone: unknown;
  rules: readonly RuleName[];
  input: Readable;
  workers: number;
  /** The worker thread's script (dist/replay-worker.js). */
  workerScript: URL;
  /** Called with the number of lines read so far, after each batch. */
  progress?: (lines: number) => void;
}

export interface ReplayOutcome {
  tally: ReplayTallyJson;
  invalid: number;
  errors: LineError[];
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
 * only cuts the input at newlines and counts them, so that it keeps up with every worker.
 */
export async function replay(options: ReplayOptions): Promise<ReplayOutcome> {
  const inline = options.workers <= 1 ? new ReplayBatches(options.zone) : undefined;
  const pool = inline ? undefined : new WorkerPool(options.workers, options.workerScript, options.zone);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let nextLine = 1;
  const dispatch = async (data: Uint8Array) => {
    const batch: LineBatch = { first: nextLine, data };
    nextLine += newlines(data);
    if (inline) inline.run(batch);
    else await pool?.send(batch);
    options.progress?.(nextLine - 1);
  };
  try {
    for await (const chunk of options.input) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
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
    const parts: ReplayPart[] = inline ? [inline.result()] : await (pool as WorkerPool).finish();
    return merge(options.rules, parts);
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

function merge(rules: readonly RuleName[], parts: ReplayPart[]): ReplayOutcome {
  const tally = new ReplayTally(rules);
  for (const part of parts) tally.merge(part.tally);
  return {
    tally: tally.toJSON(),
    invalid: parts.reduce((sum, part) => sum + part.invalid, 0),
    errors: parts
      .flatMap((part) => part.errors)
      .sort((a, b) => a.line - b.line)
      .slice(0, REPORTED_ERRORS),
  };
}
