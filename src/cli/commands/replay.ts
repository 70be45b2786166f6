import { availableParallelism } from 'node:os';
import { compileZone } from '../../engine/index.js';
import { choice, parseCommandLine } from '../args.js';
import { type CliIo, type Command, UsageError } from '../command.js';
import { binaryFileError, fileErrorReason, NotTextError, readInputFile, stdinReader } from '../files.js';
import { commandMessage } from '../messages.js';
import { plural } from '../plural.js';
import { terminalProgress } from '../progress.js';
import { replayJson, replayText } from '../replay/report.js';
import { openInput, replay } from '../replay/run.js';
import { emptyInputLine } from '../report.js';
import { parseStructured } from '../structured-file.js';
import { reportZoneWarnings, zoneProblemText } from '../zone-problems.js';

export const replayOptions = {
  zone: { type: 'string', short: 'z' },
  requests: { type: 'string', short: 'r' },
  workers: { type: 'string', short: 'w' },
  format: { type: 'string' },
  top: { type: 'string' },
  compare: { type: 'string' },
  'fail-on-change': { type: 'boolean' },
  'allow-empty': { type: 'boolean' },
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

With --compare PATH, a changed zone file, each request is replayed through
both zones in the same pass, and the summary adds the requests whose outcome
(the final action, or the rule that decided it) changes: counted by change,
with the first requests of each, and the final actions in both zones.

  -z, --zone PATH       the zone file, JSON or YAML (docs/engine.md)
  -r, --requests PATH   the requests, JSON lines (.jsonl, or gzipped); - reads
                        standard input
  -w, --workers N       threads that replay: the main thread and N-1 workers
                        (default: the number of cores; 1: the main thread)
      --compare PATH    a changed zone file, to compare with --zone
      --fail-on-change  with --compare: exit status 1 when an outcome changes
      --format FORMAT   text (default) or json: {"requests", "invalid",
                        "actions", "rules": [{"id", "ref", "matched",
                        "decided", "samples"}], "errors"}, and with --compare
                        "comparison": {"requests", "changed", "actions":
                        {ACTION: {"old", "new"}}, "changes": [{"from", "to",
                        "requests", "samples"}]}
      --top N           rules, and changes, listed in the text summary
                        (default 20)
      --allow-empty     succeed when FILE holds no request (by default that is
                        an error, so that CI does not pass on nothing)
  -h, --help            show this help

A progress line is shown on standard error when it is a terminal; the time
taken and the rate go to standard error at the end.

Exit status: 0 every line replayed (and, with --fail-on-change, no outcome
changed), 1 some lines were not requests (counted in "invalid"; the first ten
are reported on standard error), FILE held no request (blank lines only, or
nothing) without --allow-empty, or, with --fail-on-change, some outcome changed,
2 bad input (bad option, unreadable or invalid zone, unreadable or binary
requests file).
`,
  async run(args, io) {
    const { values, positionals } = parseCommandLine(args, replayOptions);
    const format = choice('--format', values.format, ['text', 'json'] as const) ?? 'text';
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    if (values.zone === undefined) throw new UsageError('--zone is required: the zone file');
    if (values.requests === undefined) throw new UsageError('--requests is required: a file of JSON lines');
    if (values['fail-on-change'] && values.compare === undefined)
      throw new UsageError('--fail-on-change needs --compare: the zone whose changes fail');
    const workers = count('--workers', values.workers) ?? Math.max(1, availableParallelism());
    const top = count('--top', values.top) ?? 20;
    // The requests are streamed from standard input, so a zone cannot be read from it too.
    if (values.requests === '-' && (values.zone === '-' || values.compare === '-'))
      throw new UsageError('standard input can be read only once (- was given twice)');
    const readStdin = stdinReader(io);
    const zone = compiledZoneFile(io, values.zone, readStdin);
    const compare =
      values.compare === undefined ? undefined : compiledZoneFile(io, values.compare, readStdin);
    if (!zone || compare === null) return 2;
    let input: ReturnType<typeof openInput>;
    try {
      input = openInput(values.requests);
    } catch (error) {
      throw new UsageError(`cannot read ${values.requests}: ${fileErrorReason(error)}`);
    }
    const progress = terminalProgress(io);
    const started = performance.now();
    const outcome = await replay({
      zone: zone.value,
      compiled: zone.compiled,
      rules: zone.compiled.rules,
      ...(compare ? { compare: { zone: compare.value, compiled: compare.compiled } } : {}),
      input,
      workers,
      workerScript: new URL('./replay-worker.js', import.meta.url),
      ...(progress
        ? { progress: (lines: number) => progress.update(`${lines.toLocaleString('en-US')} lines read`) }
        : {}),
    }).catch((error) => {
      const name = values.requests === '-' ? '<stdin>' : (values.requests as string);
      throw error instanceof NotTextError ? binaryFileError(name, error.at) : error;
    });
    const seconds = (performance.now() - started) / 1000;
    progress?.clear();
    // The messages quote the lines (JSON.parse's do), which are whatever clients sent.
    for (const error of outcome.errors)
      io.stderr(commandMessage('replay', `${values.requests}: line ${error.line}: ${error.message}`));
    io.stdout(format === 'json' ? replayJson(outcome) : replayText(outcome, top, values.compare));
    const rate = Math.round(outcome.tally.requests / Math.max(seconds, 1e-6));
    io.stderr(
      `replayed ${plural(outcome.tally.requests, 'request', outcome.tally.requests.toLocaleString('en-US'))} in ${seconds.toFixed(2)} s (${rate.toLocaleString('en-US')} requests/s, ${plural(Math.max(outcome.workers, 1), 'worker')})\n`,
    );
    const changed = outcome.comparison?.changed ?? 0;
    if (values['fail-on-change'] && changed > 0)
      io.stderr(
        `${plural(changed, 'request', changed.toLocaleString('en-US'))} changed outcome (--fail-on-change)\n`,
      );
    // Not one line to replay: a log emptied or cut by mistake must not pass a CI job, as with validate.
    const empty = outcome.tally.requests === 0 && outcome.invalid === 0;
    const allowEmpty = values['allow-empty'] === true;
    if (empty) io.stderr(`cfrules replay: ${emptyInputLine(values.requests, 'request', allowEmpty)}`);
    return outcome.invalid > 0 || (empty && !allowEmpty) || (values['fail-on-change'] && changed > 0) ? 1 : 0;
  },
};

/** The zone file at `path`, read and compiled; null when it does not compile, its problems reported by file and line. */
function compiledZoneFile(io: CliIo, path: string, readStdin: () => string) {
  const file = parseStructured(path, readInputFile(io, path, readStdin));
  const compiled = compileZone(file.value);
  if (compiled.ok) {
    reportZoneWarnings(io, 'replay', file, compiled.warnings);
    return { value: file.value, compiled: compiled.zone };
  }
  for (const problem of compiled.problems)
    io.stderr(commandMessage('replay', zoneProblemText(file, problem)));
  return null;
}

function count(option: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1)
    throw new UsageError(`${option} expects a whole number ≥ 1, got '${text}'`);
  return value;
}
