// What each command loads (issue 16: start-up is what users of `validate` and `fmt` in pre-commit hooks and
// editors feel), and what happens where the service's optional packages are not installed (issue 13).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cfrules, root } from './run-binary.js';

const scratch = mkdtempSync(join(tmpdir(), 'cfrules-loading-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const preload = fileURLToPath(new URL('fixtures/record-modules.cjs', import.meta.url));
const SERVICE_PACKAGES = ['fastify', 'better-sqlite3', 'yaml'];

/** Runs `cfrules ARGS` and gives the service packages it loaded, with its result. */
async function packagesLoadedBy(args: string[], name: string, env: Record<string, string> = {}) {
  const record = join(scratch, `${name}.json`);
  const result = await cfrules(args, {
    env: { NODE_OPTIONS: `--require ${preload}`, CFRULES_RECORD_MODULES: record, ...env },
  });
  const modules = JSON.parse(readFileSync(record, 'utf8')) as string[];
  const loaded = SERVICE_PACKAGES.filter((pkg) =>
    modules.some((path) => path.includes(`/node_modules/${pkg}/`)),
  );
  return { result, loaded };
}

/** A one-case test file with its zone inline, in JSON (a YAML one would need yaml), for `cfrules test`. */
const testFile = 'examples/tests/admin.test.json';

describe('what each command loads', { timeout: 30_000 }, () => {
  // The commands run as they do by default: dist/cli.cjs through the code cache (bin/cfrules.js), which the
  // debug line shows.
  it.each([
    ['validate', ['validate', 'ip.src eq 192.0.2.1']],
    ['fmt', ['fmt', '-e', 'a&&b']],
    ['parse', ['parse', '-e', 'ssl']],
    ['eval', ['eval', '--field', 'ssl=true', 'ssl']],
    ['validate-json', ['validate', '--file', 'examples/rules/firewall-rules.json']],
    ['test-json', ['test', testFile]],
  ])('%s loads neither fastify, better-sqlite3 nor yaml', async (name, args) => {
    const { result, loaded } = await packagesLoadedBy(args, name, { CFRULES_CACHE_DEBUG: '1' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^cfrules: code cache (used|missing|rejected): /);
    expect(loaded).toEqual([]);
  });

  it('validate loads none of them either without the code cache (the ES modules of dist/cli.js)', async () => {
    const args = ['validate', '--file', 'examples/rules/firewall-rules.json'];
    const { result, loaded } = await packagesLoadedBy(args, 'validate-off', {
      CFRULES_CACHE_DIR: 'off',
      CFRULES_CACHE_DEBUG: '1',
    });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(loaded).toEqual([]);
  });

  it('serve loads fastify and better-sqlite3, and yaml for a configuration file (the probe sees them)', async () => {
    const noConfig = await packagesLoadedBy(['serve', '--db', join(scratch, 'missing/dir/x.db')], 'serve');
    expect(noConfig.result.stderr).toMatch(/^cfrules serve: cannot open the database /);
    expect(noConfig.loaded).toEqual(['fastify', 'better-sqlite3']);
    const config = join(scratch, 'missing.yaml');
    const withConfig = await packagesLoadedBy(
      ['serve', '--db', ':memory:', '--config', config],
      'serve-config',
    );
    expect(withConfig.result.stderr).toBe(`cfrules serve: cannot read ${config}: no such file\n`);
    expect(withConfig.loaded).toEqual(SERVICE_PACKAGES);
  });
});

describe('without the optional packages of the service', { timeout: 30_000 }, () => {
  it('declares them as optional peers, which a clone installs for development', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    for (const name of SERVICE_PACKAGES) {
      expect(pkg.dependencies[name], name).toBeUndefined();
      expect(pkg.peerDependencies[name], name).toMatch(/^\^/);
      expect(pkg.peerDependenciesMeta[name], name).toEqual({ optional: true });
      expect(pkg.devDependencies[name], name).toBe(pkg.peerDependencies[name].slice(1));
    }
  });

  /**
   * The built package as a library-only user installs it: bin/, dist/ and package.json copied (not linked:
   * Node would resolve packages from the links' targets, where everything is installed), with only the
   * given packages beside it in node_modules.
   */
  function install(name: string, packages: string[]): string {
    const dir = join(scratch, name);
    mkdirSync(join(dir, 'node_modules'), { recursive: true });
    for (const part of ['bin', 'dist', 'package.json'])
      cpSync(join(root, part), join(dir, part), { recursive: true });
    for (const pkg of packages) symlinkSync(join(root, 'node_modules', pkg), join(dir, 'node_modules', pkg));
    return join(dir, 'bin/cfrules.js');
  }
  const run = (bin: string, args: string[]) =>
    spawnSync(process.execPath, [bin, ...args], {
      encoding: 'utf8',
      cwd: scratch,
      env: { ...process.env, CI: 'true' },
    });

  it('validates, and serve says what to install', () => {
    const bin = install('library-only', ['re2-wasm']);
    expect(run(bin, ['validate', 'http.host matches "^a+$"'])).toMatchObject({ status: 0, stderr: '' });
    expect(run(bin, ['serve', '--db', ':memory:'])).toMatchObject({
      status: 1,
      stdout: '',
      stderr:
        'cfrules serve: cfrules serve and cfrules/server need fastify and better-sqlite3 (fastify is not ' +
        'installed): npm install fastify better-sqlite3\n',
    });
  });

  it('serves without yaml, and says what to install for --config', () => {
    const bin = install('no-yaml', ['re2-wasm', 'fastify', 'better-sqlite3']);
    const config = join(scratch, 'cfrules.yaml');
    writeFileSync(config, 'accounts: []\n');
    expect(run(bin, ['serve', '--db', ':memory:', '--config', config])).toMatchObject({
      status: 1,
      stderr:
        'cfrules serve: YAML files (cfrules serve --config, zone and test files, export zone -o FILE.yaml) need yaml (yaml is not installed): npm install yaml\n',
    });
  });
});
