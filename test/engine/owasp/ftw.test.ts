import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/command.js';
import { GO_FTW_ZONE } from '../../../src/cli/test-files/go-ftw.js';
import { readTestFile } from '../../../src/cli/test-files/read.js';
import { runTestFile } from '../../../src/cli/test-files/run.js';
import { CRS_FAMILIES } from '../../../src/engine/managed/owasp/rules/index.js';

/**
 * The project's own go-ftw test files for the Cloudflare OWASP Core Ruleset (test/engine/owasp/ftw/, one
 * folder per CRS family, one file per rule): each case is a request a rule must log or must not, run as
 * `cfrules test` runs go-ftw files, against the ruleset with every rule on.
 */

const ROOT = new URL('./ftw/', import.meta.url).pathname;

function yamlFiles(directory: string): string[] {
  return readdirSync(directory)
    .sort()
    .flatMap((entry) => {
      const path = join(directory, entry);
      if (statSync(path).isDirectory()) return yamlFiles(path);
      return entry.endsWith('.yaml') ? [path] : [];
    });
}

const io: CliIo = {
  stdout: () => {},
  stderr: () => {},
  readFile: (path) => readFileSync(path, 'utf8'),
  writeFile: () => {},
  readStdin: () => '',
};
const zone = {
  json: GO_FTW_ZONE,
  file: '(go-ftw default zone)',
  pointer: '',
  positionOf: () => ({ line: 1, column: 1 }),
};

const files = yamlFiles(ROOT);
const results = files.map((path) => {
  const read = readTestFile(
    io,
    path,
    () => '',
    () => zone,
  );
  if (!read.file || read.problems.length > 0) throw new Error(`${path}: ${JSON.stringify(read.problems)}`);
  const ran = runTestFile(read.file);
  if (!ran.ok) throw new Error(`${path}: ${JSON.stringify(ran.problems)}`);
  return { path, cases: ran.results };
});

describe('the OWASP rules on their go-ftw cases', () => {
  for (const { path, cases } of results) {
    it(path.slice(ROOT.length), () => {
      const failures = cases
        .filter((result) => !result.passed || result.skipped)
        .map((result) => `${result.name}: ${result.skipped ?? result.differences.join('; ')}`);
      expect(failures).toEqual([]);
    });
  }

  /**
   * Rules no sample request can make match, because what they test never reaches Cloudflare's WAF (the edge
   * refuses the request first): they keep only cases they must not log.
   */
  const UNREACHABLE: ReadonlyMap<string, string> = new Map([
    ['920430', 'an HTTP version other than 1.0, 1.1, 2 and 3'],
    ['920610', 'a raw # in the request target (clients never send the fragment)'],
  ]);

  it('has, for every rule written after CRS, cases it must log and cases it must not', () => {
    const must = new Set<string>();
    const mustNot = new Set<string>();
    for (const { cases } of results) {
      for (const result of cases) {
        for (const id of result.expected.fired ?? []) must.add(id);
        for (const id of result.expected.not_fired ?? []) mustNot.add(id);
      }
    }
    const rules = [...CRS_FAMILIES.values()].flat().map((rule) => String(rule.id));
    expect(rules.filter((id) => !(must.has(id) || UNREACHABLE.has(id)) || !mustNot.has(id))).toEqual([]);
    expect([...UNREACHABLE.keys()].filter((id) => must.has(id) || !rules.includes(id))).toEqual([]);
  });
});
