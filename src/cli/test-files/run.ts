import { compileZone } from '../../engine/index.js';
import type { RuleName, SimulationResult } from '../../engine/outcome.js';
import type { CompiledZone, ZoneProblem } from '../../engine/zone/types.js';
import { RequestContext } from '../../eval/context.js';
import { fieldValue, readSampleRequest } from '../../request/index.js';
import { zoneProblemMessage } from '../zone-problems.js';
import type { Expectation, InputProblem, TestCase, TestFile, TestZone } from './model.js';

/** What happened to one case: its expectation, what the zone did, and every difference between them. */
export interface CaseResult {
  file: string;
  name: string;
  line: number;
  passed: boolean;
  /** Why the case was not run; a skipped case is neither passed nor failed. */
  skipped?: string;
  expected: Expectation;
  got: { action: SimulationResult['action']; by?: string; fired: string[] };
  /** One sentence per unmet expectation: `action: expected allow, got block (by admin-block)`. */
  differences: string[];
}

export type RunTestFile =
  /** `warnings`: what the zone holds and the cases do not run (phases not simulated), at its key. */
  { ok: true; results: CaseResult[]; warnings: InputProblem[] } | { ok: false; problems: InputProblem[] };

/** How results name a rule: its ref when it has one (what users write), else its id. */
export const ruleLabel = (rule: RuleName): string => rule.ref ?? rule.id;

/**
 * The names a case may use for a rule: its id, its ref, and the number its description starts with
 * (`942100: SQL Injection…`), which is how the OWASP Core Rule Set and go-ftw name rules.
 */
const names = (rule: RuleName): string[] => {
  const found = [rule.id];
  if (rule.ref !== undefined) found.push(rule.ref);
  const number = /^(\d+):/.exec(rule.description ?? '')?.[1];
  if (number !== undefined) found.push(number);
  return found;
};

/**
 * Compiles the file's zone and runs its cases. A zone or request that cannot be used, or a rule name that
 * names no rule of the zone (a typo would otherwise pass `not_fired` silently), is an input problem; all of
 * them are reported together, after the `earlier` ones (the test file's own mistakes), and then no case runs.
 */
export function runTestFile(file: TestFile, earlier: readonly InputProblem[] = []): RunTestFile {
  const problems: InputProblem[] = [...earlier];
  const warnings: InputProblem[] = [];
  const zone = file.zone && compiledZone(file.zone, problems, warnings);
  const known = zone && new Set(zone.rules.flatMap(names));
  // In the order of the file: a skipped case's result, or a case to run once nothing is wrong.
  const planned: (CaseResult | Runnable)[] = [];
  for (const testCase of file.cases) {
    if (testCase.skipped !== undefined) {
      planned.push(skippedCase(file.path, testCase, testCase.skipped));
      continue;
    }
    // In a go-ftw file a rule the zone lacks is a failing expectation, not a mistake in the file.
    if (known && !testCase.lenientRequest) problems.push(...unknownNames(file, testCase, known));
    const request = readSampleRequest(testCase.request);
    if (request.ok) {
      planned.push({ testCase, request: request.request });
    } else if (testCase.lenientRequest) {
      const first = request.problems[0];
      const where = first?.path ? `${first.path}: ` : '';
      planned.push(
        skippedCase(file.path, testCase, `the request cannot be simulated: ${where}${first?.message}`),
      );
    } else {
      for (const problem of request.problems) {
        const pointer = `${testCase.requestPointer}${pointerOf(problem.path)}`;
        const { line, column } = testCase.requestPositionOf(pointer);
        problems.push({
          file: testCase.requestFile,
          line,
          column,
          case: testCase.name,
          pointer,
          message: problem.message,
        });
      }
    }
  }
  if (problems.length > 0 || zone === undefined) return { ok: false, problems: inReadingOrder(problems) };
  const results = planned.map((item) =>
    'testCase' in item ? runCase(file.path, item.testCase, zone, item.request) : item,
  );
  return { ok: true, results, warnings };
}

/** Problems file by file (in the order first named), each file's from top to bottom. */
function inReadingOrder(problems: InputProblem[]): InputProblem[] {
  const files = [...new Set(problems.map((problem) => problem.file))];
  return problems.sort(
    (a, b) =>
      files.indexOf(a.file) - files.indexOf(b.file) || a.line - b.line || (a.column ?? 0) - (b.column ?? 0),
  );
}

interface Runnable {
  testCase: TestCase;
  request: Parameters<CompiledZone['simulate']>[0];
}

/**
 * The zone compiled (its warnings added to `warnings`), or undefined after its problems are added to
 * `problems`; each at its key.
 */
function compiledZone(
  zone: TestZone,
  problems: InputProblem[],
  warnings: InputProblem[],
): CompiledZone | undefined {
  const compiled = compileZone(zone.json);
  const at = (problem: ZoneProblem): InputProblem => {
    const pointer = `${zone.pointer}${problem.path}`;
    const { line, column } = zone.positionOf(pointer);
    return { file: zone.file, line, column, pointer, message: zoneProblemMessage(problem) };
  };
  if (!compiled.ok) {
    problems.push(...compiled.problems.map(at));
    return undefined;
  }
  warnings.push(...compiled.warnings.map(at));
  return compiled.zone;
}

function skippedCase(path: string, testCase: TestCase, reason: string): CaseResult {
  return {
    file: path,
    name: testCase.name,
    line: testCase.line,
    passed: true,
    skipped: reason,
    expected: testCase.expect,
    got: { action: 'none', fired: [] },
    differences: [],
  };
}

function unknownNames(file: TestFile, testCase: TestCase, known: Set<string>): InputProblem[] {
  const { by, fired = [], not_fired: notFired = [] } = testCase.expect;
  const named: [string, string][] = [
    ...(by === undefined ? [] : [['by', by] as [string, string]]),
    ...fired.map((name, i): [string, string] => [`fired/${i}`, name]),
    ...notFired.map((name, i): [string, string] => [`not_fired/${i}`, name]),
  ];
  return named
    .filter(([, name]) => !known.has(name))
    .map(([key, name]) => {
      const pointer = `${testCase.pointer}/expect/${key}`;
      const { line, column } = file.positionOf(pointer);
      return {
        file: file.path,
        line,
        column,
        case: testCase.name,
        pointer,
        message: `no rule of the zone has the id or ref '${name}'`,
      };
    });
}

function runCase(
  path: string,
  testCase: TestCase,
  zone: CompiledZone,
  request: Parameters<CompiledZone['simulate']>[0],
): CaseResult {
  const result = zone.simulate(request, { trace: false });
  const { expect } = testCase;
  const matched = new Set(result.matched.flatMap(names));
  const decider = result.decidedBy;
  const differences: string[] = [];
  const decidedText = decider ? ` (by ${ruleLabel(decider)})` : '';
  if (expect.action !== undefined && result.action !== expect.action) {
    differences.push(`action: expected ${expect.action}, got ${result.action}${decidedText}`);
  }
  // A redirect answers 3xx, not the 403 go-ftw looks for.
  const blocked = result.action !== 'none' && result.action !== 'allow' && result.action !== 'redirect';
  if (expect.blocked !== undefined && blocked !== expect.blocked) {
    differences.push(
      expect.blocked
        ? `blocked: expected the request to be blocked, got ${result.action}`
        : `blocked: expected the request to pass, got ${result.action}${decidedText}`,
    );
  }
  if (expect.by !== undefined && !(decider && names(decider).includes(expect.by))) {
    differences.push(`by: expected ${expect.by}, got ${decider ? ruleLabel(decider) : 'no rule'}`);
  }
  const missing = (expect.fired ?? []).filter((name) => !matched.has(name));
  if (missing.length > 0)
    differences.push(
      `fired: expected ${missing.join(', ')} to match; ${missing.length === 1 ? 'it' : 'they'} did not`,
    );
  const unwanted = (expect.not_fired ?? []).filter((name) => matched.has(name));
  if (unwanted.length > 0) differences.push(`not_fired: ${unwanted.join(', ')} matched`);
  differences.push(...pipelineDifferences(expect, result, request));
  return {
    file: path,
    name: testCase.name,
    line: testCase.line,
    passed: differences.length === 0,
    expected: expect,
    got: {
      action: result.action,
      ...(decider ? { by: ruleLabel(decider) } : {}),
      fired: result.matched.map(ruleLabel),
    },
    differences,
  };
}

/** What differs from the case's expectations of the Rules products' phases (redirect, URL, headers, settings). */
function pipelineDifferences(
  expect: Expectation,
  result: SimulationResult,
  request: Parameters<CompiledZone['simulate']>[0],
): string[] {
  const differences: string[] = [];
  const shown = (value: unknown) => (value === undefined ? 'none' : JSON.stringify(value));
  if (expect.redirect) {
    const got = result.redirect;
    if (got?.url !== expect.redirect.url)
      differences.push(`redirect: expected ${shown(expect.redirect.url)}, got ${shown(got?.url)}`);
    else if (expect.redirect.status !== undefined && got.status !== expect.redirect.status)
      differences.push(`redirect: expected status ${expect.redirect.status}, got ${got.status}`);
  }
  const final = finalRequest(result, request);
  if (expect.url !== undefined) {
    const got = expect.url.startsWith('/') ? final.target : final.url;
    if (got !== expect.url) differences.push(`url: expected ${shown(expect.url)}, got ${shown(got)}`);
  }
  differences.push(...headerDifferences('headers', expect.headers, final.headers));
  if (expect.response) {
    const response = result.response ?? sampleResponse(request);
    if (expect.response.status !== undefined && response?.status !== expect.response.status)
      differences.push(
        `response: expected status ${expect.response.status}, got ${response ? response.status : 'no response'}`,
      );
    differences.push(
      ...headerDifferences('response headers', expect.response.headers, response?.headers ?? []),
    );
  }
  for (const [group, settings] of Object.entries(expect.settings ?? {})) {
    const inEffect = result.settings?.[group as keyof NonNullable<SimulationResult['settings']>] ?? {};
    for (const [key, expected] of Object.entries(settings)) {
      if (JSON.stringify(inEffect[key]) !== JSON.stringify(expected))
        differences.push(
          `settings: expected ${group}.${key} ${shown(expected)}, got ${shown(inEffect[key])}`,
        );
    }
  }
  return differences;
}

/** How expected header values differ from the lines there are (names in any case; several values joined). */
function headerDifferences(
  what: string,
  expected: Record<string, string | null> | undefined,
  lines: readonly (readonly [string, string])[],
): string[] {
  const differences: string[] = [];
  const shown = (value: string | null, none: string) => (value === null ? none : JSON.stringify(value));
  for (const [name, value] of Object.entries(expected ?? {})) {
    const found = lines.filter(([header]) => header.toLowerCase() === name.toLowerCase());
    const got = found.length === 0 ? null : found.map(([, v]) => v).join(', ');
    if (got !== value)
      differences.push(`${what}: expected ${name} ${shown(value, 'absent')}, got ${shown(got, 'none')}`);
  }
  return differences;
}

/** The response the request gave, when no rule changed it. */
function sampleResponse(request: Parameters<CompiledZone['simulate']>[0]) {
  return request instanceof RequestContext ? undefined : request.response;
}

/** The URL (full, and path with query) and the headers as the phases left them, or as sent. */
function finalRequest(
  result: SimulationResult,
  request: Parameters<CompiledZone['simulate']>[0],
): { url?: string; target?: string; headers: readonly (readonly [string, string])[] } {
  const { rewritten } = result;
  if (rewritten) {
    const target = `${rewritten.path ?? ''}${rewritten.query !== undefined ? `?${rewritten.query}` : ''}`;
    return { url: rewritten.url, target, headers: rewritten.headers };
  }
  const sample = request instanceof RequestContext ? undefined : request;
  const url = sample && fieldValue(sample, 'http.request.full_uri');
  const target = sample && fieldValue(sample, 'http.request.uri');
  return {
    ...(typeof url === 'string' ? { url } : {}),
    ...(typeof target === 'string' ? { target } : {}),
    headers: sample?.http?.headers ?? [],
  };
}

/** `headers[2][0]` (how the request reader names a place) as a JSON pointer: `/headers/2/0`. */
function pointerOf(path: string): string {
  if (path === '') return '';
  return path
    .split(/\.|\[(\d+)\]/)
    .filter((part) => part !== undefined && part !== '')
    .map((part) => `/${part.replaceAll('~', '~0').replaceAll('/', '~1')}`)
    .join('');
}
