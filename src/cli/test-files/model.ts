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
  /** The final action, or `none`. */
  action: FinalAction;
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
