// The pre-commit hooks (.pre-commit-hooks.yaml): each runs a cfrules command that takes the changed files as
// arguments, on the files it is meant for, and fails the commit on what cfrules reports.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cfrules } from './run-binary.js';

interface Hook {
  id: string;
  entry: string;
  language: string;
  files: string;
}

const hooks = parse(readFileSync(new URL('../../.pre-commit-hooks.yaml', import.meta.url), 'utf8')) as Hook[];
const hook = (id: string) => hooks.find((candidate) => candidate.id === id) as Hook;

/** What pre-commit runs: the entry's words, then the changed files that match `files`. */
const command = (id: string, changed: string[]) => {
  const { entry, files } = hook(id);
  // The project's own cfrules, never one npx would download.
  const [npx, no, program, ...args] = entry.split(' ');
  expect([npx, no, program]).toEqual(['npx', '--no', 'cfrules']);
  return [...args, ...changed.filter((file) => new RegExp(files).test(file))];
};

describe('.pre-commit-hooks.yaml', { timeout: 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'cfrules-pre-commit-'));
  const write = (name: string, text: string) => writeFileSync(join(dir, name), text);
  write('main.tf', 'resource "cloudflare_filter" "f" {\n  expression = "http.hots eq \\"a\\""\n}\n');
  write('ok.tf', 'resource "cloudflare_filter" "g" {\n  expression = "http.host  eq \\"a\\""\n}\n');
  write('rules.cfrules', '# checked\nssl\n');
  write('package.json', '{"name": "not rules"}\n');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const changed = ['main.tf', 'ok.tf', 'rules.cfrules', 'package.json'];

  it("declares hooks that run the project's cfrules: validate (Terraform and .cfrules, API JSON), fmt --check", () => {
    expect(hooks.map((h) => h.id)).toEqual(['cfrules-validate', 'cfrules-validate-json', 'cfrules-fmt']);
    for (const h of hooks) expect(h.language).toBe('system');
    expect(command('cfrules-validate', changed)).toEqual([
      'validate',
      '--files',
      'main.tf',
      'ok.tf',
      'rules.cfrules',
    ]);
    expect(command('cfrules-validate-json', [...changed, 'cloudflare/rules/waf.json'])).toEqual([
      'validate',
      '--files',
      'cloudflare/rules/waf.json',
    ]);
  });

  it('cfrules-validate fails the commit on an invalid expression, at its .tf position', async () => {
    const result = await cfrules(command('cfrules-validate', changed), { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('main.tf:2:17: error[unknown-identifier]');
    expect(result.stdout).toContain('3 expressions checked: 2 valid, 1 invalid');
  });

  it('cfrules-validate-json reads API rules files given as arguments', async () => {
    write('waf.json', JSON.stringify([{ id: 'f1', expression: 'ssl' }]));
    const result = await cfrules(['validate', '--files', 'waf.json'], { cwd: dir });
    expect(result).toMatchObject({
      code: 0,
      stdout: '1 expression checked: 1 valid, 0 invalid, 0 warnings\n',
    });
  });

  it('cfrules-fmt fails the commit on an expression that is not canonical, and passes once fmt -w ran', async () => {
    const files = ['ok.tf', 'rules.cfrules'];
    const check = await cfrules(command('cfrules-fmt', files), { cwd: dir });
    expect(check).toMatchObject({
      code: 1,
      stderr: 'ok.tf:2:17: not formatted (filter cloudflare_filter.g)\n',
    });
    expect((await cfrules(['fmt', '-w', ...files], { cwd: dir })).code).toBe(0);
    expect((await cfrules(command('cfrules-fmt', files), { cwd: dir })).code).toBe(0);
  });
});
