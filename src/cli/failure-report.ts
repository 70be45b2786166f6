import type { ErrorLocation } from './command.js';
import { escapeData, escapeProperty } from './github.js';
import { xml } from './junit.js';
import { sarifLog } from './sarif.js';

/**
 * A usage error in the format the user asked for, so that a CI job reading JSON, JUnit XML, SARIF or
 * GitHub annotations gets the failure where it looks for results, not only as text in a log.
 */

/** The formats a failure can be written in, besides the text on standard error. */
export const FAILURE_FORMATS = ['json', 'github', 'junit', 'sarif'] as const;
export type FailureFormat = (typeof FAILURE_FORMATS)[number];

/**
 * Whether the failure also goes to standard error as text: JUnit and SARIF are written to a file for the
 * CI system to read, so the job's log would otherwise not say what went wrong. A JSON document and
 * GitHub's annotations are the whole report.
 */
export const alsoAsText = (format: FailureFormat): boolean => format === 'junit' || format === 'sarif';

export interface Failure {
  /** The command, e.g. `validate`. */
  command: string;
  message: string;
  location?: ErrorLocation;
  /** The problem's name, when it has one (`binary-file`): in JSON. */
  code?: string;
}

export function renderFailure(format: FailureFormat, failure: Failure): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify({ ok: false, error: { kind: 'usage', ...(failure.code ? { code: failure.code } : {}), message: failure.message, ...failure.location } }, null, 2)}\n`;
    case 'github':
      return `${githubFailure(failure)}\n`;
    case 'junit':
      return junitFailure(failure);
    case 'sarif':
      return sarifLog({
        results: [],
        describe: () => '',
        notifications: [{ level: 'error', message: failure.message, location: sarifLocation(failure) }],
        executionSuccessful: false,
      });
  }
}

function githubFailure({ command, message, location }: Failure): string {
  const properties = [
    ...(location ? [`file=${escapeProperty(location.file)}`] : []),
    ...(location?.line === undefined ? [] : [`line=${location.line}`]),
    ...(location?.column === undefined ? [] : [`col=${location.column}`]),
    `title=${escapeProperty(`cfrules ${command}`)}`,
  ];
  return `::error ${properties.join(',')}::${escapeData(message)}`;
}

/** One test suite with one test case in error: JUnit's way of saying that the tests could not run. */
function junitFailure({ command, message, location }: Failure): string {
  const name = location?.file ?? `cfrules ${command}`;
  const where = location
    ? ` file="${xml(location.file)}"${location.line ? ` line="${location.line}"` : ''}`
    : '';
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="cfrules ${command}" tests="1" failures="0" errors="1" skipped="0">`,
    `  <testsuite name="${xml(name)}" tests="1" failures="0" errors="1" skipped="0">`,
    `    <testcase name="${xml(name)}" classname="cfrules ${command}"${where}>`,
    `      <error type="usage" message="${xml(message)}">${xml(message)}</error>`,
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** Where a failure is, for SARIF: its line only, as the column counts UTF-8 bytes and the text is not at hand. */
function sarifLocation({ location }: Failure) {
  if (!location) return undefined;
  return { file: location.file, ...(location.line ? { region: { startLine: location.line } } : {}) };
}
