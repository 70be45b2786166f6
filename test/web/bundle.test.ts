import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWeb } from '../../scripts/web-bundle.mjs';

// What the playground's scripts are made of (scripts/web-bundle.mjs): the page starts with the editor and
// the expression layers only; the zone engine and its managed rulesets come with zone mode.

let outdir: string;
let metafile: Metafile;

beforeAll(async () => {
  outdir = mkdtempSync(join(tmpdir(), 'cfrules-web-bundle-'));
  metafile = await bundleWeb({ outdir, logLevel: 'silent' });
}, 60_000);

afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const inputsOf = (name: string): string[] => {
  const output = Object.entries(metafile.outputs).find(([path]) => path.endsWith(`/${name}`));
  if (!output) throw new Error(`no output ${name}`);
  return Object.keys(output[1].inputs);
};

describe('the playground bundle', () => {
  it('starts without the zone engine, the managed rulesets or any server-side layer', () => {
    const inputs = inputsOf('playground.js');
    expect(inputs).toContain('src/check/validate.ts');
    expect(inputs).toContain('src/eval/explain.ts');
    // Of the engine, only how a result is written out (the notes under a rule, shared with the terminal).
    const engine = inputs.filter((path) => /^src\/engine\//.test(path));
    expect(engine).toEqual(['src/engine/trace-tree.ts']);
    expect(inputs.filter((path) => /^src\/(cli|http|service|store)\//.test(path))).toEqual([]);
  });

  it('puts the zone engine in a script of its own', () => {
    const inputs = inputsOf('playground-zone.js');
    expect(inputs).toContain('src/engine/zone/zone.ts');
    expect(inputs).toContain('src/engine/managed/catalogue.json');
  });

  it('runs RE2 through the page’s loader, not Node’s require', () => {
    for (const name of ['playground.js', 'playground-zone.js'])
      expect(inputsOf(name)).toContain('web/src/regex/re2-browser.ts');
  });
});

describe('the console bundle', () => {
  it('holds the pages’ shared parts and no zone engine, server-side layer or managed rulesets', () => {
    const inputs = inputsOf('console.js');
    expect(inputs).toContain('web/src/editor/expression-editor.ts');
    expect(inputs).toContain('web/src/trace-view.ts');
    expect(inputs.filter((path) => /^src\/(cli|http|service|store)\//.test(path))).toEqual([]);
    expect(
      inputs.filter((path) => /^src\/engine\/(managed\/catalogue|zone\/(zone|compile))/.test(path)),
    ).toEqual([]);
  });

  it('replays in a worker script of its own, which reads lines as `cfrules replay` does', () => {
    const inputs = inputsOf('console-replay.js');
    expect(inputs).toContain('src/request/line.ts');
    expect(inputs).toContain('src/engine/replay.ts');
    expect(inputs.filter((path) => path.startsWith('web/src/editor/'))).toEqual([]);
  });
});
