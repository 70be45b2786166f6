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
  const skipped = results.filter((result) => result.skipped !== undefined).length;
  const passed = results.filter((result) => result.passed).length - skipped;
  return { passed, failed: results.length - passed - skipped, skipped };
};

const summary = ({ passed, failed, skipped }: ReturnType<typeof counts>) =>
  `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;

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
  const { failed, skipped } = counts(results);
  let out = `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="cfrules test" tests="${results.length}" failures="${failed}" skipped="${skipped}">\n`;
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
  return `${out}::notice title=cfrules test::${summary(counts(results))}\n`;
}
