import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.js';
import { WEB_CSP } from '../../src/http/web-pages.js';
import { applyConfig, readConfig } from '../../src/service/setup.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import { CONFIG, TOKEN } from './harness.js';

// The browser pages beside the API (src/http/web-pages.ts): each file of the directory a route with the
// pages' headers, the console at / and the playground at /playground; nothing else changes.

let directory: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'cfrules-web-pages-'));
  writeFileSync(join(directory, 'console.html'), '<!doctype html><title>console</title>');
  writeFileSync(join(directory, 'index.html'), '<!doctype html><title>playground</title>');
  writeFileSync(join(directory, 'console.js'), 'void 0;');
  writeFileSync(join(directory, 're2.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d]));
  writeFileSync(join(directory, 'notes.md'), '# not served');
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function app(webPages?: string) {
  const store = openSqliteStore(':memory:');
  await applyConfig(store, readConfig(CONFIG));
  const built = buildApp({ store, webPages });
  const close = async () => {
    await built.close();
    await store.close();
  };
  return { app: built, close };
}

describe('the browser pages of cfrules serve', () => {
  it('serves the console at /, the playground at /playground and their files, with the pages’ headers', async () => {
    const { app: server, close } = await app(directory);
    const pages: [string, string, RegExp][] = [
      ['/', 'text/html; charset=utf-8', /console/],
      ['/playground', 'text/html; charset=utf-8', /playground/],
      ['/console.js', 'text/javascript; charset=utf-8', /void 0/],
      ['/re2.wasm', 'application/wasm', /asm/],
    ];
    for (const [url, type, body] of pages) {
      const response = await server.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toBe(type);
      expect(response.body, url).toMatch(body);
      expect(response.headers['content-security-policy'], url).toBe(WEB_CSP);
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['x-frame-options'], url).toBe('DENY');
      expect(response.headers['referrer-policy'], url).toBe('no-referrer');
    }
    expect((await server.inject({ url: '/playground/' })).headers.location).toBe('/playground');
    // Only the pages' own kinds of file, and the page files under their page's path only.
    for (const url of ['/notes.md', '/console.html', '/index.html', '/../package.json'])
      expect((await server.inject({ url })).statusCode, url).toBe(404);
    await close();
  });

  it('leaves the API as it was: credentials, envelopes and 404s', async () => {
    const { app: server, close } = await app(directory);
    const zones = await server.inject({
      url: '/client/v4/zones',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(zones.statusCode).toBe(200);
    expect(zones.headers['content-security-policy']).toBeUndefined();
    const anonymous = await server.inject({ url: '/client/v4/zones' });
    expect(anonymous.json().errors[0].code).toBe(9106);
    const unknown = await server.inject({ url: '/nowhere' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().errors[0].code).toBe(7003);
    await close();
  });

  it('serves nothing without a directory, or from one with no console (cfrules run from its sources)', async () => {
    for (const webPages of [undefined, join(directory, 'missing')]) {
      const { app: server, close } = await app(webPages);
      const response = await server.inject({ url: '/' });
      expect(response.statusCode).toBe(404);
      expect(response.json().errors[0].code).toBe(7003);
      await close();
    }
  });
});
