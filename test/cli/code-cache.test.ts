// The CLI's V8 code cache (bin/code-cache.js, issue 16): where it lives, that a run writes it and the next
// one uses it, and that a damaged, unwritable or turned-off cache changes nothing a command prints or its
// exit status. CFRULES_CACHE_DEBUG=1 makes the command say what it did with the cache.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { type Build, cacheDirectory, writeCache } from '../../bin/code-cache.js';
import { cfrules, type RunResult } from './run-binary.js';

const scratch = mkdtempSync(join(tmpdir(), 'cfrules-code-cache-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let dirs = 0;
/** An empty directory of this test file's. */
function freshDir(): string {
  const dir = join(scratch, String(++dirs));
  mkdirSync(dir);
  return dir;
}

/** The header of dist/cli.cjs names the build: every cache file of it starts with this. */
function buildPrefix(): string {
  const header = /^\/\/cfrules-cli (\S+) ([0-9a-f]+)\n/.exec(readFileSync('dist/cli.cjs', 'latin1'));
  expect(header).not.toBeNull();
  return `cli-${header?.[1]}-${header?.[2]}-node-${process.version}-${process.arch}-`;
}

/** The lines CFRULES_CACHE_DEBUG adds, without the directory. */
function cacheLines(result: RunResult): string[] {
  return [...result.stderr.matchAll(/^cfrules: code cache (.*?): .*\/([^/\n]+)$/gm)].map(
    (match) => `${match[1]}: ${(match[2] as string).replace(buildPrefix(), '…')}`,
  );
}

const debug = (cacheDir: string) => ({ env: { CFRULES_CACHE_DIR: cacheDir, CFRULES_CACHE_DEBUG: '1' } });
const quiet = (cacheDir: string) => ({ env: { CFRULES_CACHE_DIR: cacheDir } });

// One valid expression and one with an error (status 1), so that both outcomes are compared.
const VALIDATE = ['validate', 'ip.src eq 192.0.2.1', 'http.host eq'];

describe('where the cache lives', () => {
  const home = () => '/home/ana';

  it('is CFRULES_CACHE_DIR when set, and nowhere when it is `off`', () => {
    expect(cacheDirectory({ CFRULES_CACHE_DIR: '/tmp/c', XDG_CACHE_HOME: '/x' }, 'linux', home)).toBe(
      '/tmp/c',
    );
    expect(cacheDirectory({ CFRULES_CACHE_DIR: '/tmp/c' }, 'win32', home)).toBe('/tmp/c');
    expect(cacheDirectory({ CFRULES_CACHE_DIR: 'off' }, 'linux', home)).toBeNull();
    expect(cacheDirectory({ CFRULES_CACHE_DIR: '' }, 'linux', home)).toBe('/home/ana/.cache/cfrules');
  });

  it("is the user's cache directory otherwise", () => {
    expect(cacheDirectory({}, 'linux', home)).toBe('/home/ana/.cache/cfrules');
    expect(cacheDirectory({ XDG_CACHE_HOME: '/var/cache/ana' }, 'linux', home)).toBe(
      '/var/cache/ana/cfrules',
    );
    expect(cacheDirectory({ XDG_CACHE_HOME: 'relative' }, 'linux', home)).toBe('/home/ana/.cache/cfrules');
    expect(cacheDirectory({ XDG_CACHE_HOME: '/x' }, 'darwin', () => '/Users/ana')).toBe(
      '/Users/ana/Library/Caches/cfrules',
    );
    expect(cacheDirectory({ LOCALAPPDATA: 'C:\\Users\\ana\\AppData\\Local' }, 'win32', home)).toBe(
      'C:\\Users\\ana\\AppData\\Local\\cfrules\\Cache',
    );
  });

  it('is nowhere without a home or local application data directory', () => {
    expect(cacheDirectory({}, 'linux', () => undefined)).toBeNull();
    expect(cacheDirectory({}, 'linux', () => '')).toBeNull();
    expect(cacheDirectory({}, 'darwin', () => 'relative')).toBeNull();
    expect(cacheDirectory({}, 'win32', home)).toBeNull();
  });

  it('is written there by the command: XDG_CACHE_HOME, else ~/.cache', { timeout: 30_000 }, async () => {
    const user = freshDir();
    const xdg = freshDir();
    const env = { CFRULES_CACHE_DIR: undefined, HOME: user };
    expect((await cfrules(['--version'], { env: { ...env, XDG_CACHE_HOME: xdg } })).code).toBe(0);
    expect(readdirSync(join(xdg, 'cfrules'))).toEqual([`${buildPrefix()}cli.cache`]);
    expect(existsSync(join(user, '.cache'))).toBe(false);
    expect((await cfrules(['--version'], { env: { ...env, XDG_CACHE_HOME: undefined } })).code).toBe(0);
    expect(readdirSync(join(user, '.cache/cfrules'))).toEqual([`${buildPrefix()}cli.cache`]);
  });
});

describe('the code cache', { timeout: 30_000 }, () => {
  it("is, for the tests' commands, a directory of the test run's (test/cli/build-once.ts), not ~/.cache", () => {
    const dir = process.env.CFRULES_CACHE_DIR as string;
    expect(dir.startsWith(join(tmpdir(), 'cfrules-test-cache-'))).toBe(true);
    expect(existsSync(dir)).toBe(true);
  });

  it('is written by a first run and used by the next, which prints the same', async () => {
    const dir = freshDir();
    const first = await cfrules(VALIDATE, debug(dir));
    expect(cacheLines(first)).toEqual(['missing: …validate.cache', 'written: …validate.cache']);
    expect(readdirSync(dir)).toEqual([`${buildPrefix()}validate.cache`]);
    const second = await cfrules(VALIDATE, debug(dir));
    expect(cacheLines(second)).toEqual(['used: …validate.cache']);
    const plain = await cfrules(VALIDATE, quiet('off'));
    expect(plain.code).toBe(1);
    expect(plain.stdout).toContain('2 expressions checked: 1 valid, 1 invalid');
    for (const run of [first, second]) {
      expect(run.code).toBe(plain.code);
      expect(run.stdout).toBe(plain.stdout);
      expect(run.stderr.replace(/^cfrules: code cache .*\n/gm, '')).toBe(plain.stderr);
    }
  });

  it('is kept per command: the functions V8 caches are those the command ran', async () => {
    const dir = freshDir();
    await cfrules(VALIDATE, quiet(dir));
    const fmt = await cfrules(['fmt', '-e', 'a&&b'], debug(dir));
    expect(fmt.stdout).toBe('a and b\n');
    expect(cacheLines(fmt)).toEqual(['missing: …fmt.cache', 'written: …fmt.cache']);
    expect(readdirSync(dir).sort()).toEqual([`${buildPrefix()}fmt.cache`, `${buildPrefix()}validate.cache`]);
  });

  it('is used by the next run after a command that compiled a regex (V8 flags it turns on)', async () => {
    const dir = freshDir();
    const args = ['eval', '--field', 'http.host=aaa.example', 'http.host matches "^a+\\."'];
    const first = await cfrules(args, debug(dir));
    expect(first).toMatchObject({ code: 0, stdout: 'true\n' });
    expect(cacheLines(first)).toEqual(['missing: …eval.cache', 'written: …eval.cache']);
    expect(cacheLines(await cfrules(args, debug(dir)))).toEqual(['used: …eval.cache']);
  });

  it('is not written by a usage error (an unknown command would name a file)', async () => {
    const dir = freshDir();
    const unknown = await cfrules(['nosuchcommand'], debug(dir));
    expect(unknown.code).toBe(2);
    expect(cacheLines(unknown)).toEqual(['missing: …nosuchcommand.cache']);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('is written once and whole by commands started together', async () => {
    const dir = freshDir();
    const runs = await Promise.all([1, 2, 3, 4].map(() => cfrules(VALIDATE, quiet(dir))));
    const reference = await cfrules(VALIDATE, quiet('off'));
    for (const run of runs) expect(run).toEqual(reference);
    expect(readdirSync(dir)).toEqual([`${buildPrefix()}validate.cache`]);
    expect(cacheLines(await cfrules(VALIDATE, debug(dir)))).toEqual(['used: …validate.cache']);
  });

  it('removes the files of other builds a day old, and only those, when it writes', async () => {
    const dir = freshDir();
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    const files = {
      oldBuild: 'cli-0.0.9-0123456789abcdef-node-v20.0.0-x64-validate.cache',
      recentBuild: 'cli-0.0.9-fedcba9876543210-node-v20.0.0-x64-validate.cache',
      oldTemporary: `${buildPrefix()}fmt.cache.12345.tmp`,
      notOurs: 'notes.txt',
    };
    for (const name of Object.values(files)) writeFileSync(join(dir, name), 'x');
    for (const name of [files.oldBuild, files.oldTemporary, files.notOurs])
      utimesSync(join(dir, name), twoDaysAgo, twoDaysAgo);
    await cfrules(['fmt', '-e', 'ssl'], quiet(dir));
    expect(readdirSync(dir).sort()).toEqual(
      [files.recentBuild, files.notOurs, `${buildPrefix()}fmt.cache`].sort(),
    );
  });
});

describe('a cache that cannot be used changes nothing', { timeout: 30_000 }, () => {
  /** A cache file for VALIDATE, written by a run. */
  async function writtenCache(): Promise<{ dir: string; file: string; bytes: Buffer }> {
    const dir = freshDir();
    await cfrules(VALIDATE, quiet(dir));
    const file = join(dir, `${buildPrefix()}validate.cache`);
    return { dir, file, bytes: readFileSync(file) };
  }

  /** Bytes of V8's data flipped, past its header, which V8 checks (it does not check the rest). */
  function flipped(bytes: Buffer): Buffer {
    const copy = Buffer.from(bytes);
    for (let i = 200; i < copy.length; i += 997) copy[i] = (copy[i] as number) ^ 0x5a;
    return copy;
  }

  it.each([
    ['damaged data', flipped],
    ['a file cut short', (bytes: Buffer) => bytes.subarray(0, bytes.length >> 1)],
    ['an empty file', () => Buffer.alloc(0)],
    ['a file that is not a cache', () => Buffer.from('not a code cache\n')],
  ])('%s: the output and status are the same, and the cache is written again', async (_, damage) => {
    const { dir, file, bytes } = await writtenCache();
    writeFileSync(file, damage(bytes));
    const reference = await cfrules(VALIDATE, quiet('off'));
    expect(await cfrules(VALIDATE, quiet(dir))).toEqual(reference);
    // That run wrote it again, whole.
    const next = await cfrules(VALIDATE, debug(dir));
    expect(cacheLines(next)).toEqual(['used: …validate.cache']);
    writeFileSync(file, damage(bytes));
    // Read as no cache at all (a damaged file never reaches V8, which would crash on it).
    expect(cacheLines(await cfrules(VALIDATE, debug(dir)))).toEqual([
      'missing: …validate.cache',
      'written: …validate.cache',
    ]);
  });

  it('data V8 rejects: the same output and status, and the cache is written again', async () => {
    const { dir, file } = await writtenCache();
    // A sound file (its checksum right) holding V8's data for another script, which V8 checks and rejects.
    const other = new Script('1 + 1');
    other.runInThisContext();
    const [, version, hash] = /^\/\/cfrules-cli (\S+) ([0-9a-f]+)\n/.exec(
      readFileSync('dist/cli.cjs', 'latin1'),
    ) as string[];
    expect(writeCache(file, { version, hash } as Build, other.createCachedData())).toBeUndefined();
    const reference = await cfrules(VALIDATE, quiet('off'));
    const rejected = await cfrules(VALIDATE, debug(dir));
    expect(cacheLines(rejected)).toEqual(['rejected: …validate.cache', 'written: …validate.cache']);
    expect(rejected.code).toBe(reference.code);
    expect(rejected.stdout).toBe(reference.stdout);
    expect(cacheLines(await cfrules(VALIDATE, debug(dir)))).toEqual(['used: …validate.cache']);
  });

  it('an unwritable cache directory: the same output and status, silently', async () => {
    // A directory under a file cannot be made, even by root (the tests may run as root).
    const file = join(freshDir(), 'a-file');
    writeFileSync(file, '');
    const dir = join(file, 'cache');
    const reference = await cfrules(VALIDATE, quiet('off'));
    expect(await cfrules(VALIDATE, quiet(dir))).toEqual(reference);
    expect(cacheLines(await cfrules(VALIDATE, debug(dir)))).toEqual([
      'missing: …validate.cache',
      'not written (ENOTDIR): …validate.cache',
    ]);
  });

  it('CFRULES_CACHE_DIR=off writes nothing anywhere, and prints the same', async () => {
    const user = freshDir();
    const env = { CFRULES_CACHE_DIR: 'off', HOME: user, XDG_CACHE_HOME: join(user, 'xdg') };
    const off = await cfrules(VALIDATE, { env: { ...env, CFRULES_CACHE_DEBUG: '1' } });
    expect(off.stderr).not.toContain('code cache');
    expect(readdirSync(user)).toEqual([]);
    const withCache = await cfrules(VALIDATE, quiet(freshDir()));
    expect(off).toEqual(withCache);
  });
});
