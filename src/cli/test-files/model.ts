import type { FinalAction } from '../../engine/outcome.js';
import type { FilePosition } from '../structured-file.js';

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
  'redirect',
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
  /** Where a redirect sends the client (the URL), and with which status when given. */
  redirect?: { url: string; status?: number };
  /**
   * The URL as the phases leave it: a full URL, or a path (with its query) starting with `/`, compared
   * with the path and query alone.
   */
  url?: string;
  /** Request headers as the phases leave them, by name (any case): the value, or null for none. */
  headers?: Record<string, string | null>;
  /** Settings in effect, by product (config, origin, cache, compression, log): each key given must have that value. */
  settings?: Partial<Record<SettingsGroup, Record<string, unknown>>>;
  /** The response as the response phases leave it (the request gives one): status, headers by name. */
  response?: { status?: number; headers?: Record<string, string | null> };
}

export const SETTINGS_GROUPS = ['config', 'origin', 'cache', 'compression', 'log'] as const;
export type SettingsGroup = (typeof SETTINGS_GROUPS)[number];

export interface TestCase {
  name: string;
  /** Where the case starts in its file, for reports. */
  line: number;
  /** Where the case is in its file, as a JSON pointer (`/tests/2`). */
  pointer: string;
  /** The request's JSON and where it was read from (the test file itself, or a request file). */
  request: unknown;
  requestFile: string;
  /** The pointer of the request in `requestFile` ('' for a file of its own). */
  requestPointer: string;
  /** Where a pointer into `requestFile` leads, to report a problem of the request at its key. */
  requestPositionOf: (pointer: string) => FilePosition;
  expect: Expectation;
  /** Why the case cannot be run (go-ftw cases that expect what a simulation cannot tell). */
  skipped?: string;
  /**
   * A request the sample-request format cannot hold skips the case instead of being a mistake in the test
   * file (go-ftw sends malformed requests on purpose).
   */
  lenientRequest?: boolean;
}

/** A zone a test file runs against: its JSON, the file and pointer it was read from, to report problems. */
export interface TestZone {
  json: unknown;
  file: string;
  pointer: string;
  positionOf: (pointer: string) => FilePosition;
}

export interface TestFile {
  path: string;
  /** Absent when the file names no usable zone (a problem already reported). */
  zone?: TestZone;
  cases: TestCase[];
  /** Where a pointer into the test file leads (see StructuredFile.positionOf). */
  positionOf: (pointer: string) => FilePosition;
}

/** A mistake in a test file, or in a zone or request it names: exit status 2. */
export interface InputProblem {
  file: string;
  line: number;
  /** The column (1-based, in UTF-8 bytes), when the problem has a place in the file. */
  column?: number;
  /** The case it belongs to, when it does. */
  case?: string;
  /** Where in `file`, as a JSON pointer. */
  pointer: string;
  message: string;
}

export const formatInputProblem = (problem: InputProblem): string =>
  `${problem.file}:${problem.line}:${problem.column === undefined ? '' : `${problem.column}:`} ${problem.case === undefined ? '' : `case ${JSON.stringify(problem.case)}: `}${problem.pointer || '(document)'}: ${problem.message}`;
