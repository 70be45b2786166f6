import { compileZone } from '../../engine/index.js';
import type { RuleName } from '../../engine/outcome.js';
import { costReasons } from '../../engine/rule-cost.js';
import { layoutFor } from '../../eval/context.js';
import { escapeControlCharacters } from '../../lang/escape.js';
import { formatRequestProblem, readSampleRequest, type SampleRequest } from '../../request/index.js';
import { fromLogpush, isLogpushRecord } from '../../request/logpush.js';
import { cloudflareScheme } from '../../scheme/scheme.js';
import { choice, parseCommandLine } from '../args.js';
import { type Command, UsageError } from '../command.js';
import { readInputFile, stdinReader } from '../files.js';
import { commandMessage } from '../messages.js';
import { parseStructured } from '../structured-file.js';
import { zoneProblemText } from '../zone-problems.js';

export const benchOptions = {
  zone: { type: 'string', short: 'z' },
  requests: { type: 'string', short: 'r' },
  top: { type: 'string' },
  format: { type: 'string' },
} as const;

/** How long each measurement runs: long enough to be steady, short enough for a prompt answer. */
const MEASURE_MS = 300;

export const benchCommand: Command = {
  name: 'bench',
  options: benchOptions,
  help: `Usage: cfrules bench --zone ZONE --requests FILE [options]

Measures what evaluating a zone costs per request, on the requests of FILE
(one per line, as cfrules replay reads them): the whole zone as cfrules runs
it (the indexed program) and rule by rule, then each rule's expression on its
own, the most expensive first, with what makes it cost (regexes, large sets,
the body, functions). Times depend on the machine: compare them with each
other.

  -z, --zone PATH       the zone file, JSON or YAML (docs/engine.md)
  -r, --requests PATH   the requests, JSON lines; - reads standard input
      --top N           rules listed (default 10)
      --format FORMAT   text (default) or json
  -h, --help            show this help

Exit status: 0 measured, 2 bad input (bad option, unreadable or invalid zone
or requests file, no request in it).
`,
  run(args, io) {
    const { values, positionals } = parseCommandLine(args, benchOptions);
    const format = choice('--format', values.format, ['text', 'json'] as const) ?? 'text';
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    if (values.zone === undefined) throw new UsageError('--zone is required: the zone file');
    if (values.requests === undefined) throw new UsageError('--requests is required: a file of JSON lines');
    const top = values.top === undefined ? 10 : Number(values.top);
    if (!Number.isSafeInteger(top) || top < 1)
      throw new UsageError(`--top expects a whole number ≥ 1, got '${values.top}'`);
    const readStdin = stdinReader(io);
    const zoneFile = parseStructured(values.zone, readInputFile(io, values.zone, readStdin));
    const indexed = compileZone(zoneFile.value);
    if (!indexed.ok) {
      for (const problem of indexed.problems)
        io.stderr(commandMessage('bench', zoneProblemText(zoneFile, problem)));
      return 2;
    }
    const byRule = { zone: indexed.zone.ruleByRule() };
    const requests = readRequests(values.requests, readInputFile(io, values.requests, readStdin));
    const layout = layoutFor(cloudflareScheme);
    let next = 0;
    const nextRequest = () => requests[next++ % requests.length] as SampleRequest;
    const zoneNs = nsPer(() => indexed.zone.simulate(nextRequest(), { trace: false }));
    const byRuleNs = nsPer(() => byRule.zone.simulate(nextRequest(), { trace: false }));
    // Each rule on contexts whose fields are derived already: the rule's own cost, not the request's.
    const contexts = requests.map((request) => layout.context(request));
    for (const context of contexts) for (const filter of indexed.zone.filters) filter.match(context);
    const rules = indexed.zone.filters.map((filter, i) => {
      let k = 0;
      const ns = nsPer(() => filter.match(contexts[k++ % contexts.length] as never), MEASURE_MS / 30);
      return { rule: indexed.zone.rules[i] as RuleName, ns, reasons: costReasons(filter) };
    });
    rules.sort((a, b) => b.ns - a.ns);
    if (format === 'json') {
      io.stdout(
        `${JSON.stringify(
          {
            requests: requests.length,
            zone: { nsPerRequest: zoneNs, ruleByRuleNsPerRequest: byRuleNs },
            rules: rules.slice(0, top).map(({ rule, ns, reasons }) => ({
              id: rule.id,
              ref: rule.ref,
              stage: rule.stage,
              ns,
              reasons,
            })),
          },
          null,
          2,
        )}\n`,
      );
      return 0;
    }
    const lines = [
      `${requests.length} requests, ${indexed.zone.rules.length} rule expressions`,
      `whole zone: ${fmt(zoneNs)} per request (rule by rule: ${fmt(byRuleNs)}, ${(byRuleNs / zoneNs).toFixed(1)}× slower)`,
      '',
      `The ${Math.min(top, rules.length)} most expensive rules (each on its own, per request):`,
      ...rules
        .slice(0, top)
        .map(
          ({ rule, ns, reasons }) =>
            `  ${fmt(ns).padStart(10)}  ${rule.ref ?? rule.id}${rule.description && !rule.ref ? ` "${rule.description}"` : ''} [${rule.stage}]${reasons.length ? `: ${reasons.join('; ')}` : ''}`,
        ),
    ];
    // Rule ids, descriptions and the literals of the reasons are the zone file's.
    io.stdout(`${escapeControlCharacters(lines.join('\n'))}\n`);
    return 0;
  },
};

function readRequests(name: string, text: string): SampleRequest[] {
  const requests: SampleRequest[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      throw new UsageError(`${name}: line ${index + 1}: not JSON: ${(error as Error).message}`);
    }
    const read = readSampleRequest(isLogpushRecord(json) ? fromLogpush(json) : json);
    if (!read.ok)
      throw new UsageError(
        `${name}: line ${index + 1}: ${read.problems.map(formatRequestProblem).join('; ')}`,
      );
    requests.push(read.request);
  });
  if (requests.length === 0) throw new UsageError(`${name} holds no request`);
  return requests;
}

/** Nanoseconds per call of `operation`, over about `ms` milliseconds after a short warm-up. */
function nsPer(operation: () => unknown, ms = MEASURE_MS): number {
  for (let i = 0; i < 50; i++) operation();
  let calls = 0;
  const started = process.hrtime.bigint();
  const until = started + BigInt(Math.round(ms * 1e6));
  let now = started;
  while (now < until) {
    for (let i = 0; i < 20; i++) operation();
    calls += 20;
    now = process.hrtime.bigint();
  }
  return Number(now - started) / calls;
}

const fmt = (ns: number) =>
  ns >= 1e6
    ? `${(ns / 1e6).toFixed(2)} ms`
    : ns >= 1e3
      ? `${(ns / 1e3).toFixed(2)} µs`
      : `${ns.toFixed(0)} ns`;
