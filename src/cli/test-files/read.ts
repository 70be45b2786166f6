import { dirname, isAbsolute, join } from 'node:path';
import type { FinalAction } from '../../engine/outcome.js';
import { segment } from '../../engine/zone/shape.js';
import { closestName } from '../../lang/closest-name.js';
import { describe } from '../../request/json.js';
import type { CliIo } from '../command.js';
import { UsageError } from '../command.js';
import { readInputFile } from '../files.js';
import { parseStructured, type StructuredFile } from '../structured-file.js';
import { goFtwCases, isGoFtwDocument } from './go-ftw.js';
import {
  type Expectation,
  FINAL_ACTIONS,
  type InputProblem,
  SETTINGS_GROUPS,
  type TestCase,
  type TestFile,
  type TestZone,
} from './model.js';

/**
 * Reads a test file: checks its shape key by key (an unknown key is a mistake, not something to ignore:
 * `not_fire` must not make a test pass), and loads the zone and request files it names, relative to it.
 */

const FILE_KEYS = ['zone', 'tests'];
const CASE_KEYS = ['name', 'request', 'expect'];
const EXPECT_KEYS = [
  'action',
  'by',
  'fired',
  'not_fired',
  'redirect',
  'url',
  'headers',
  'settings',
  'response',
];

/**
 * What was read of a test file: the file, as far as it could be read (cases with a mistake are kept, so that
 * their requests and rule names are checked too), and every mistake found, so that one run reports them all.
 * `file` is absent when nothing could be read (not an object, no go-ftw case).
 */
export interface ReadTestFile {
  file?: TestFile;
  problems: InputProblem[];
}

/**
 * A zone for test files that do not name one (go-ftw's): the file and pointer it was read from, or an
 * inline default.
 */
export type DefaultZone = TestZone;

export function readTestFile(
  io: CliIo,
  path: string,
  readStdin: () => string,
  defaultZone?: () => DefaultZone,
): ReadTestFile {
  const document = parseStructured(path, readInputFile(io, path, readStdin));
  const problems: InputProblem[] = [];
  const fail: Fail = (pointer, message, caseName) => {
    const { line, column } = document.positionOf(pointer);
    problems.push({ file: path, line, column, pointer, message, case: caseName });
  };
  const { positionOf } = document;

  const root = document.value;
  if (isGoFtwDocument(root) && defaultZone) {
    const cases = goFtwCases(path, document);
    if (cases.length === 0) {
      fail('/tests', 'a go-ftw test file has tests with stages');
      return { problems };
    }
    return { file: { path, zone: defaultZone(), cases, positionOf }, problems };
  }
  if (!isObject(root)) {
    fail('', `a test file is an object: {"zone": …, "tests": [...]}, not ${describe(root)}`);
    return { problems };
  }
  unknownKeys(root, '', FILE_KEYS, fail);
  const zone = readZoneReference(io, path, document, root.zone, fail, readStdin);
  const cases: TestCase[] = [];
  const tests = root.tests;
  if (!Array.isArray(tests) || tests.length === 0) {
    fail(
      '/tests',
      Array.isArray(tests)
        ? 'tests must list at least one test'
        : memberProblem('tests', 'a list of cases, each {name, request, expect}', tests),
    );
  } else {
    const names = new Set<string>();
    tests.forEach((item: unknown, index: number) => {
      const read = readCase(io, path, document, item, `/tests/${index}`, fail, readStdin);
      if (read === undefined) return;
      if (read.named) {
        if (names.has(read.case.name))
          fail(`/tests/${index}/name`, 'two cases have this name', read.case.name);
        names.add(read.case.name);
      }
      cases.push(read.case);
    });
  }
  return { file: { path, ...(zone === undefined ? {} : { zone }), cases, positionOf }, problems };
}

type Fail = (pointer: string, message: string, caseName?: string) => void;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What is wrong with member `key` whose value is not `expected` (a noun phrase: "a non-empty string"):
 * missing, empty, or something else, which the message shows.
 */
function memberProblem(key: string, expected: string, value: unknown): string {
  if (value === undefined) return `${key} is required: ${expected}`;
  if (value === '') return `${key} is empty; it must be ${expected}`;
  return `${key} must be ${expected}, not ${describe(value)}`;
}

/** `action` among `allowed`: missing, not a string, or a value it does not know (with the closest one). */
function choiceProblem(key: string, allowed: readonly string[], value: unknown): string {
  const choices = `one of ${allowed.join(', ')}`;
  if (typeof value !== 'string' || value === '') return memberProblem(key, choices, value);
  const suggestion = closestName(value, allowed);
  return suggestion === undefined
    ? `unknown ${key} ${describe(value)}: ${choices}`
    : `unknown ${key} ${describe(value)}; did you mean ${suggestion}? (${choices})`;
}

function unknownKeys(
  object: Record<string, unknown>,
  pointer: string,
  known: string[],
  fail: Fail,
  name?: string,
) {
  for (const key of Object.keys(object)) {
    if (known.includes(key)) continue;
    const suggestion = closestName(key, known);
    const guess = suggestion === undefined ? '' : `; did you mean ${suggestion}?`;
    fail(`${pointer}/${key}`, `unknown key '${key}'${guess} (known: ${known.join(', ')})`, name);
  }
}

/** A path relative to the test file, as users expect of files that sit side by side. */
const beside = (testFile: string, path: string): string =>
  isAbsolute(path) || testFile === '-' ? path : join(dirname(testFile), path);

/** Reads the file `path` names, reporting a file that cannot be read or parsed where it is named. */
function readNamedFile(
  io: CliIo,
  path: string,
  readStdin: () => string,
  fail: () => (message: string) => void,
): StructuredFile | undefined {
  try {
    return parseStructured(path, readInputFile(io, path, readStdin));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    fail()(error.message);
    return undefined;
  }
}

const ZONE_REFERENCE = 'the path of a zone file (relative to this file) or an inline zone';

function readZoneReference(
  io: CliIo,
  path: string,
  document: StructuredFile,
  value: unknown,
  fail: Fail,
  readStdin: () => string,
): TestZone | undefined {
  if (isObject(value)) return { json: value, file: path, pointer: '/zone', positionOf: document.positionOf };
  if (typeof value !== 'string' || value === '') {
    fail('/zone', memberProblem('zone', ZONE_REFERENCE, value));
    return undefined;
  }
  const zonePath = beside(path, value);
  const zone = readNamedFile(io, zonePath, readStdin, () => (message) => fail('/zone', message));
  return zone && { json: zone.value, file: zonePath, pointer: '', positionOf: zone.positionOf };
}

/**
 * A case, even with mistakes in its name or expectation (reported through `fail`), so that its request is
 * checked too; undefined when it has no usable request. `named`: whether its name is its own.
 */
function readCase(
  io: CliIo,
  path: string,
  document: StructuredFile,
  item: unknown,
  pointer: string,
  fail: Fail,
  readStdin: () => string,
): { case: TestCase; named: boolean } | undefined {
  if (!isObject(item)) {
    fail(pointer, `a case is an object: {name, request, expect}, not ${describe(item)}`);
    return undefined;
  }
  const name = typeof item.name === 'string' && item.name !== '' ? item.name : undefined;
  const label = name ?? `#${pointer.split('/').pop()}`;
  if (name === undefined)
    fail(`${pointer}/name`, memberProblem('name', 'a non-empty string', item.name), label);
  unknownKeys(item, pointer, CASE_KEYS, fail, label);

  let request: Pick<TestCase, 'request' | 'requestFile' | 'requestPointer' | 'requestPositionOf'> | undefined;
  if (isObject(item.request)) {
    request = {
      request: item.request,
      requestFile: path,
      requestPointer: `${pointer}/request`,
      requestPositionOf: document.positionOf,
    };
  } else if (typeof item.request === 'string' && item.request !== '') {
    const requestPath = beside(path, item.request);
    const file = readNamedFile(
      io,
      requestPath,
      readStdin,
      () => (message) => fail(`${pointer}/request`, message, label),
    );
    if (file)
      request = {
        request: file.value,
        requestFile: requestPath,
        requestPointer: '',
        requestPositionOf: file.positionOf,
      };
  } else {
    const expected = 'a request object or the path of a request file';
    fail(`${pointer}/request`, memberProblem('request', expected, item.request), label);
  }
  const expect = readExpectation(item.expect, `${pointer}/expect`, fail, label);
  if (request === undefined) return undefined;
  const testCase: TestCase = { name: label, line: document.lineOf(pointer), pointer, ...request, expect };
  return { case: testCase, named: name !== undefined };
}

/** The expectation, as far as it is right: what is wrong is reported through `fail`. */
function readExpectation(value: unknown, pointer: string, fail: Fail, name: string): Expectation {
  if (!isObject(value)) {
    fail(
      pointer,
      memberProblem(
        'expect',
        `an object: {${EXPECT_KEYS.map((key, i) => (i === 0 ? key : `${key}?`)).join(', ')}}`,
        value,
      ),
      name,
    );
    return {};
  }
  unknownKeys(value, pointer, EXPECT_KEYS, fail, name);
  const expectation: Expectation = {};
  const action = value.action;
  if (typeof action === 'string' && (FINAL_ACTIONS as readonly string[]).includes(action))
    expectation.action = action as FinalAction;
  else fail(`${pointer}/action`, choiceProblem('action', FINAL_ACTIONS, action), name);
  if (typeof value.by === 'string' && value.by !== '') expectation.by = value.by;
  else if (value.by !== undefined)
    fail(`${pointer}/by`, memberProblem('by', 'the id or ref of a rule', value.by), name);
  for (const key of ['fired', 'not_fired'] as const) {
    const list = value[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      fail(`${pointer}/${key}`, memberProblem(key, 'a list of rule ids or refs', list), name);
      continue;
    }
    list.forEach((entry: unknown, index) => {
      if (typeof entry !== 'string' || entry === '') {
        const message = `${key} lists ${describe(entry)}; each entry must be the id or ref of a rule`;
        fail(`${pointer}/${key}/${index}`, message, name);
      }
    });
    expectation[key] = list.filter((entry): entry is string => typeof entry === 'string' && entry !== '');
  }
  readPipelineExpectations(value, expectation, pointer, fail, name);
  return expectation;
}

/** What a case expects of the Rules products' phases: redirect, final URL and headers, settings, response. */
function readPipelineExpectations(
  value: Record<string, unknown>,
  expectation: Expectation,
  pointer: string,
  failIn: Fail,
  name: string,
): void {
  const fail = (at: string, message: string) => failIn(at, message, name);
  const { redirect, url, headers, settings, response } = value;
  if (typeof redirect === 'string') expectation.redirect = { url: redirect };
  else if (isObject(redirect) && typeof redirect.url === 'string') {
    const status = redirect.status;
    if (status !== undefined && typeof status !== 'number')
      fail(`${pointer}/redirect/status`, memberProblem('status', 'a status code such as 301', status));
    expectation.redirect = { url: redirect.url, ...(typeof status === 'number' ? { status } : {}) };
  } else if (redirect !== undefined)
    fail(`${pointer}/redirect`, memberProblem('redirect', 'a URL, or {url, status?}', redirect));
  if (typeof url === 'string') expectation.url = url;
  else if (url !== undefined) fail(`${pointer}/url`, memberProblem('url', 'a URL or a path', url));
  const readHeaders = (json: unknown, at: string) => {
    if (!isObject(json)) {
      fail(at, memberProblem('headers', 'an object: {"<name>": "<value>" | null}', json));
      return undefined;
    }
    const read: Record<string, string | null> = {};
    for (const [header, expected] of Object.entries(json)) {
      if (typeof expected === 'string' || expected === null) read[header] = expected;
      else
        fail(
          `${at}${segment(header)}`,
          memberProblem(header, 'a header value, or null for no such header', expected),
        );
    }
    return read;
  };
  if (headers !== undefined) expectation.headers = readHeaders(headers, `${pointer}/headers`);
  if (isObject(response)) {
    expectation.response = {};
    unknownKeys(response, `${pointer}/response`, ['status', 'headers'], failIn, name);
    if (typeof response.status === 'number') expectation.response.status = response.status;
    else if (response.status !== undefined)
      fail(
        `${pointer}/response/status`,
        memberProblem('status', 'a status code such as 404', response.status),
      );
    if (response.headers !== undefined)
      expectation.response.headers = readHeaders(response.headers, `${pointer}/response/headers`);
  } else if (response !== undefined)
    fail(`${pointer}/response`, memberProblem('response', 'an object: {status?, headers?}', response));
  if (isObject(settings)) {
    expectation.settings = {};
    for (const [group, values] of Object.entries(settings)) {
      if (!(SETTINGS_GROUPS as readonly string[]).includes(group))
        fail(`${pointer}/settings${segment(group)}`, choiceProblem('settings', SETTINGS_GROUPS, group));
      else if (!isObject(values))
        fail(`${pointer}/settings/${group}`, memberProblem(group, 'an object of settings', values));
      else expectation.settings[group as (typeof SETTINGS_GROUPS)[number]] = values;
    }
  } else if (settings !== undefined)
    fail(
      `${pointer}/settings`,
      memberProblem('settings', `an object: {${SETTINGS_GROUPS.join('?, ')}?}`, settings),
    );
}
