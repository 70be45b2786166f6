import { escapeControlCharacters } from '../../lang/escape.js';
import { escapeData, escapeProperty } from '../report.js';
import type { CaseResult } from './run.js';

/** The formats of `cfrules test`: a human summary, JSON for scripts, JUnit XML and GitHub annotations for CI. */
export const TEST_FORMATS = ['text', 'json', 'junit', 'github'] as const;
export type TestFormat = (typeof TEST_FORMATS)[number];

export interface TestReportOptions {
  showFailuresOnly: boolean;
  color: boolean;
}

export function renderTestResults(
  format: TestFormat,
  results: CaseResult[],
  options: TestReportOptions,
): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(jsonReport(results, options), null, 2)}\n`;
    case 'junit':
      return junitReport(results, options);
    case 'github':
      return githubReport(results);
    default:
      return textReport(results, options);
  }
}

const counts = (results: CaseResult[]) => {
  const passed = results.filter((result) => result.passed).length;
  return { passed, failed: results.length - passed };
};

const shownCases = (results: CaseResult[], options: TestReportOptions) =>
  options.showFailuresOnly ? results.filter((result) => !result.passed) : results;

function jsonReport(results: CaseResult[], options: TestReportOptions) {
  return { ...counts(results), cases: shownCases(results, options) };
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
    const mark = result.passed ? green('PASS', options.color) : red('FAIL', options.color);
    out += `  ${mark} ${escapeControlCharacters(result.name)}\n`;
    for (const difference of result.differences) {
      out += `       ${escapeControlCharacters(difference)} (${escapeControlCharacters(result.file)}:${result.line})\n`;
    }
  }
  const { passed, failed } = counts(results);
  const line = `${passed} passed, ${failed} failed`;
  return `${out}${failed > 0 ? red(line, options.color) : green(line, options.color)}\n`;
}

const xml = (text: string) =>
  text
    // XML 1.0 cannot carry control characters even escaped; show them as the CLI does elsewhere.
    .split('\n')
    .map(escapeControlCharacters)
    .join('\n')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/** One testsuite per test file, one testcase per case; failures carry every difference. */
function junitReport(results: CaseResult[], options: TestReportOptions): string {
  const files = new Map<string, CaseResult[]>();
  for (const result of results) files.set(result.file, [...(files.get(result.file) ?? []), result]);
  const { passed, failed } = counts(results);
  let out = `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="cfrules test" tests="${passed + failed}" failures="${failed}">\n`;
  for (const [file, fileResults] of files) {
    const fileCounts = counts(fileResults);
    out += `  <testsuite name="${xml(file)}" tests="${fileResults.length}" failures="${fileCounts.failed}">\n`;
    for (const result of shownCases(fileResults, options)) {
      const attributes = `name="${xml(result.name)}" classname="${xml(file)}" file="${xml(file)}" line="${result.line}"`;
      if (result.passed) {
        out += `    <testcase ${attributes}/>\n`;
        continue;
      }
      const message = result.differences.join('; ');
      out += `    <testcase ${attributes}>\n      <failure message="${xml(message)}">${xml(result.differences.join('\n'))}</failure>\n    </testcase>\n`;
    }
    out += '  </testsuite>\n';
  }
  return `${out}</testsuites>\n`;
}

/** Workflow commands: an error annotation on the line of each failing case, and a notice with the totals. */
function githubReport(results: CaseResult[]): string {
  let out = '';
  for (const result of results) {
    if (result.passed) continue;
    const properties = [
      `file=${escapeProperty(result.file)}`,
      `line=${result.line}`,
      `title=${escapeProperty(`cfrules test: ${result.name}`)}`,
    ];
    out += `::error ${properties.join(',')}::${escapeData(result.differences.join('\n'))}\n`;
  }
  const { passed, failed } = counts(results);
  return `${out}::notice title=cfrules test::${passed} passed, ${failed} failed\n`;
}
