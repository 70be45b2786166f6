import { escapeControlCharacters } from '../../lang/escape.js';
import { escapeData, escapeProperty } from '../github.js';
import { xml } from '../junit.js';
import { emptyInputMessage } from '../report.js';
import { sarifLog } from '../sarif.js';
import { formatInputProblem, type InputProblem } from './model.js';
import type { CaseResult } from './run.js';

/**
 * The formats of `cfrules test`: a human summary, JSON for scripts, JUnit XML, GitHub annotations and SARIF
 * for CI.
 */
export const TEST_FORMATS = ['text', 'json', 'junit', 'github', 'sarif'] as const;
export type TestFormat = (typeof TEST_FORMATS)[number];

export interface TestReportOptions {
  showFailuresOnly: boolean;
  color: boolean;
  /** Directory arguments that held no test file, and whether --allow-empty makes that a warning. */
  emptyDirectories?: readonly string[];
  allowEmpty?: boolean;
}

/**
 * The report of the cases that ran. The machine formats also carry the input problems (a test file, zone or
 * request that cannot be used), which the text format leaves to standard error.
 */
export function renderTestResults(
  format: TestFormat,
  results: CaseResult[],
  problems: InputProblem[],
  options: TestReportOptions,
): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(jsonReport(results, problems, options), null, 2)}\n`;
    case 'junit':
      return junitReport(results, problems, options);
    case 'github':
      return githubReport(results, problems) + githubEmptyDirectories(options);
    case 'sarif':
      return sarifReport(results, problems);
    default:
      return textReport(results, options);
  }
}

const counts = (results: CaseResult[]) => {
  const skipped = results.filter((result) => result.skipped !== undefined).length;
  const passed = results.filter((result) => result.passed).length - skipped;
  return { passed, failed: results.length - passed - skipped, skipped };
};

const summary = ({ passed, failed, skipped }: ReturnType<typeof counts>) =>
  `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;

const shownCases = (results: CaseResult[], options: TestReportOptions) =>
  options.showFailuresOnly ? results.filter((result) => !result.passed) : results;

function jsonReport(results: CaseResult[], problems: InputProblem[], options: TestReportOptions) {
  const empty = options.emptyDirectories ?? [];
  return {
    ...counts(results),
    problems,
    ...(empty.length > 0 ? { emptyDirectories: empty } : {}),
    cases: shownCases(results, options),
  };
}

/** A directory without a test file: an error annotation, or a warning with --allow-empty. */
function githubEmptyDirectories({ emptyDirectories = [], allowEmpty }: TestReportOptions): string {
  const level = allowEmpty ? 'warning' : 'error';
  return emptyDirectories
    .map(
      (directory) =>
        `::${level} file=${escapeProperty(directory)},title=cfrules test::${escapeData(emptyInputMessage('test file'))}\n`,
    )
    .join('');
}

const green = (text: string, color: boolean) => (color ? `\x1b[32m${text}\x1b[0m` : text);
const red = (text: string, color: boolean) => (color ? `\x1b[31m${text}\x1b[0m` : text);

function textReport(results: CaseResult[], options: TestReportOptions): string {
  let out = '';
  let file: string | undefined;
  for (const result of shownCases(results, options)) {
    if (result.file !== file) {
      file = result.file;
      out += `${escapeControlCharacters(file)}\n`;
    }
    const mark =
      result.skipped !== undefined
        ? 'SKIP'
        : result.passed
          ? green('PASS', options.color)
          : red('FAIL', options.color);
    out += `  ${mark} ${escapeControlCharacters(result.name)}\n`;
    if (result.skipped !== undefined) out += `       ${escapeControlCharacters(result.skipped)}\n`;
    for (const difference of result.differences) {
      out += `       ${escapeControlCharacters(difference)} (${escapeControlCharacters(result.file)}:${result.line})\n`;
    }
  }
  const total = counts(results);
  const line = summary(total);
  return `${out}${total.failed > 0 ? red(line, options.color) : green(line, options.color)}\n`;
}

/**
 * One testsuite per test file, one testcase per case; failures carry every difference. Input problems
 * follow, one testsuite per file they are in, each problem a testcase in error.
 */
function junitReport(results: CaseResult[], problems: InputProblem[], options: TestReportOptions): string {
  const files = new Map<string, CaseResult[]>();
  for (const result of results) files.set(result.file, [...(files.get(result.file) ?? []), result]);
  const { failed, skipped } = counts(results);
  const tests = results.length + problems.length;
  let out = `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="cfrules test" tests="${tests}" failures="${failed}" errors="${problems.length}" skipped="${skipped}">\n`;
  for (const [file, fileResults] of files) {
    const fileCounts = counts(fileResults);
    out += `  <testsuite name="${xml(file)}" tests="${fileResults.length}" failures="${fileCounts.failed}" skipped="${fileCounts.skipped}">\n`;
    for (const result of shownCases(fileResults, options)) {
      const attributes = `name="${xml(result.name)}" classname="${xml(file)}" file="${xml(file)}" line="${result.line}"`;
      if (result.skipped !== undefined) {
        out += `    <testcase ${attributes}>\n      <skipped message="${xml(result.skipped)}"/>\n    </testcase>\n`;
        continue;
      }
      if (result.passed) {
        out += `    <testcase ${attributes}/>\n`;
        continue;
      }
      const message = result.differences.join('; ');
      out += `    <testcase ${attributes}>\n      <failure message="${xml(message)}">${xml(result.differences.join('\n'))}</failure>\n    </testcase>\n`;
    }
    out += '  </testsuite>\n';
  }
  return `${out}${junitProblems(problems)}</testsuites>\n`;
}

function junitProblems(problems: InputProblem[]): string {
  const files = new Map<string, InputProblem[]>();
  for (const problem of problems) files.set(problem.file, [...(files.get(problem.file) ?? []), problem]);
  let out = '';
  for (const [file, fileProblems] of files) {
    out += `  <testsuite name="${xml(file)}" tests="${fileProblems.length}" failures="0" errors="${fileProblems.length}" skipped="0">\n`;
    for (const problem of fileProblems) {
      const name = problem.case ?? (problem.pointer || '(document)');
      const text = formatInputProblem(problem);
      out += `    <testcase name="${xml(name)}" classname="${xml(file)}" file="${xml(file)}" line="${problem.line}">\n`;
      out += `      <error type="invalid-input" message="${xml(problem.message)}">${xml(text)}</error>\n    </testcase>\n`;
    }
    out += '  </testsuite>\n';
  }
  return out;
}

/** A problem's message where it is shown at its file and line: the case and the JSON path first. */
const problemMessage = (problem: InputProblem): string =>
  `${problem.case === undefined ? '' : `case ${JSON.stringify(problem.case)}: `}${problem.pointer || '(document)'}: ${problem.message}`;

/**
 * Workflow commands: an error annotation on the line of each failing case and of each input problem, and a
 * notice with the totals.
 */
function githubReport(results: CaseResult[], problems: InputProblem[]): string {
  let out = '';
  for (const problem of problems) {
    const properties = [`file=${escapeProperty(problem.file)}`, `line=${problem.line}`, 'title=cfrules test'];
    out += `::error ${properties.join(',')}::${escapeData(problemMessage(problem))}\n`;
  }
  for (const result of results) {
    if (result.passed) continue;
    const properties = [
      `file=${escapeProperty(result.file)}`,
      `line=${result.line}`,
      `title=${escapeProperty(`cfrules test: ${result.name}`)}`,
    ];
    out += `::error ${properties.join(',')}::${escapeData(result.differences.join('\n'))}\n`;
  }
  return `${out}::notice title=cfrules test::${summary(counts(results))}\n`;
}

/** What the rules of `cfrules test`'s SARIF log are about. */
const testRules: Record<string, string> = {
  'test-failed': "A test case's expectation does not hold",
  'invalid-input': 'A test file, zone or request that cannot be used',
};

/** SARIF: a result (error) per failing case, at its line in the test file, and per input problem. */
function sarifReport(results: CaseResult[], problems: InputProblem[]): string {
  return sarifLog({
    results: [
      ...problems.map((problem) => ({
        ruleId: 'invalid-input',
        level: 'error' as const,
        message: problemMessage(problem),
        location: { file: problem.file, region: { startLine: problem.line } },
      })),
      ...results
        .filter((result) => !result.passed)
        .map((result) => ({
          ruleId: 'test-failed',
          level: 'error' as const,
          message: `${result.name}: ${result.differences.join('; ')}`,
          location: { file: result.file, region: { startLine: result.line } },
        })),
    ],
    describe: (ruleId) => testRules[ruleId] ?? ruleId,
    executionSuccessful: true,
  });
}
