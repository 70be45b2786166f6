import { choice, parseCommandLine } from '../args.js';
import { type Command, UsageError } from '../command.js';
import { stdinReader } from '../files.js';
import { colorEnabled } from '../report.js';
import { formatInputProblem, type InputProblem } from '../test-files/model.js';
import { readTestFile } from '../test-files/read.js';
import { renderTestResults, TEST_FORMATS } from '../test-files/report.js';
import { type CaseResult, runTestFile } from '../test-files/run.js';

export const testOptions = {
  format: { type: 'string' },
  'show-failures-only': { type: 'boolean' },
} as const;

export const testCommand: Command = {
  name: 'test',
  options: testOptions,
  help: `Usage: cfrules test [options] FILE...

Runs rule test files: for each case, simulates its request against the zone and
compares what happened with what the case expects (the final action, the rule
that decided it, rules that must or must not match). Files are YAML (.yaml,
.yml) or JSON:

  zone: zone.json              # relative to the test file, or an inline zone
  tests:
    - name: office network reaches /admin
      request: { method: GET, url: "https://example.com/admin", clientIp: "192.0.2.5" }
      expect:
        action: allow          # block, challenge, js_challenge,
                               # managed_challenge, allow or none
        by: office-allow       # id or ref of the deciding rule (optional)
        fired: [post-log]      # ids or refs that must match (optional)
        not_fired: [admin-block]   # ids or refs that must not (optional)

A request may also be the path of a request file (docs/request.md).

      --format FORMAT        text (default), json, junit (JUnit XML) or github
                             (workflow annotations on the failing cases)
      --show-failures-only   leave passing cases out of the report
  -h, --help                 show this help

Exit status: 0 every case passed, 1 a case failed, 2 bad input (an unreadable
or invalid test file, zone or request, a rule name that names no rule of the
zone, a bad option); bad input is reported with file, line, case and JSON path.
`,
  run(args, io) {
    const { values, positionals } = parseCommandLine(args, testOptions);
    const format = choice('--format', values.format, TEST_FORMATS) ?? 'text';
    if (positionals.length === 0) throw new UsageError('no test file given: cfrules test FILE...');
    const readStdin = stdinReader(io);
    const problems: InputProblem[] = [];
    const results: CaseResult[] = [];
    for (const path of positionals) {
      const read = readTestFile(io, path, readStdin);
      const ran = read.ok ? runTestFile(read.file) : read;
      if (ran.ok) results.push(...ran.results);
      else problems.push(...ran.problems);
    }
    if (problems.length > 0) {
      for (const problem of problems) io.stderr(`cfrules test: ${formatInputProblem(problem)}\n`);
      return 2;
    }
    const options = { showFailuresOnly: values['show-failures-only'] === true, color: colorEnabled(io) };
    io.stdout(renderTestResults(format, results, options));
    return results.every((result) => result.passed) ? 0 : 1;
  },
};
