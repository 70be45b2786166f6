import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectSqli, SQLI_TOKEN_TYPES, sqliFingerprints } from '../../src/eval/functions/waf/sqli.js';

const RUNS = 3000;

/** Any bytes, as the rule's transformations leave them: one char per byte. */
const bytes = fc.uint8Array({ maxLength: 200 }).map((a) => String.fromCharCode(...a));

/** Pieces that matter to the tokenizer and the folding, so that random values reach deep into both. */
const pieces = fc.constantFrom(
  "'",
  '"',
  '`',
  '\\',
  ' ',
  '\n',
  '(',
  ')',
  ',',
  ';',
  '.',
  '..',
  '=',
  '<=>',
  '||',
  '&&',
  '-',
  '--',
  '#',
  '/*',
  '*/',
  '/*!',
  '/*!50000',
  '@',
  '@@',
  '$$',
  '$a$',
  '[',
  ']',
  '{',
  '}',
  '::',
  '1',
  '0x1f',
  "x'",
  "N'",
  "q'[",
  '1e5',
  '.5',
  'a',
  'select',
  'union',
  'all',
  'or',
  'and',
  'not',
  'in',
  'like',
  'order',
  'by',
  'waitfor',
  'delay',
  'exec',
  'if',
  'sleep',
  'version',
  'char',
  'binary',
  '_utf8',
  'into',
  'outfile',
  'null',
  'drop',
  'table',
  'from',
  'case',
  'when',
  'collate',
  'x.y',
  'é',
  '\xff',
  '\x00',
);
const sqlish = fc.array(pieces, { maxLength: 40 }).map((parts) => parts.join(''));
const values = fc.oneof(bytes, sqlish);

const FINGERPRINT = new RegExp(`^[${SQLI_TOKEN_TYPES.replace(/[\\\]^-]/g, '\\$&')}]{1,5}$`);

describe('detectSqli properties', () => {
  it('never throws, and gives a fingerprint of 1 to 5 token types or nothing', () => {
    fc.assert(
      fc.property(values, (input) => {
        const found = detectSqli(input);
        if (found !== undefined) expect(found.fingerprint).toMatch(FINGERPRINT);
      }),
      { numRuns: RUNS },
    );
  });

  it('is deterministic, whatever was read before', () => {
    fc.assert(
      fc.property(values, values, (input, other) => {
        const first = detectSqli(input);
        detectSqli(other);
        sqliFingerprints(other);
        expect(detectSqli(input)).toEqual(first);
      }),
      { numRuns: RUNS },
    );
  });

  it('detects with the fingerprint of one of its readings', () => {
    fc.assert(
      fc.property(values, (input) => {
        const found = detectSqli(input);
        const readings = sqliFingerprints(input);
        for (const reading of readings) {
          expect(reading).toMatch(
            new RegExp(`^[a-z/]+:[${SQLI_TOKEN_TYPES.replace(/[\\\]^-]/g, '\\$&')}]{0,5}!?$`),
          );
        }
        if (found !== undefined) {
          expect(readings.some((r) => r.endsWith(`:${found.fingerprint}!`))).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('reads a long value in linear time', () => {
    for (const unit of ['1+', "\\'", '(', '/**/', 'a,', 'not ', "'a' ", 'sleep /**/ ']) {
      const value = unit.repeat((1 << 20) / unit.length);
      const start = performance.now();
      detectSqli(value);
      // A megabyte in well under a second even on a loaded machine; quadratic work would take minutes.
      expect(performance.now() - start).toBeLessThan(5000);
    }
  });
});
