import type { ReplayTallyJson } from '../../../../src/engine/replay.js';
import type { ApiMessage } from '../api.js';

// The messages between the console's replay view and its Web Worker (./worker.ts).

export interface ReplayJob {
  file: File;
  /** The session's API token: the worker calls the API itself. Handed over in memory, never stored. */
  token: string;
  zoneId: string;
}

/** One stretch of the log: its requests, those that matched a rule, and those a rule decided. */
export interface LogBucket {
  firstLine: number;
  lastLine: number;
  requests: number;
  matched: number;
  decided: number;
}

export interface LineProblem {
  line: number;
  message: string;
}

export type ReplayMessage =
  | { type: 'progress'; bytesRead: number; bytesTotal: number; requests: number }
  | {
      type: 'done';
      tally: ReplayTallyJson;
      invalid: number;
      problems: LineProblem[];
      buckets: LogBucket[];
      gzipped: boolean;
    }
  | { type: 'failed'; status: number; errors: ApiMessage[] };
