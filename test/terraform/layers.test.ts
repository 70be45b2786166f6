// src/terraform is a layer beside the CLI: the library core never imports it, and it imports only the
// language layer (escapes, positions) of the core.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = new URL('../../src/', import.meta.url).pathname;

function sources(directory: string): string[] {
  return readdirSync(join(src, directory), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

const imports = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'([^']+)'/g)].map(
    (match) => match[1] as string,
  );

describe('the terraform layer', () => {
  it('is not imported by the library core', () => {
    for (const layer of ['lang', 'scheme', 'regex', 'check', 'request', 'eval', 'engine'])
      for (const file of sources(layer))
        expect(
          imports(file).filter((path) => path.includes('terraform/')),
          file,
        ).toEqual([]);
  });

  it('imports nothing of ours but the language layer', () => {
    for (const file of sources('terraform'))
      for (const path of imports(file))
        if (path.startsWith('.')) expect(path, file).toMatch(/^\.\/|^\.\.\/lang\//);
  });
});
