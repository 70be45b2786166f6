import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';

/**
 * The browser pages `cfrules serve` serves beside the API (docs/web.md): the console at `/`, the
 * playground at `/playground`, and the files they load, all from the built dist/web/ directory. Each file
 * is a route of its own, read once at start-up, so that nothing but those paths is added: every other
 * path, `/client/v4` and below included, is answered as before. Every page and file carries a strict
 * Content-Security-Policy (own origin only, WebAssembly allowed to compile for RE2, no inline script or
 * style, no eval) and the headers that keep it from being sniffed, framed or leaking its address.
 */

/** dist/web/, beside the bundle that holds this module (dist/*.js); absent when run from the sources. */
export const WEB_DIRECTORY = fileURLToPath(new URL('./web/', import.meta.url));

export const WEB_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; " +
  "frame-ancestors 'none'";

export const WEB_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': WEB_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  // The pages change with cfrules, and the console shows live data: always revalidate.
  'cache-control': 'no-cache',
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
};

/** The pages by path, and the file each is. */
const PAGES: Readonly<Record<string, string>> = { '/': 'console.html', '/playground': 'index.html' };

/**
 * Registers the pages of `directory` on `app`; returns the paths served, none when the directory holds no
 * console (cfrules run from its sources, before `npm run build`).
 */
export function webPageRoutes(app: FastifyInstance, directory: string): string[] {
  let names: string[];
  try {
    names = readdirSync(directory).filter((name) => name in PAGES || extname(name) in TYPES);
  } catch {
    return [];
  }
  if (!names.includes(PAGES['/'] as string)) return [];
  const routes = new Map<string, string>();
  const pageFiles = Object.values(PAGES);
  for (const name of names) if (!pageFiles.includes(name)) routes.set(`/${name}`, name);
  for (const [path, name] of Object.entries(PAGES)) if (names.includes(name)) routes.set(path, name);
  for (const [path, name] of routes) {
    const body = readFileSync(join(directory, name));
    const type = TYPES[extname(name)] as string;
    app.get(path, (request, reply) => {
      // `/playground/` is routed here too (trailing slashes are ignored), but its page's relative links
      // would then point below it.
      if (path !== '/' && request.url.split('?')[0]?.endsWith('/')) {
        reply.headers(WEB_HEADERS).redirect(path);
        return;
      }
      reply.headers(WEB_HEADERS).type(type).send(body);
    });
  }
  return [...routes.keys()];
}
