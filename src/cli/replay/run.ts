import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { RuleName } from '../../engine/outcome.js';
import { ReplayTally, type ReplayTallyJson } from '../../engine/replay.js';
import {
  BATCH_LINES,
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

/** Reads the input line by line and replays it on `workers` threads (in this thread for one). */
export async function replay(options: ReplayOptions): Promise<ReplayOutcome> {
  const inline = options.workers <= 1 ? new ReplayBatches(options.zone) : undefined;
  const pool = inline ? undefined : new WorkerPool(options.workers, options.workerScript, options.zone);
  const lines = createInterface({ input: options.input, crlfDelay: Number.POSITIVE_INFINITY });
  let batch: LineBatch = { first: 1, lines: [] };
  let count = 0;
  const dispatch = async () => {
    if (batch.lines.length === 0) return;
    const full = batch;
    batch = { first: full.first + full.lines.length, lines: [] };
    if (inline) inline.run(full);
    else await pool?.send(full);
    options.progress?.(count);
  };
  try {
    for await (const line of lines) {
      count++;
      batch.lines.push(line);
      if (batch.lines.length >= BATCH_LINES) await dispatch();
    }
    await dispatch();
    const parts: ReplayPart[] = inline ? [inline.result()] : await (pool as WorkerPool).finish();
    return merge(options.rules, parts);
  } catch (error) {
    await pool?.stop();
    throw error;
  }
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
