import { compileZone, formatTrace } from '../../engine/index.js';
import { readSampleRequest } from '../../request/index.js';
import { choice, parseCommandLine } from '../args.js';
import { type Command, UsageError } from '../command.js';
import { readInputFile, stdinReader } from '../files.js';
import { commandMessage } from '../messages.js';
import { colorEnabled } from '../report.js';
import { parseStructured } from '../structured-file.js';
import { reportZoneWarnings, zoneProblemText } from '../zone-problems.js';

export const simulateOptions = {
  zone: { type: 'string', short: 'z' },
  request: { type: 'string', short: 'r' },
  format: { type: 'string' },
  verbose: { type: 'boolean' },
} as const;

export const simulateCommand: Command = {
  name: 'simulate',
  options: simulateOptions,
  help: `Usage: cfrules simulate --zone ZONE --request REQUEST [options]

Shows what a zone's configuration does to one request: the final action, the
rule that decided it, and the trace of every rule considered, stage by stage
(firewall rules, custom rules, rate limiting, managed rules, previous WAF).
The zone file format is in docs/engine.md, the request format in
docs/request.md.

  -z, --zone PATH       the zone file, JSON or YAML (.yaml, .yml)
  -r, --request PATH    the sample request, JSON or YAML; - reads standard input
      --format FORMAT   tree (default) or json (the result's schema is in
                        docs/engine.md)
      --verbose         in the tree, list the rules that did not match too
  -h, --help            show this help

Exit status: 0 simulated (whatever the action), 2 bad input (bad option,
unreadable or invalid zone or request; reported with the JSON path).
`,
  run(args, io) {
    const { values, positionals } = parseCommandLine(args, simulateOptions);
    const format = choice('--format', values.format, ['tree', 'json'] as const) ?? 'tree';
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    if (values.zone === undefined) throw new UsageError('--zone is required: the zone file');
    if (values.request === undefined) throw new UsageError('--request is required: the sample request');
    const readStdin = stdinReader(io);
    const zoneFile = parseStructured(values.zone, readInputFile(io, values.zone, readStdin));
    const requestFile = parseStructured(values.request, readInputFile(io, values.request, readStdin));

    const compiled = compileZone(zoneFile.value);
    const request = readSampleRequest(requestFile.value);
    const problems = [
      ...(compiled.ok ? [] : compiled.problems.map((problem) => zoneProblemText(zoneFile, problem))),
      ...(request.ok
        ? []
        : request.problems.map((p) => `${values.request}: ${p.path || '(request)'}: ${p.message}`)),
    ];
    if (!compiled.ok || !request.ok) {
      for (const problem of problems) io.stderr(commandMessage('simulate', problem));
      return 2;
    }
    reportZoneWarnings(io, 'simulate', zoneFile, compiled.warnings);
    const result = compiled.zone.simulate(request.request);
    if (format === 'json') io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    else io.stdout(`${formatTrace(result, { verbose: values.verbose === true, color: colorEnabled(io) })}\n`);
    return 0;
  },
};
