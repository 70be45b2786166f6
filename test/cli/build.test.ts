import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleDist } from '../../scripts/bundle-options.mjs';
import { replaceDist } from '../../scripts/replace-dist.mjs';
import { root } from './run-binary.js';

// The build puts a new dist/ in place only once it is complete (scripts/replace-dist.mjs), so that a
// `cfrules` command run during `npm test` or `npm run build` never finds it half written (issue 23).

const scratch = mkdtempSync(join(tmpdir(), 'cfrules-build-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const tree = (dir: string) =>
  Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
/** What a build left beside dist/: nothing, once it is over. */
const besideDist = (dir: string) => readdirSync(dir).filter((name) => name.startsWith('dist.'));

describe('replaceDist', () => {
  it('keeps the old dist/ whole while the new one is written, then swaps it in', async () => {
    const project = mkdtempSync(join(scratch, 'swap-'));
    mkdirSync(join(project, 'dist'));
    writeFileSync(join(project, 'dist', 'cli.cjs'), 'old cli');
    writeFileSync(join(project, 'dist', 'chunk-OLD.js'), 'old chunk');
    const old = tree(join(project, 'dist'));
    await replaceDist(project, async (outdir) => {
      mkdirSync(outdir);
      for (const name of ['cli.cjs', 'chunk-NEW.js', 'index.js']) {
        writeFileSync(join(outdir, name), `new ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        expect(tree(join(project, 'dist'))).toEqual(old);
      }
    });
    expect(tree(join(project, 'dist'))).toEqual({
      'chunk-NEW.js': 'new chunk-NEW.js',
      'cli.cjs': 'new cli.cjs',
      'index.js': 'new index.js',
    });
    expect(besideDist(project)).toEqual([]);
  });

  it('builds the first dist/ too, and leaves dist/ as it was when the build fails', async () => {
    const project = mkdtempSync(join(scratch, 'fail-'));
    await replaceDist(project, async (outdir) => {
      mkdirSync(outdir);
      writeFileSync(join(outdir, 'cli.cjs'), 'first');
    });
    expect(tree(join(project, 'dist'))).toEqual({ 'cli.cjs': 'first' });
    const failing = replaceDist(project, async (outdir) => {
      mkdirSync(outdir);
      writeFileSync(join(outdir, 'cli.cjs'), 'half');
      throw new Error('esbuild: syntax error');
    });
    await expect(failing).rejects.toThrow('esbuild: syntax error');
    expect(tree(join(project, 'dist'))).toEqual({ 'cli.cjs': 'first' });
    expect(besideDist(project)).toEqual([]);
  });

  it('removes what builds that were killed left beside dist/, not what a running one is writing', async () => {
    const project = mkdtempSync(join(scratch, 'leftovers-'));
    // Process ids above the kernel's limit (4194304 at most) belong to no process.
    for (const name of ['dist.next-99999999', 'dist.old-99999998', `dist.next-${process.ppid}`])
      mkdirSync(join(project, name));
    await replaceDist(project, async (outdir) => {
      mkdirSync(outdir);
    });
    expect(besideDist(project)).toEqual([`dist.next-${process.ppid}`]);
  });
});

/** Runs `node bin/cfrules.js ARGS` of `project`. */
function cfrulesOf(project: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(project, 'bin', 'cfrules.js'), ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (data) => {
      stderr += data;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('the CLI during a build', () => {
  it('runs every time while dist/ is rebuilt', { timeout: 180_000 }, async () => {
    // A copy of the package that shares the sources and dependencies: the build under test must not touch
    // the dist/ that the other tests run.
    const project = mkdtempSync(join(scratch, 'package-'));
    cpSync(join(root, 'bin'), join(project, 'bin'), { recursive: true });
    cpSync(join(root, 'package.json'), join(project, 'package.json'));
    symlinkSync(join(root, 'src'), join(project, 'src'));
    symlinkSync(join(root, 'node_modules'), join(project, 'node_modules'));
    const build = () =>
      replaceDist(project, (outdir) => bundleDist({ root: project, outdir, logLevel: 'silent' }));
    await build();
    let building = true;
    const rebuilt = build().finally(() => {
      building = false;
    });
    const runs: { code: number | null; stderr: string }[] = [];
    while (building || runs.length === 0)
      runs.push(await cfrulesOf(project, ['validate', 'http.host eq "a"']));
    await rebuilt;
    expect(runs.filter((run) => run.code !== 0)).toEqual([]);
    expect(existsSync(join(project, 'dist', 'cli.cjs'))).toBe(true);
    expect(besideDist(project)).toEqual([]);
  });
});
