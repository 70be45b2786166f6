import { compileZone } from '../../engine/index.js';
import type { RuleName } from '../../engine/outcome.js';
import { costReasons } from '../../engine/rule-cost.js';
import type { Filter } from '../../eval/compile.js';
import { escapeControlCharacters } from '../../lang/escape.js';
import { formatRequestProblem, readSampleRequest, type SampleRequest } from '../../request/index.js';
import { fromLogpush, isLogpushRecord } from '../../request/logpush.js';
import { choice, parseCommandLine } from '../args.js';
import { type BenchMeasurement, measureZone, WINDOWS } from '../bench/measure.js';
import { evenlySpaced } from '../bench/sample.js';
import { type RankingDoubt, rankingDoubts, summarize, type WindowFigure } from '../bench/windows.js';
import { type Command, UsageError } from '../command.js';
import { readInputFile, stdinReader } from '../files.js';
import { commandMessage } from '../messages.js';
import { plural } from '../plural.js';
import { type Progress, terminalProgress } from '../progress.js';
import { parseStructured } from '../structured-file.js';
import { reportZoneWarnings, zoneProblemText } from '../zone-problems.js';

export const benchOptions = {
  zone: { type: 'string', short: 'z' },
  requests: { type: 'string', short: 'r' },
  sample: { type: 'string' },
  duration: { type: 'string' },
  top: { type: 'string' },
  format: { type: 'string' },
} as const;

export const benchCommand: Command = {
  name: 'bench',
  options: benchOptions,
  help: `Usage: cfrules bench --zone ZONE --requests FILE [options]

Measures what evaluating a zone costs per request, on the requests of FILE
(one per line, as cfrules replay reads them): the whole zone as cfrules runs
it (the indexed program) and rule by rule, then each rule's expression on its
own, the most expensive first, with what makes it cost (regexes, large sets,
the body, functions). Everything is timed in ${WINDOWS} windows: each figure is the
median of its windows, with the fastest and the slowest; when the windows of
neighbouring rules overlap, the report says their order is not reliable.
Times depend on the machine: compare them with each other.

  -z, --zone PATH       the zone file, JSON or YAML (docs/engine.md)
  -r, --requests PATH   the requests, JSON lines; - reads standard input
      --sample N        time N of the requests, evenly spaced: of 1000,
                        --sample 100 takes the 1st, 11th, 21st…; the others
                        are not read
      --duration SECONDS
                        take about SECONDS in all: deriving the requests'
                        fields takes at most half, the windows share the rest
                        (a window cut short is dropped); the report says what
                        was measured. Without it: 0.3 s for the zone, 0.3 s
                        rule by rule and 10 ms per rule, once the fields are
                        derived
      --top N           rules listed (default 10)
      --format FORMAT   text (default) or json
  -h, --help            show this help

A progress line is shown on standard error when it is a terminal (not when CI
is set).

Exit status: 0 measured, 2 bad input (bad option, unreadable or invalid zone
or requests file, no request in it).
`,
  run(args, io) {
    const { values, positionals } = parseCommandLine(args, benchOptions);
    const format = choice('--format', values.format, ['text', 'json'] as const) ?? 'text';
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    if (values.zone === undefined) throw new UsageError('--zone is required: the zone file');
    if (values.requests === undefined) throw new UsageError('--requests is required: a file of JSON lines');
    const top = wholeNumber('--top', values.top) ?? 10;
    const sample = wholeNumber('--sample', values.sample);
    const duration = seconds('--duration', values.duration);
    const readStdin = stdinReader(io);
    const zoneFile = parseStructured(values.zone, readInputFile(io, values.zone, readStdin));
    const compiled = compileZone(zoneFile.value);
    if (!compiled.ok) {
      for (const problem of compiled.problems)
        io.stderr(commandMessage('bench', zoneProblemText(zoneFile, problem)));
      return 2;
    }
    reportZoneWarnings(io, 'bench', zoneFile, compiled.warnings);
    const progress = terminalProgress(io);
    try {
      const read = readRequests(
        values.requests,
        readInputFile(io, values.requests, readStdin),
        sample,
        progress,
      );
      const measurement = measureZone({
        zone: compiled.zone,
        requests: read.requests,
        ...(duration === undefined ? {} : { durationSeconds: duration }),
        ...(progress ? { progress: (text: string) => progress.update(text) } : {}),
      });
      progress?.clear();
      const report = benchReport(compiled.zone.rules, compiled.zone.filters, read, measurement, duration);
      io.stdout(format === 'json' ? benchJson(report, top) : benchText(report, top));
      return 0;
    } finally {
      progress?.clear();
    }
  },
};

function wholeNumber(option: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`${option} expects a whole number ≥ 1, got '${text}'`);
  return n;
}

function seconds(option: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n <= 0)
    throw new UsageError(`${option} expects a number of seconds > 0, got '${text}'`);
  return n;
}

interface RequestsRead {
  requests: SampleRequest[];
  /** Requests in the file (its non-empty lines). */
  inFile: number;
  sampled: boolean;
}

/** The requests of the file, or of its sample: the lines left out are not read, so not checked either. */
function readRequests(
  name: string,
  text: string,
  sample: number | undefined,
  progress: Progress | undefined,
): RequestsRead {
  const lines = text
    .split('\n')
    .map((line, index) => ({ line, number: index + 1 }))
    .filter(({ line }) => line.trim() !== '');
  if (lines.length === 0) throw new UsageError(`${name} holds no request`);
  const chosen = sample === undefined ? lines : evenlySpaced(lines, sample);
  const requests = chosen.map(({ line, number }, index) => {
    if (index % 1000 === 0)
      progress?.update(
        `reading requests: ${index.toLocaleString('en-US')} of ${chosen.length.toLocaleString('en-US')}`,
      );
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      throw new UsageError(`${name}: line ${number}: not JSON: ${(error as Error).message}`);
    }
    const read = readSampleRequest(isLogpushRecord(json) ? fromLogpush(json) : json);
    if (!read.ok)
      throw new UsageError(`${name}: line ${number}: ${read.problems.map(formatRequestProblem).join('; ')}`);
    return read.request;
  });
  return { requests, inFile: lines.length, sampled: chosen.length < lines.length };
}

interface RankedRule extends WindowFigure {
  rule: RuleName;
  windows: number[];
  reasons: string[];
}

interface BenchReport {
  read: RequestsRead;
  measurement: BenchMeasurement;
  durationLimit: number | undefined;
  ruleCount: number;
  zone: WindowFigure;
  ruleByRule: WindowFigure;
  /** Every rule, the most expensive (by median) first. */
  rules: RankedRule[];
}

function benchReport(
  rules: readonly RuleName[],
  filters: readonly Filter[],
  read: RequestsRead,
  measurement: BenchMeasurement,
  durationLimit: number | undefined,
): BenchReport {
  const ranked = measurement.rules
    .map((windows, i) => ({
      ...summarize(windows),
      rule: rules[i] as RuleName,
      windows,
      reasons: costReasons(filters[i] as Filter),
    }))
    .sort((a, b) => b.median - a.median);
  return {
    read,
    measurement,
    durationLimit,
    ruleCount: rules.length,
    zone: summarize(measurement.zone),
    ruleByRule: summarize(measurement.ruleByRule),
    rules: ranked,
  };
}

/** The doubts about the order of the rules listed (ranks within the top). */
const listedDoubts = (report: BenchReport, top: number): RankingDoubt[] =>
  rankingDoubts(report.rules.slice(0, top));

function benchJson(report: BenchReport, top: number): string {
  const { read, measurement } = report;
  const doubts = listedDoubts(report, top);
  const doubted = (rank: number) => doubts.some(({ first, last }) => rank >= first && rank <= last);
  const figure = ({ median, low, high }: WindowFigure, windows: number[]) => ({
    median,
    low,
    high,
    windows,
  });
  return `${JSON.stringify(
    {
      requests: read.requests.length,
      requestsInFile: read.inFile,
      sampled: read.sampled,
      measurement: {
        windows: measurement.windows,
        windowsPlanned: measurement.windowsPlanned,
        seconds: measurement.seconds,
        durationLimit: report.durationLimit ?? null,
        stoppedByDuration: measurement.stoppedByDuration,
        requestsTimedPerRule: measurement.preparedRequests,
      },
      zone: {
        nsPerRequest: report.zone.median,
        ruleByRuleNsPerRequest: report.ruleByRule.median,
        indexed: figure(report.zone, measurement.zone),
        ruleByRule: figure(report.ruleByRule, measurement.ruleByRule),
      },
      rules: report.rules.slice(0, top).map((rule, index) => ({
        id: rule.rule.id,
        ref: rule.rule.ref,
        stage: rule.rule.stage,
        ns: rule.median,
        low: rule.low,
        high: rule.high,
        windows: rule.windows,
        rankReliable: !doubted(index + 1),
        reasons: rule.reasons,
      })),
      rankingDoubts: doubts,
    },
    null,
    2,
  )}\n`;
}

function benchText(report: BenchReport, top: number): string {
  const { read, measurement } = report;
  const listed = report.rules.slice(0, top);
  const count = (n: number) => n.toLocaleString('en-US');
  const requests = read.sampled
    ? `a sample of ${count(read.requests.length)} of ${count(read.inFile)} requests (evenly spaced)`
    : plural(read.requests.length, 'request', count(read.requests.length));
  const windows =
    measurement.windows === measurement.windowsPlanned
      ? plural(measurement.windows, 'window')
      : `${measurement.windows} of ${measurement.windowsPlanned} windows`;
  const lines = [
    `${requests}, ${plural(report.ruleCount, 'rule expression')}, ${windows}${report.durationLimit === undefined ? '' : ` (--duration ${report.durationLimit})`}`,
    ...durationNotes(report),
    `whole zone: ${fmt(report.zone.median)} per request (windows ${range(report.zone)}; rule by rule: ${fmt(report.ruleByRule.median)}, ${slowerOrFaster(report.ruleByRule.median / report.zone.median)})`,
    '',
    `The ${listed.length} most expensive rules (each on its own, per request: the median, then the fastest–slowest window):`,
    ...listed.map(
      ({ rule, median, low, high, reasons }) =>
        `  ${fmt(median).padStart(10)}  ${range({ low, high }).padStart(19)}  ${rule.ref ?? rule.id}${rule.description && !rule.ref ? ` "${rule.description}"` : ''} [${rule.stage}]${reasons.length ? `: ${reasons.join('; ')}` : ''}`,
    ),
    ...listedDoubts(report, top).map(
      ({ first, last }) =>
        `The spread is too wide to rank rules ${last === first + 1 ? `${first} and ${last}` : `${first} to ${last}`}: run on a quieter machine or with more requests.`,
    ),
  ];
  // Rule ids, descriptions and the literals of the reasons are the zone file's.
  return `${escapeControlCharacters(lines.join('\n'))}\n`;
}

/** What --duration cut short, if anything. */
function durationNotes({ read, measurement, durationLimit }: BenchReport): string[] {
  if (durationLimit === undefined) return [];
  const notes: string[] = [];
  if (measurement.preparedRequests < read.requests.length)
    notes.push(
      `fields derived for ${measurement.preparedRequests.toLocaleString('en-US')} of ${read.requests.length.toLocaleString('en-US')} requests in half the time; each rule was timed on those`,
    );
  if (measurement.stoppedByDuration)
    notes.push(
      `stopped by --duration after ${measurement.seconds.toFixed(1)} s: ${measurement.windows} of ${measurement.windowsPlanned} windows measured, the figures are theirs`,
    );
  return notes;
}

/** Rule by rule against the indexed program: slower as a rule, faster in a zone too small to index, or noise. */
const slowerOrFaster = (ratio: number) =>
  ratio >= 1 ? `${ratio.toFixed(1)}× slower` : `${(1 / ratio).toFixed(1)}× faster`;

const fmt = (ns: number) =>
  ns >= 1e6
    ? `${(ns / 1e6).toFixed(2)} ms`
    : ns >= 1e3
      ? `${(ns / 1e3).toFixed(2)} µs`
      : `${ns.toFixed(0)} ns`;

/** The fastest–slowest window, in the unit of the slowest: "3.40–3.51 µs". */
function range({ low, high }: Pick<WindowFigure, 'low' | 'high'>): string {
  const [divisor, unit, digits] = high >= 1e6 ? [1e6, 'ms', 2] : high >= 1e3 ? [1e3, 'µs', 2] : [1, 'ns', 0];
  return `${(low / divisor).toFixed(digits)}–${(high / divisor).toFixed(digits)} ${unit}`;
}
