import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chainOf, transformed, transformedSteps } from '../../src/eval/functions/waf/transform-cache.js';
import {
  TRANSFORMATION_NAMES,
  TRANSFORMATIONS,
  type TransformationName,
} from '../../src/eval/functions/waf/transforms.js';

/** Transformations whose result, transformed again, does not change. */
const IDEMPOTENT: readonly TransformationName[] = [
  'none',
  'lowercase',
  'uppercase',
  'compressWhitespace',
  'removeWhitespace',
  'removeNulls',
  'replaceNulls',
  'trim',
  'trimLeft',
  'trimRight',
  // Its result holds no `/*` (one would have opened a comment), so there is nothing left to replace.
  'replaceComments',
  // Its result holds none of the deleted characters, no run of separators and no space before `/` or `(`.
  'cmdLine',
  // Its result has no empty, `.` or `..` segment left, but leading `..` of a relative path.
  'normalizePath',
  'normalisePath',
  'normalizePathWin',
  'normalisePathWin',
  // Its result is ASCII plus bytes that start no well-formed sequence, which stay next to the same bytes.
  'utf8toUnicode',
];

/** The others, each with a reason and a value that a second pass changes again. */
const NOT_IDEMPOTENT: Readonly<
  Partial<Record<TransformationName, readonly [reason: string, witness: string]>>
> = {
  urlDecode: ['a decoded % can start a new escape', '%2541'],
  urlDecodeUni: ['a decoded % can start a new escape', '%u0025u0041'],
  urlEncode: ['it encodes the % it wrote', '<'],
  htmlEntityDecode: ['a decoded & can start a new entity', '&amp;lt;'],
  jsDecode: ['a decoded backslash can start a new escape', '\\x5cx41'],
  cssDecode: ['a decoded backslash can start a new escape', '\\5c 41'],
  escapeSeqDecode: ['a decoded backslash can start a new escape', '\\\\x41'],
  removeComments: ['removing a comment can join the halves of a new mark', '-/**/-x'],
  removeCommentsChar: ['removing a mark can join the halves of a new one', '-#-x'],
  base64Decode: ['decoded bytes are Base64 again', 'UEE9PQ=='],
  base64DecodeExt: ['decoded bytes are Base64 again', 'UEE9PQ=='],
  base64Encode: ['it encodes what it wrote', 'a'],
  hexDecode: ['decoded bytes can be hex digits again', '3431'],
  hexEncode: ['it encodes what it wrote', 'a'],
  sqlHexDecode: ['decoded bytes can form a new literal', '0x30783431'],
  length: ['the length of a length is its number of digits', 'abcdefghij'],
  md5: ['a digest of a digest is another digest', ''],
  sha1: ['a digest of a digest is another digest', ''],
};

/** Any bytes. */
const binaryString = fc
  .array(fc.integer({ min: 0, max: 255 }), { maxLength: 64 })
  .map((codes) => String.fromCharCode(...codes));

/** Pieces that matter to the decoders, normalizers and comment strippers, so random text reaches them. */
const pieces = [
  ...'%+&#;\\/.*-<>!="\'^,() \t\n\r\v\f\0xXuU0123789afAFgz'.split(''),
  '%u',
  '%2',
  '%25',
  '%5c',
  '%2e',
  'ff',
  'FF',
  '3c',
  '&#',
  '&#x',
  '&lt',
  '&amp;',
  'nbsp',
  '\\x',
  '\\u',
  '\\0',
  '..',
  './',
  '../',
  '//',
  '/*',
  '*/',
  '--',
  '<!--',
  '-->',
  '0x',
  'PA==',
  String.fromCharCode(0xa0),
  String.fromCharCode(0xc3, 0xa9),
  String.fromCharCode(0xe2, 0x82),
  String.fromCharCode(0xf0, 0x9f),
  String.fromCharCode(0x80),
];
const biasedString = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...pieces) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }).map((code) => String.fromCharCode(code)) },
    ),
    { maxLength: 32 },
  )
  .map((parts) => parts.join(''));

const isBinary = (value: string): boolean => {
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) > 0xff) return false;
  return true;
};

const RUNS = 400;

describe('every transformation, on any bytes', () => {
  it('is classified as idempotent or not, exactly once', () => {
    for (const name of TRANSFORMATION_NAMES) {
      expect(IDEMPOTENT.includes(name) !== name in NOT_IDEMPOTENT, name).toBe(true);
    }
    expect(IDEMPOTENT.length + Object.keys(NOT_IDEMPOTENT).length).toBe(TRANSFORMATION_NAMES.length);
  });

  for (const name of TRANSFORMATION_NAMES) {
    const transform = TRANSFORMATIONS[name];
    const idempotent = IDEMPOTENT.includes(name);

    it(`${name}: never throws, gives a binary string${idempotent ? ', is idempotent' : ''}`, () => {
      for (const arbitrary of [binaryString, biasedString]) {
        fc.assert(
          fc.property(arbitrary, (value) => {
            const once = transform(value);
            expect(typeof once).toBe('string');
            expect(isBinary(once)).toBe(true);
            if (idempotent) expect(transform(once)).toBe(once);
          }),
          { numRuns: RUNS },
        );
      }
    });
  }

  for (const [name, [reason, witness]] of Object.entries(NOT_IDEMPOTENT)) {
    it(`${name} is not idempotent: ${reason}`, () => {
      const transform = TRANSFORMATIONS[name as TransformationName];
      const once = transform(witness);
      expect(transform(once)).not.toBe(once);
    });
  }
});

describe('more properties', () => {
  it('the decoders never lengthen a value, the strippers neither', () => {
    const shrinking: readonly TransformationName[] = [
      'urlDecode',
      'urlDecodeUni',
      'htmlEntityDecode',
      'jsDecode',
      'cssDecode',
      'escapeSeqDecode',
      'compressWhitespace',
      'removeWhitespace',
      'removeNulls',
      'replaceNulls',
      'trim',
      'replaceComments',
      'removeComments',
      'removeCommentsChar',
      'cmdLine',
      'normalizePath',
      'normalizePathWin',
      'base64Decode',
      'base64DecodeExt',
      'hexDecode',
      'sqlHexDecode',
    ];
    fc.assert(
      fc.property(biasedString, (value) => {
        for (const name of shrinking)
          expect(TRANSFORMATIONS[name](value).length, name).toBeLessThanOrEqual(value.length);
      }),
      { numRuns: RUNS },
    );
  });

  it('encoders and decoders round-trip', () => {
    fc.assert(
      fc.property(binaryString, (value) => {
        expect(TRANSFORMATIONS.hexDecode(TRANSFORMATIONS.hexEncode(value))).toBe(value);
        expect(TRANSFORMATIONS.base64Decode(TRANSFORMATIONS.base64Encode(value))).toBe(value);
        expect(TRANSFORMATIONS.base64DecodeExt(TRANSFORMATIONS.base64Encode(value))).toBe(value);
        expect(TRANSFORMATIONS.urlDecode(TRANSFORMATIONS.urlEncode(value))).toBe(value);
        expect(TRANSFORMATIONS.length(value)).toBe(String(value.length));
      }),
      { numRuns: RUNS },
    );
  });

  it('a chain is the composition, its steps the distinct intermediate values, whatever ran before', () => {
    // Several chains over the same target array, in any order: what one chain left in the cache must
    // not change what another gets.
    const names = fc.array(fc.constantFrom(...TRANSFORMATION_NAMES), { maxLength: 5 });
    fc.assert(
      fc.property(
        fc.array(names, { minLength: 1, maxLength: 4 }),
        fc.array(biasedString, { maxLength: 3 }),
        (chains, values) => {
          const target = [...values];
          for (const names of chains) {
            const chain = chainOf(names);
            const expected = values.map((value) =>
              names.reduce((current, name) => TRANSFORMATIONS[name](current), value),
            );
            const steps = values.flatMap((value) => {
              const seen = [value];
              let current = value;
              for (const name of names) {
                current = TRANSFORMATIONS[name](current);
                if (!seen.includes(current)) seen.push(current);
              }
              return seen;
            });
            expect(transformed(target, chain)).toEqual(expected);
            expect(transformedSteps(target, chain)).toEqual(steps);
          }
          expect(target).toEqual(values);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('long adversarial values', () => {
  // Each transformation is linear: a quadratic one would not finish these within the test timeout.
  const patterns = [
    '%',
    '%u',
    '%u00',
    '&',
    '&#',
    '&#x',
    '&ab',
    '&#99999',
    '\\',
    '\\x',
    '\\u',
    '\\0',
    '/*',
    '/**/',
    '<!--',
    '-->',
    '*/',
    '0x',
    '0x4',
    '/./',
    '../',
    'a/../',
    '//',
    ' \t',
    '=',
    String.fromCharCode(0xe2, 0x82),
  ];

  it('are transformed in time, by every transformation', () => {
    for (const pattern of patterns) {
      const value = pattern.repeat(Math.ceil(60_000 / pattern.length));
      for (const name of TRANSFORMATION_NAMES) {
        expect(typeof TRANSFORMATIONS[name](value), `${name} of ${JSON.stringify(pattern)}…`).toBe('string');
      }
    }
  });
});
