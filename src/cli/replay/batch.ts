import { compileZone } from '../../engine/index.js';
import { ReplayTally, type ReplayTallyJson } from '../../engine/replay.js';
import { ReplayComparison, type ReplayComparisonJson } from '../../engine/replay-comparison.js';
import type { CompiledZone } from '../../engine/zone/types.js';
import { readRequestLine } from '../../request/line.js';

/**
 * Replays lines of requests through a zone and tallies them: the work of one worker thread, or of the
 * main thread with one worker. With a second zone to compare, each request is replayed through it too, in
 * the same pass, and the two outcomes compared. A line is a sample request (docs/request.md) or a Logpush
 * record; a line that is neither is counted and reported by number, never fatal.
 */

/** Bytes of whole lines handed to a worker at once: messaging costs little, work still spreads. */
export const BATCH_BYTES = 128 * 1024;
/** Invalid lines reported by message; the others are only counted. */
export const REPORTED_ERRORS = 10;

export interface LineBatch {
  /** The line number of the first line (1-based). */
  first: number;
  /** Whole lines, UTF-8, each ended by a newline (but maybe the input's last): moved, not copied, to a worker. */
  data: Uint8Array;
}

export interface LineError {
  line: number;
  message: string;
}

export interface ReplayPart {
  tally: ReplayTallyJson;
  /** Present when a second zone is compared. */
  comparison?: ReplayComparisonJson;
  invalid: number;
  errors: LineError[];
}

export class ReplayBatches {
  private readonly zone: CompiledZone;
  private readonly tally: ReplayTally;
  private readonly compared?: { zone: CompiledZone; comparison: ReplayComparison };
  private invalid = 0;
  private readonly errors: LineError[] = [];

  /** `compare`: the new zone, whose outcomes are compared with `zone`'s. */
  constructor(zone: CompiledZone, compare?: CompiledZone) {
    this.zone = zone;
    this.tally = new ReplayTally(zone.rules);
    if (compare) this.compared = { zone: compare, comparison: new ReplayComparison() };
  }

  /** In a worker: the zone files have been compiled once already by the main thread, which reports their problems. */
  static compiling(zoneJson: unknown, compareJson?: unknown): ReplayBatches {
    return new ReplayBatches(
      compiledZone(zoneJson),
      compareJson === undefined ? undefined : compiledZone(compareJson),
    );
  }

  run(batch: LineBatch): void {
    const lines = Buffer.from(batch.data.buffer, batch.data.byteOffset, batch.data.byteLength)
      .toString('utf8')
      .split('\n');
    for (let offset = 0; offset < lines.length; offset++)
      this.line(batch.first + offset, lines[offset] as string);
  }

  private line(line: number, text: string): void {
    const read = readRequestLine(text);
    if (!read) return;
    if (!read.ok) {
      this.fail(line, read.message);
      return;
    }
    const result = this.zone.simulate(read.request, { trace: false });
    this.tally.add(result, line, read.url);
    if (this.compared) {
      const after = this.compared.zone.simulate(read.request, { trace: false });
      this.compared.comparison.add(result, after, line, read.url);
    }
  }

  private fail(line: number, message: string): void {
    this.invalid++;
    if (this.errors.length < REPORTED_ERRORS) this.errors.push({ line, message });
  }

  result(): ReplayPart {
    return {
      tally: this.tally.toJSON(),
      ...(this.compared ? { comparison: this.compared.comparison.toJSON() } : {}),
      invalid: this.invalid,
      errors: this.errors,
    };
  }
}

function compiledZone(zoneJson: unknown): CompiledZone {
  const compiled = compileZone(zoneJson);
  if (!compiled.ok) throw new Error('the zone file does not compile');
  return compiled.zone;
}
