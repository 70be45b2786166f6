// The process around the commands: a reader that goes away (`cfrules … | head -1`), and bin/cfrules.js when
// dist/ or a dependency is missing.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from './run-binary.js';

const bin = join(root, 'bin/cfrules.js');
const scratch = mkdtempSync(join(tmpdir(), 'cfrules-process-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs cfrules, reads the first chunk of its standard output, then closes the pipe, as `| head -1` does. */
function readFirstChunkAndClose(
  args: string[],
): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    child.stdout.once('data', () => child.stdout.destroy());
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

describe.concurrent('a closed standard output', { timeout: 30_000 }, () => {
  // Enough output to fill the pipe many times over.
  const many = join(scratch, 'many.txt');
  writeFileSync(
    many,
    Array.from({ length: 20_000 }, (_, i) => `http.host eq "h${i}.example.com" and ssl\n`).join(''),
  );
  for (const args of [
    ['validate', '--format', 'json', '-f', many],
    ['parse', '-f', many],
    ['fmt', '-f', many],
  ]) {
    it(`stops \`cfrules ${args[0]}\` quietly, with the status of a SIGPIPE (141)`, async () => {
      const result = await readFirstChunkAndClose(args);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(141);
    });
  }
});

describe('bin/cfrules.js', () => {
  /**
   * A copy of bin/ next to a dist/ whose bundles (dist/cli.cjs, run with the code cache, and dist/cli.js,
   * imported without it) are the given text (none: no dist/).
   */
  function install(name: string, cli?: { script: string; modules: string }): string {
    const dir = join(scratch, name);
    rmSync(dir, { recursive: true, force: true });
    cpSync(join(root, 'bin'), join(dir, 'bin'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{"type": "module"}\n');
    if (cli !== undefined) {
      mkdirSync(join(dir, 'dist'));
      writeFileSync(join(dir, 'dist/cli.cjs'), cli.script);
      writeFileSync(join(dir, 'dist/cli.js'), cli.modules);
    }
    return join(dir, 'bin/cfrules.js');
  }
  // With the code cache (a directory of this test's) and without it: dist/cli.cjs, then dist/cli.js.
  const caches = [
    ['with the code cache', join(scratch, 'cache')],
    ['without the code cache', 'off'],
  ];
  const runBin = (path: string, cacheDir: string) =>
    spawnSync(process.execPath, [path, '--version'], {
      encoding: 'utf8',
      env: { ...process.env, CFRULES_CACHE_DIR: cacheDir },
    });

  it.each(caches)('says dist/ is missing only when the bundle itself is (%s)', (_, cacheDir) => {
    const result = runBin(install('no-dist'), cacheDir);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('cfrules: dist/ is missing; run `npm ci` or `npm run build` first\n');
  });

  it.each(caches)('names a dependency that cannot be found (%s)', (_, cacheDir) => {
    const bin = install('no-dependency', {
      script: "(function (exports, require) { require('cfrules-no-such-package'); })\n",
      modules: "import 'cfrules-no-such-package';\n",
    });
    const result = runBin(bin, cacheDir);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /^cfrules: cannot load the module 'cfrules-no-such-package', which cfrules needs; /,
    );
    expect(result.stderr).not.toContain('dist/ is missing');
  });
});
