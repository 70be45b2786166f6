import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { languagePath, renderDiagnosticTable, updatedPage } from '../../scripts/diagnostics.js';
import { type ValidateOptions, validate } from '../../src/check/validate.js';
import { compile } from '../../src/eval/compile.js';
import { CODES, HINTS, MESSAGES, templateText, undeclared } from '../../src/lang/catalogue.js';
import { parse } from '../../src/lang/parse.js';

/**
 * The diagnostic catalogue (src/lang/catalogue.ts): the page's table is generated from it, every message and
 * hint it lists exists, and the corpora only ever pair a code with a message or hint its entry declares.
 */
const read = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));
const langCorpus: { expr: string }[] = read('./corpus.json');
const checkCorpus: ({ expr: string } & ValidateOptions)[] = read('../check/corpus.json');

describe('diagnostic catalogue', () => {
  it('keeps the table of docs/language.md §4.4 in step with the catalogue (run `npm run diagnostics`)', () => {
    const page = readFileSync(languagePath, 'utf8');
    expect(page).toContain(renderDiagnosticTable());
    expect(updatedPage(page)).toBe(page);
  });

  it('lists only messages and hints that exist, each used by some code', () => {
    const used = new Set<string>();
    type Entry = { messages: readonly string[]; hints?: readonly string[]; hint?: string };
    for (const entry of Object.values(CODES) as Entry[])
      for (const id of [...entry.messages, ...(entry.hints ?? []), entry.hint ?? '']) used.add(id);
    for (const id of [...Object.keys(MESSAGES), ...Object.keys(HINTS)]) expect(used, id).toContain(id);
    for (const template of [...Object.values(MESSAGES), ...Object.values(HINTS)])
      expect(templateText(template)).not.toMatch(/undefined|\[object/);
  });

  it('pairs every code of the corpora with a message and hint its entry declares', () => {
    undeclared.clear();
    for (const { expr } of langCorpus) {
      parse(expr);
      validate(expr);
      compile(expr);
    }
    for (const { expr, plan, phase, lists, expression } of checkCorpus)
      validate(expr, { plan, phase, lists, expression });
    expect([...undeclared]).toEqual([]);
  });

  it('keeps src/lang free of imports from the layers above it', () => {
    const dir = new URL('../../src/lang/', import.meta.url);
    for (const file of readdirSync(dir)) {
      const text = readFileSync(new URL(file, dir), 'utf8');
      expect(text, file).not.toMatch(/from '\.\.\/(check|eval|engine|service|cli|http|store)\//);
    }
  });
});
