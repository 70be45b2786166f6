import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type LiteralGroups, LiteralUses } from '../../../src/engine/program/literal-uses.js';

/** Literal → piece → rules, read back from the flat arrays. */
function readBack(groups: LiteralGroups, literals: number): Map<number, Map<number, number[]>> {
  const out = new Map<number, Map<number, number[]>>();
  for (let literal = 0; literal < literals; literal++) {
    for (let g = groups.groupStart[literal] as number; g < (groups.groupStart[literal + 1] as number); g++) {
      const rules = Array.from(groups.rules.subarray(groups.ruleStart[g], groups.ruleStart[g + 1]));
      const byPiece = out.get(literal) ?? new Map<number, number[]>();
      expect(byPiece.has(groups.groupPiece[g] as number)).toBe(false); // one group per literal and piece
      byPiece.set(groups.groupPiece[g] as number, rules);
      out.set(literal, byPiece);
    }
  }
  return out;
}

describe('LiteralUses', () => {
  it('groups uses by literal, then piece, keeping the rules in order and once each', () => {
    const uses = new LiteralUses();
    uses.add(2, 1, 0);
    uses.add(0, 3, 0);
    uses.add(2, 1, 0); // the same rule naming the same literal and piece twice
    uses.add(2, 0, 4);
    uses.add(2, 1, 7);
    const groups = uses.groups(4, 5);
    expect(readBack(groups, 4)).toEqual(
      new Map([
        [0, new Map([[3, [0]]])],
        [
          2,
          new Map([
            [0, [4]],
            [1, [0, 7]],
          ]),
        ],
      ]),
    );
    // Literals 1 and 3 have no uses: empty ranges.
    expect(groups.groupStart[1]).toBe(groups.groupStart[2]);
    expect(groups.groupStart[3]).toBe(groups.groupStart[4]);
  });

  it('agrees with a map of sets (property), across growth of its arrays', () => {
    const use = fc.tuple(fc.nat(9), fc.nat(6), fc.nat(40));
    fc.assert(
      fc.property(fc.array(use, { maxLength: 3000 }), (list) => {
        // Uses come rule by rule, as the program reads the rules.
        const sorted = [...list].sort((a, b) => a[2] - b[2]);
        const uses = new LiteralUses();
        const expected = new Map<number, Map<number, number[]>>();
        for (const [literal, piece, rule] of sorted) {
          uses.add(literal, piece, rule);
          const byPiece = expected.get(literal) ?? new Map<number, number[]>();
          const rules = byPiece.get(piece) ?? [];
          if (rules[rules.length - 1] !== rule) rules.push(rule);
          byPiece.set(piece, rules);
          expected.set(literal, byPiece);
        }
        const got = readBack(uses.groups(10, 7), 10);
        expect(got.size).toBe(expected.size);
        for (const [literal, byPiece] of expected) {
          const gotPieces = got.get(literal);
          expect(gotPieces?.size).toBe(byPiece.size);
          for (const [piece, rules] of byPiece) expect(gotPieces?.get(piece)).toEqual(rules);
        }
      }),
      { numRuns: 200 },
    );
  });
});
