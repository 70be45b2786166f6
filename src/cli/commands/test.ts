import { choice, parseCommandLine } from '../args.js';
import { type CliIo, type Command, UsageError } from '../command.js';
import { alsoAsText } from '../failure-report.js';
import { filesUnder, readInputFile, stdinReader } from '../files.js';
import { commandMessage } from '../messages.js';
import { colorEnabled, emptyInputLine } from '../report.js';
import { parseStructured } from '../structured-file.js';
import { GO_FTW_ZONE } from '../test-files/go-ftw.js';
import { formatInputProblem, type InputProblem } from '../test-files/model.js';
import { type DefaultZone, readTestFile } from '../test-files/read.js';
import { renderTestResults, TEST_FORMATS } from '../test-files/report.js';
import { type CaseResult, runTestFile } from '../test-files/run.js';

export const testOptions = {
  format: { type: 'string' },
  zone: { type: 'string' },
  'show-failures-only': { type: 'boolean' },
  'allow-empty': { type: 'boolean' },
} as const;

export const testCommand: Command = {
  name: 'test',
  options: testOptions,
  formats: TEST_FORMATS,
  help: `Usage: cfrules test [options] FILE...

Runs rule test files: for each case, simulates its request against the zone and
compares what happened with what the case expects (the final action, the rule
that decided it, rules that must or must not match, and what the Rules
products' phases did: redirect, final URL and headers, settings). Files are
YAML (.yaml, .yml) or JSON:

  zone: zone.json              # relative to the test file, or an inline zone
  tests:
    - name: office network reaches /admin
      request: { method: GET, url: "https://example.com/admin", clientIp: "192.0.2.5" }
      expect:
        action: allow          # block, challenge, js_challenge,
                               # managed_challenge, allow, redirect or none
        by: office-allow       # id or ref of the deciding rule (optional)
        fired: [post-log]      # ids or refs that must match (optional)
        not_fired: [admin-block]   # ids or refs that must not (optional)
        # optional too: redirect: URL or {url, status}; url: the final URL
        # (or /path?query); headers: {name: value or null}; settings:
        # {config|origin|cache|compression|log: {key: value}}; response:
        # {status, headers} (with a request that gives a response)

A request may also be the path of a request file (docs/request.md). Rules are
named by id, ref, or the number their description starts with (942100).

go-ftw test files (the OWASP Core Rule Set's regression tests: tests[].stages[]
with input and output.log.expect_ids / no_expect_ids) run too: each stage is a
case, its request rebuilt as go-ftw sends it, against the zone --zone names, or
else the Cloudflare OWASP Core Ruleset with every rule on. What a simulation
cannot tell (a server's status other than 403 or 200, response text) is
skipped, with the reason.

A directory stands for every .yaml, .yml and .json file under it that holds a
"tests" list (zone and request files beside them are left alone), at any
depth, in sorted order (not in node_modules or directories whose names start
with a dot); a directory without one fails the run (status 1) unless
--allow-empty.

      --zone FILE            the zone go-ftw files run against (JSON or YAML)
      --format FORMAT        text (default), json, junit (JUnit XML), github
                             (workflow annotations on the failing cases) or
                             sarif (SARIF 2.1.0); bad input and usage errors
                             come in that format too
      --show-failures-only   leave passing cases out of the report
      --allow-empty          succeed when a directory holds no test file (by
                             default that is an error, so that CI does not
                             pass on nothing)
  -h, --help                 show this help

Exit status: 0 no case failed, 1 a case failed or a directory held no test
file (without --allow-empty), 2 bad input (an unreadable or invalid test file,
zone or request, a rule name that names no rule of the zone, a bad option).
Every mistake of a file is reported at once, each with file, line and column of
the key at fault, case and JSON path; no case of that file runs, and the cases
of the other files still do.
`,
  run(args, io) {
    const { values, positionals } = parseCommandLine(args, testOptions);
    const format = choice('--format', values.format, TEST_FORMATS) ?? 'text';
    if (positionals.length === 0) throw new UsageError('no test file given: cfrules test FILE...');
    const readStdin = stdinReader(io);
    const problems: InputProblem[] = [];
    const results: CaseResult[] = [];
    let zone: DefaultZone | undefined;
    const defaultZone = (): DefaultZone => {
      if (zone) return zone;
      if (values.zone === undefined) {
        zone = { json: GO_FTW_ZONE, file: '(go-ftw default zone)', pointer: '', positionOf: () => START };
      } else {
        const file = parseStructured(values.zone, readInputFile(io, values.zone, readStdin));
        zone = { json: file.value, file: values.zone, pointer: '', positionOf: file.positionOf };
      }
      return zone;
    };
    const allowEmpty = values['allow-empty'] === true;
    const emptyDirectories: string[] = [];
    const files = positionals.flatMap((argument) => {
      const found = testFilesAt(io, argument);
      if (found.length === 0) emptyDirectories.push(argument);
      return found;
    });
    // JSON and GitHub carry them in the report; the other formats on standard error.
    if (format === 'text' || alsoAsText(format))
      for (const directory of emptyDirectories)
        io.stderr(`cfrules test: ${emptyInputLine(directory, 'test file', allowEmpty)}`);
    for (const path of files) {
      let read: ReturnType<typeof readTestFile>;
      try {
        read = readTestFile(io, path, readStdin, defaultZone);
      } catch (error) {
        // A file that cannot be read or parsed: said, and the others still run (a directory of hundreds).
        if (!(error instanceof UsageError) || files.length === 1) throw error;
        problems.push({ file: path, line: error.location?.line ?? 1, pointer: '', message: error.message });
        continue;
      }
      // The file's own mistakes, its zone's and its requests' are reported together.
      const ran = read.file ? runTestFile(read.file, read.problems) : { ok: false as const, ...read };
      if (ran.ok) {
        results.push(...ran.results);
        // Whatever the format: a passing case must not be read as covering rules that did not run.
        for (const warning of ran.warnings)
          io.stderr(commandMessage('test', `warning: ${formatInputProblem(warning)}`));
      } else problems.push(...ran.problems);
    }
    // The machine formats carry the problems in their report, which is written even when no case ran.
    if (format === 'text' || alsoAsText(format))
      for (const problem of problems) io.stderr(commandMessage('test', formatInputProblem(problem)));
    if (format === 'text' && problems.length > 0 && results.length === 0) return 2;
    const options = {
      showFailuresOnly: values['show-failures-only'] === true,
      color: colorEnabled(io),
      emptyDirectories,
      allowEmpty,
    };
    io.stdout(renderTestResults(format, results, problems, options));
    if (problems.length > 0) return 2;
    if (emptyDirectories.length > 0 && !allowEmpty) return 1;
    return results.every((result) => result.passed) ? 0 : 1;
  },
};

/** What a directory argument stands for: its test files, YAML or JSON. */
const TEST_FILE_EXTENSIONS = ['.yaml', '.yml', '.json'] as const;

/** Where a problem of the built-in zone would be: it has none. */
const START = { line: 1, column: 1 };

/**
 * A file argument, or every test file under a directory argument (`filesUnder`), sorted: none for a
 * directory without one, which fails the run unless --allow-empty. In a directory, a test file is one
 * that holds a `tests` list: the zone and request files kept beside the tests are left alone.
 */
function testFilesAt(io: CliIo, path: string): string[] {
  const files = filesUnder(io, path, TEST_FILE_EXTENSIONS);
  return files === undefined ? [path] : files.filter((file) => holdsTests(io, file));
}

/** Whether a file found in a directory is a test file; one that cannot be read is, so that it is reported. */
function holdsTests(io: CliIo, file: string): boolean {
  try {
    const { value } = parseStructured(file, readInputFile(io, file, noStandardInput));
    return typeof value === 'object' && value !== null && !Array.isArray(value) && 'tests' in value;
  } catch {
    return true;
  }
}

const noStandardInput = (): string => {
  throw new UsageError('a file under a directory is not standard input');
};
