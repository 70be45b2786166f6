import { dirname, isAbsolute, join } from 'node:path';
import type { CliIo } from '../command.js';
import { UsageError } from '../command.js';
import { readInputFile } from '../files.js';
import { parseStructured, type StructuredFile } from '../structured-file.js';
import { goFtwCases, isGoFtwDocument } from './go-ftw.js';
import { type Expectation, FINAL_ACTIONS, type InputProblem, type TestCase, type TestFile } from './model.js';

/**
 * Reads a test file: checks its shape key by key (an unknown key is a mistake, not something to ignore:
 * `not_fire` must not make a test pass), and loads the zone and request files it names, relative to it.
 */

const FILE_KEYS = ['zone', 'tests'];
const CASE_KEYS = ['name', 'request', 'expect'];
const EXPECT_KEYS = ['action', 'by', 'fired', 'not_fired'];

export type ReadTestFile = { ok: true; file: TestFile } | { ok: false; problems: InputProblem[] };

/**
 * A zone for test files that do not name one (go-ftw's): the file and pointer it was read from, or an
 * inline default.
 */
export type DefaultZone = TestFile['zone'];

export function readTestFile(
  io: CliIo,
  path: string,
  readStdin: () => string,
  defaultZone?: () => DefaultZone,
): ReadTestFile {
  const document = parseStructured(path, readInputFile(io, path, readStdin));
  const problems: InputProblem[] = [];
  const fail = (pointer: string, message: string, caseName?: string) =>
    problems.push({ file: path, line: document.lineOf(pointer), pointer, message, case: caseName });

  const root = document.value;
  if (isGoFtwDocument(root) && defaultZone) {
    const cases = goFtwCases(path, document);
    if (cases.length === 0) {
      fail('/tests', 'a go-ftw test file has tests with stages');
      return { ok: false, problems };
    }
    return { ok: true, file: { path, zone: defaultZone(), cases } };
  }
  if (!isObject(root)) {
    fail('', 'a test file is an object: {"zone": …, "tests": [...]}');
    return { ok: false, problems };
  }
  unknownKeys(root, '', FILE_KEYS, fail);
  const zone = readZoneReference(io, path, document, root.zone, fail, readStdin);
  const cases: TestCase[] = [];
  if (!Array.isArray(root.tests) || root.tests.length === 0) {
    fail('/tests', 'tests is required: a list of cases, each {name, request, expect}');
  } else {
    const names = new Set<string>();
    root.tests.forEach((item: unknown, index: number) => {
      const read = readCase(io, path, document, item, `/tests/${index}`, fail, readStdin);
      if (read === undefined) return;
      if (names.has(read.name)) fail(`/tests/${index}/name`, 'two cases have this name', read.name);
      names.add(read.name);
      cases.push(read);
    });
  }
  if (problems.length > 0 || zone === undefined) return { ok: false, problems };
  return { ok: true, file: { path, zone, cases } };
}

type Fail = (pointer: string, message: string, caseName?: string) => void;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function unknownKeys(
  object: Record<string, unknown>,
  pointer: string,
  known: string[],
  fail: Fail,
  name?: string,
) {
  for (const key of Object.keys(object)) {
    if (!known.includes(key))
      fail(`${pointer}/${key}`, `unknown key '${key}' (known: ${known.join(', ')})`, name);
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

function readZoneReference(
  io: CliIo,
  path: string,
  document: StructuredFile,
  value: unknown,
  fail: Fail,
  readStdin: () => string,
): TestFile['zone'] | undefined {
  if (isObject(value)) return { json: value, file: path, pointer: '/zone', lineOf: document.lineOf };
  if (typeof value !== 'string' || value === '') {
    fail('/zone', 'zone is required: the path of a zone file (relative to this file) or an inline zone');
    return undefined;
  }
  const zonePath = beside(path, value);
  const zone = readNamedFile(io, zonePath, readStdin, () => (message) => fail('/zone', message));
  return zone && { json: zone.value, file: zonePath, pointer: '', lineOf: zone.lineOf };
}

function readCase(
  io: CliIo,
  path: string,
  document: StructuredFile,
  item: unknown,
  pointer: string,
  fail: Fail,
  readStdin: () => string,
): TestCase | undefined {
  if (!isObject(item)) {
    fail(pointer, 'a case is an object: {name, request, expect}');
    return undefined;
  }
  const name = typeof item.name === 'string' && item.name !== '' ? item.name : undefined;
  if (name === undefined) fail(`${pointer}/name`, 'name is required: a non-empty string');
  const label = name ?? `#${pointer.split('/').pop()}`;
  unknownKeys(item, pointer, CASE_KEYS, fail, label);

  let request: Pick<TestCase, 'request' | 'requestFile' | 'requestPointer'> | undefined;
  if (isObject(item.request)) {
    request = { request: item.request, requestFile: path, requestPointer: `${pointer}/request` };
  } else if (typeof item.request === 'string' && item.request !== '') {
    const requestPath = beside(path, item.request);
    const file = readNamedFile(
      io,
      requestPath,
      readStdin,
      () => (message) => fail(`${pointer}/request`, message, label),
    );
    if (file) request = { request: file.value, requestFile: requestPath, requestPointer: '' };
  } else {
    fail(`${pointer}/request`, 'request is required: a request object or the path of a request file', label);
  }
  const expect = readExpectation(item.expect, `${pointer}/expect`, fail, label);
  if (name === undefined || request === undefined || expect === undefined) return undefined;
  return {
    name,
    line: document.lineOf(pointer),
    ...request,
    expect,
    expectLine: document.lineOf(`${pointer}/expect`),
  };
}

function readExpectation(value: unknown, pointer: string, fail: Fail, name: string): Expectation | undefined {
  if (!isObject(value)) {
    fail(pointer, 'expect is required: {action, by?, fired?, not_fired?}', name);
    return undefined;
  }
  unknownKeys(value, pointer, EXPECT_KEYS, fail, name);
  const action = value.action;
  let ok = true;
  if (typeof action !== 'string' || !(FINAL_ACTIONS as readonly string[]).includes(action)) {
    fail(`${pointer}/action`, `action is required: one of ${FINAL_ACTIONS.join(', ')}`, name);
    ok = false;
  }
  if (value.by !== undefined && (typeof value.by !== 'string' || value.by === '')) {
    fail(`${pointer}/by`, 'by is the id or ref of a rule', name);
    ok = false;
  }
  const names = (key: 'fired' | 'not_fired'): string[] | undefined => {
    const list = value[key];
    if (list === undefined) return undefined;
    if (!Array.isArray(list) || list.some((entry) => typeof entry !== 'string' || entry === '')) {
      fail(`${pointer}/${key}`, `${key} is a list of rule ids or refs`, name);
      ok = false;
      return undefined;
    }
    return list as string[];
  };
  const fired = names('fired');
  const notFired = names('not_fired');
  if (!ok) return undefined;
  return {
    action: action as Expectation['action'],
    ...(value.by === undefined ? {} : { by: value.by as string }),
    ...(fired === undefined ? {} : { fired }),
    ...(notFired === undefined ? {} : { not_fired: notFired }),
  };
}
