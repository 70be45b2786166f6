import type { FinalAction } from '../../engine/outcome.js';

/**
 * A test file as users write it (docs/cli.md, `cfrules test`): a zone and cases, each a request and what
 * should happen to it. Rules are named by `id` or `ref`.
 */

export const FINAL_ACTIONS: readonly FinalAction[] = [
  'block',
  'challenge',
  'js_challenge',
  'managed_challenge',
  'allow',
  'none',
];

export interface Expectation {
  /** The final action, or `none` (required in cfrules test files; go-ftw files do not name one). */
  action?: FinalAction;
  /** Whether the request is blocked (any terminating action but allow): go-ftw's `status: 403` or `200`. */
  blocked?: boolean;
  /** The rule that decided it. */
  by?: string;
  /** Rules that must have matched (any order). */
  fired?: string[];
  /** Rules that must not have matched. */
  not_fired?: string[];
}

export interface TestCase {
  name: string;
  /** Where the case starts in its file, for reports. */
  line: number;
  /** The request's JSON and where it was read from (the test file itself, or a request file). */
  request: unknown;
  requestFile: string;
  /** The pointer of the request in `requestFile` ('' for a file of its own). */
  requestPointer: string;
  expect: Expectation;
  /** The line of each expectation key, to point at the one that failed. */
  expectLine: number;
  /** Why the case cannot be run (go-ftw cases that expect what a simulation cannot tell). */
  skipped?: string;
  /**
   * A request the sample-request format cannot hold skips the case instead of being a mistake in the test
   * file (go-ftw sends malformed requests on purpose).
   */
  lenientRequest?: boolean;
}

export interface TestFile {
  path: string;
  zone: { json: unknown; file: string; pointer: string; lineOf: (pointer: string) => number };
  cases: TestCase[];
}

/** A mistake in a test file, or in a zone or request it names: exit status 2. */
export interface InputProblem {
  file: string;
  line: number;
  /** The case it belongs to, when it does. */
  case?: string;
  /** Where in `file`, as a JSON pointer. */
  pointer: string;
  message: string;
}

export const formatInputProblem = (problem: InputProblem): string =>
  `${problem.file}:${problem.line}: ${problem.case === undefined ? '' : `case ${JSON.stringify(problem.case)}: `}${problem.pointer || '(document)'}: ${problem.message}`;
