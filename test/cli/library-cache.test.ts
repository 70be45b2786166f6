// The library's entry point (dist/index.js, issue 22): dist/library.cjs run from the code cache the build
// wrote beside it (bin/load-library.js, scripts/library-cache.mjs). It must export what src/index.ts
// exports, start from the build's cache in a fresh process, and work the same without it: cache turned
// off, damaged, or written by another V8. CFRULES_CACHE_DEBUG=1 makes it say what it did with the cache.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { writeCacheFile } from '../../bin/code-cache.js';
import * as source from '../../src/index.js';
import { root } from './run-binary.js';

const scratch = mkdtempSync(join(tmpdir(), 'cfrules-library-cache-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A copy of what the library's entry point reads (dist/index.js, the script, its cache and data, bin/),
 * which a test may damage without disturbing the tests that run dist/ meanwhile.
 */
function copyOfLibrary(name: string): { dist: string; cache: string } {
  const project = join(scratch, name);
  const dist = join(project, 'dist');
  for (const file of readdirSync(join(root, 'dist'))) {
    if (file === 'index.js' || file === 'data' || /^library[.-]/.test(file))
      cpSync(join(root, 'dist', file), join(dist, file), { recursive: true });
  }
  cpSync(join(root, 'bin'), join(project, 'bin'), { recursive: true });
  const cache = readdirSync(dist).find((file) => file.endsWith('.cache'));
  expect(cache).toBeDefined();
  return { dist, cache: join(dist, cache as string) };
}

// A zone deploying both managed rulesets (the one the build's warm-up runs), then an attack through it:
// what issue 22's load figure times.
const MANAGED_ZONE = JSON.parse(readFileSync(join(root, 'scripts', 'managed-zone.json'), 'utf8'));
const ATTACK = { method: 'GET', url: "https://example.com/?q=1'%20OR%20'1'%3D'1", clientIp: '203.0.113.9' };

/** A fresh `node` importing the entry point in `dist`: what it printed, the cache lines on stderr apart. */
function runLibrary(dist: string, env: Record<string, string> = {}) {
  const script = `
    const lib = await import(${JSON.stringify(pathToFileURL(join(dist, 'index.js')).href)});
    const zone = lib.compileZone(${JSON.stringify(MANAGED_ZONE)});
    const request = lib.readSampleRequest(${JSON.stringify(ATTACK)}).request;
    const outcome = zone.zone.simulate(request);
    console.log(JSON.stringify({ names: Object.keys(lib).sort(), action: outcome.action,
      matched: outcome.matched.length, valid: lib.validate('http.host eq "a"').ok }));`;
  return new Promise<{ output: unknown; cache: string[]; stderr: string }>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', script],
      { env: { ...process.env, CFRULES_CACHE_DEBUG: '1', ...env } },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`${error.message}\n${stderr}`));
        const cache = [...stderr.matchAll(/^cfrules: library code cache (\w+): /gm)].map(
          (m) => m[1] as string,
        );
        resolve({ output: JSON.parse(stdout), cache, stderr });
      },
    );
  });
}

describe("the library's entry point", () => {
  it('exports what src/index.ts exports, and starts from the build’s code cache', async () => {
    const { output, cache } = await runLibrary(join(root, 'dist'));
    expect(cache).toEqual(['used']);
    expect(output).toMatchObject({
      names: Object.keys(source).sort(),
      action: 'block',
      valid: true,
    });
  });

  it('works the same with the cache turned off, damaged, or written by another V8', async () => {
    const { dist, cache } = copyOfLibrary('variants');
    const reference = await runLibrary(dist);
    expect(reference.cache).toEqual(['used']);

    const off = await runLibrary(dist, { CFRULES_CACHE_DIR: 'off' });
    expect(off.cache).toEqual([]);
    expect(off.output).toEqual(reference.output);

    // A damaged file never reaches V8, which would crash on it: read as no cache at all.
    const bytes = readFileSync(cache);
    bytes[bytes.length - 100] ^= 0xff;
    writeFileSync(cache, bytes);
    const damaged = await runLibrary(dist);
    expect(damaged.cache).toEqual(['missing']);
    expect(damaged.output).toEqual(reference.output);

    // A sound file holding V8's data for another script, which V8 checks and rejects.
    const other = new Script('1 + 1');
    other.runInThisContext();
    expect(writeCacheFile(cache, other.createCachedData())).toBeUndefined();
    const rejected = await runLibrary(dist);
    expect(rejected.cache).toEqual(['rejected']);
    expect(rejected.output).toEqual(reference.output);
  });
});
