import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ValueExpression } from '../../src/lang/ast.js';
import { parse } from '../../src/lang/parse.js';
import { verdictOf } from '../support/verdict.js';

/**
 * The corpus (test/lang/corpus.json) holds expressions with the reference engine's verdict, written from
 * the reference notes, the wirefilter sources and Cloudflare's documentation. Stage "parse" entries are
 * decided by syntax alone and must match exactly here; stage "check" entries need field types and are
 * checked through the validator (test/check/reference-corpus.test.ts).
 */
interface CorpusEntry {
  expr: string;
  stage: 'parse' | 'check';
  error: { message: string; line: number; column: number; carets: number } | null;
  source: string;
  note?: string;
}

const corpus: CorpusEntry[] = JSON.parse(readFileSync(new URL('./corpus.json', import.meta.url), 'utf8'));

// Bool fields and functions of the corpus, so that text after a lone value gets the reference's message.
const fields: { name: string; type: string }[] = JSON.parse(
  readFileSync(new URL('../../src/scheme/fields.json', import.meta.url), 'utf8'),
);
const boolNames = new Set([
  ...fields.filter((f) => f.type === 'Bool').map((f) => f.name),
  'starts_with',
  'ends_with',
  'has_key',
  'has_value',
  'is_timed_hmac_valid_v0',
  'true',
]);
const isBoolValue = (value: ValueExpression) =>
  value.kind === 'field' || value.kind === 'call' ? boolNames.has(value.name) : false;

function verdict(expr: string) {
  const result = parse(expr, { hooks: { isBoolValue } });
  const [d] = result.diagnostics;
  if (!d) return null;
  const { code: _, ...seen } = verdictOf(expr, d);
  return seen;
}

describe('reference corpus', () => {
  it('has at least 200 expressions', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(200);
  });

  for (const entry of corpus.filter((e) => e.stage === 'parse')) {
    it(`${entry.error ? 'rejects' : 'accepts'} ${JSON.stringify(entry.expr).slice(0, 100)}`, () => {
      expect(verdict(entry.expr)).toEqual(entry.error);
    });
  }
});
