import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/check/validate.js';
import { verdictOf } from '../support/verdict.js';

/**
 * The reference corpus (test/lang/corpus.json) through the whole validator: every entry, syntax-only or
 * type-dependent, must get the reference engine's verdict exactly (message, line, column, carets). The
 * entries carry no plan or phase, so only the language's rules and the Cloudflare scheme apply.
 */
interface CorpusEntry {
  expr: string;
  stage: 'parse' | 'check';
  error: { message: string; line: number; column: number; carets: number } | null;
}

const corpus: CorpusEntry[] = JSON.parse(
  readFileSync(new URL('../lang/corpus.json', import.meta.url), 'utf8'),
);

function verdict(expr: string) {
  const error = validate(expr, { lints: false }).diagnostics.find((d) => d.severity === 'error');
  if (!error) return null;
  const { code: _, ...seen } = verdictOf(expr, error);
  return seen;
}

describe('reference corpus through the validator', () => {
  it('has type-dependent entries', () => {
    expect(corpus.filter((e) => e.stage === 'check').length).toBeGreaterThan(150);
  });

  for (const entry of corpus) {
    it(`${entry.error ? 'rejects' : 'accepts'} ${JSON.stringify(entry.expr).slice(0, 100)}`, () => {
      expect(verdict(entry.expr)).toEqual(entry.error);
    });
  }
});
