import { availableParallelism } from 'node:os';
import { compileZone } from '../../engine/index.js';
import { choice, parseCommandLine } from '../args.js';
import { type Command, UsageError } from '../command.js';
import { binaryFileError, NotTextError, readInputFile, stdinReader } from '../files.js';
import { commandMessage } from '../messages.js';
import { plural } from '../plural.js';
import { replayJson, replayText } from '../replay/report.js';
import { openInput, replay } from '../replay/run.js';
import { parseStructured } from '../structured-file.js';
import { zoneProblemText } from '../zone-problems.js';

export const replayOptions = {
  zone: { type: 'string', short: 'z' },
  requests: { type: 'string', short: 'r' },
  workers: { type: 'string', short: 'w' },
  format: { type: 'string' },
  top: { type: 'string' },
} as const;

export const replayCommand: Command = {
  name: 'replay',
  options: replayOptions,
  help: `Usage: cfrules replay --zone ZONE --requests FILE [options]

Replays many requests through a zone's configuration and counts what happens:
the final actions, and for each rule how often it matched and decided, with
the first requests it matched. FILE holds one request per line: a sample
request (docs/request.md) or a Cloudflare Logpush http_requests record
(ClientIP, ClientRequestHost, ClientRequestURI…); gzipped files are read as
such. Lines are replayed by the main thread and worker threads (a file of less
than 128 KiB by the main thread alone: each worker compiles the zone again);
memory stays bounded whatever the size of FILE.

  -z, --zone PATH       the zone file, JSON or YAML (docs/engine.md)
  -r, --requests PATH   the requests, JSON lines (.jsonl, or gzipped); - reads
                        standard input
  -w, --workers N       threads that replay: the main thread and N-1 workers
                        (default: the number of cores; 1: the main thread)
      --format FORMAT   text (default) or json: {"requests", "invalid",
                        "actions", "rules": [{"id", "ref", "matched",
                        "decided", "samples"}], "errors"}
      --top N           rules listed in the text summary (default 20)
  -h, --help            show this help

A progress line is shown on standard error when it is a terminal; the time
taken and the rate go to standard error at the end.

Exit status: 0 every line replayed, 1 some lines were not requests (counted in
"invalid"; the first ten are reported on standard error), 2 bad input (bad
option, unreadable or invalid zone, unreadable or binary requests file).
`,
  async run(args, io) {
    const { values, positionals } = parseCommandLine(args, replayOptions);
    const format = choice('--format', values.format, ['text', 'json'] as const) ?? 'text';
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    if (values.zone === undefined) throw new UsageError('--zone is required: the zone file');
    if (values.requests === undefined) throw new UsageError('--requests is required: a file of JSON lines');
    const workers = count('--workers', values.workers) ?? Math.max(1, availableParallelism());
    const top = count('--top', values.top) ?? 20;
    const zoneFile = parseStructured(values.zone, readInputFile(io, values.zone, stdinReader(io)));
    const compiled = compileZone(zoneFile.value);
    if (!compiled.ok) {
      for (const problem of compiled.problems)
        io.stderr(commandMessage('replay', zoneProblemText(zoneFile, problem)));
      return 2;
    }
    let input: ReturnType<typeof openInput>;
    try {
      input = openInput(values.requests);
    } catch (error) {
      const { code } = error as NodeJS.ErrnoException;
      throw new UsageError(
        `cannot read ${values.requests}: ${code === 'ENOENT' ? 'no such file' : (code ?? String(error))}`,
      );
    }
    const showProgress = process.stderr.isTTY === true && !process.env.CI;
    const started = performance.now();
    const outcome = await replay({
      zone: zoneFile.value,
      compiled: compiled.zone,
      rules: compiled.zone.rules,
      input,
      workers,
      workerScript: new URL('./replay-worker.js', import.meta.url),
      ...(showProgress
        ? { progress: (lines: number) => io.stderr(`\r${lines.toLocaleString('en-US')} lines read`) }
        : {}),
    }).catch((error) => {
      const name = values.requests === '-' ? '<stdin>' : (values.requests as string);
      throw error instanceof NotTextError ? binaryFileError(name, error.at) : error;
    });
    const seconds = (performance.now() - started) / 1000;
    if (showProgress) io.stderr('\r\x1b[K');
    // The messages quote the lines (JSON.parse's do), which are whatever clients sent.
    for (const error of outcome.errors)
      io.stderr(commandMessage('replay', `${values.requests}: line ${error.line}: ${error.message}`));
    io.stdout(format === 'json' ? replayJson(outcome) : replayText(outcome, top));
    const rate = Math.round(outcome.tally.requests / Math.max(seconds, 1e-6));
    io.stderr(
      `replayed ${plural(outcome.tally.requests, 'request', outcome.tally.requests.toLocaleString('en-US'))} in ${seconds.toFixed(2)} s (${rate.toLocaleString('en-US')} requests/s, ${plural(Math.max(outcome.workers, 1), 'worker')})\n`,
    );
    return outcome.invalid > 0 ? 1 : 0;
  },
};

function count(option: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1)
    throw new UsageError(`${option} expects a whole number ≥ 1, got '${text}'`);
  return value;
}
