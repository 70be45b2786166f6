import { ReplayTally } from '../../../../src/engine/replay.js';
import type { SimulationResult } from '../../../../src/index.js';
import { readRequestLine } from '../../../../src/request/line.js';
import { Api, ApiError } from '../api.js';
import { isGzip, logLines } from './log-lines.js';
import type { LineProblem, LogBucket, ReplayJob, ReplayMessage } from './protocol.js';

// The console's replay, in a Web Worker (console-replay.js): reads the log line by line (sample requests or
// Logpush records, gzipped or not), has the service simulate them a hundred at a time against the zone as
// stored (POST /zones/{id}/simulate, without traces), and adds the results up as `cfrules replay` does
// (src/engine/replay.ts), plus where along the log the matches fall.

/** Requests per simulate call: the API's maximum. */
const BATCH = 100;
/** Characters of JSON per call, well under the API's 8 MiB body limit (requests may carry bodies). */
const BATCH_CHARACTERS = 4 * 1024 * 1024;
/** Line problems reported (the others are counted). */
const REPORTED = 10;
/** Stretches of the log in the "matches along the log" chart. */
const BUCKETS = 60;

const post = (message: ReplayMessage) => (self as unknown as Worker).postMessage(message);

self.addEventListener('message', (event: MessageEvent<ReplayJob>) => {
  replay(event.data).catch((error: unknown) => {
    post(
      error instanceof ApiError
        ? { type: 'failed', status: error.status, errors: error.errors }
        : { type: 'failed', status: 0, errors: [{ code: 0, message: String(error) }] },
    );
  });
});

async function replay({ file, token, zoneId }: ReplayJob): Promise<void> {
  const api = new Api(token);
  const tally = new ReplayTally();
  /** Per request, in log order: its line, whether a rule matched, whether one decided. */
  const outcomes: { line: number; matched: boolean; decided: boolean }[] = [];
  const problems: LineProblem[] = [];
  let invalid = 0;
  let batch: { line: number; json: unknown; url: string }[] = [];
  let batchCharacters = 0;
  let bytesRead = 0;
  let lastReport = 0;
  const report = () =>
    post({ type: 'progress', bytesRead, bytesTotal: file.size, requests: outcomes.length });

  const flush = async () => {
    if (batch.length === 0) return;
    const sent = batch;
    batch = [];
    batchCharacters = 0;
    const results = await api.call<SimulationResult[]>(
      'POST',
      `/zones/${encodeURIComponent(zoneId)}/simulate`,
      {
        requests: sent.map((item) => item.json),
        trace: false,
      },
    );
    results.result.forEach((result, index) => {
      const item = sent[index] as (typeof sent)[number];
      tally.add(result, item.line, item.url);
      outcomes.push({
        line: item.line,
        matched: result.matched.length > 0,
        decided: result.action !== 'none',
      });
    });
    report();
  };

  let line = 0;
  for await (const text of logLines(file, (read) => {
    bytesRead = read;
  })) {
    line++;
    const read = readRequestLine(text);
    if (!read) continue;
    if (!read.ok) {
      invalid++;
      if (problems.length < REPORTED) problems.push({ line, message: read.message });
      continue;
    }
    // A Logpush record's sample request is no longer than the record.
    if (batchCharacters + text.length > BATCH_CHARACTERS) await flush();
    batch.push({ line, json: read.json, url: read.url });
    batchCharacters += text.length;
    if (batch.length === BATCH) await flush();
    else if (bytesRead - lastReport > 64 * 1024) {
      lastReport = bytesRead;
      report();
    }
  }
  await flush();
  bytesRead = file.size;
  report();
  const gzipped = isGzip(new Uint8Array(await file.slice(0, 2).arrayBuffer()));
  post({ type: 'done', tally: tally.toJSON(), invalid, problems, buckets: buckets(outcomes), gzipped });
}

/** The outcomes in at most BUCKETS stretches of equal numbers of requests. */
function buckets(outcomes: readonly { line: number; matched: boolean; decided: boolean }[]): LogBucket[] {
  const size = Math.max(1, Math.ceil(outcomes.length / BUCKETS));
  const result: LogBucket[] = [];
  for (let start = 0; start < outcomes.length; start += size) {
    const part = outcomes.slice(start, start + size);
    result.push({
      firstLine: (part[0] as (typeof part)[number]).line,
      lastLine: (part[part.length - 1] as (typeof part)[number]).line,
      requests: part.length,
      matched: part.filter((outcome) => outcome.matched).length,
      decided: part.filter((outcome) => outcome.decided).length,
    });
  }
  return result;
}
