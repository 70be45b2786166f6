import { describe, expect, it } from 'vitest';
import { isId, newId } from '../../src/service/ids.js';

describe('newId', () => {
  it('gives distinct 32-hex-character ids, across refills of its pool of random bytes', () => {
    // 4096 bytes of randomness make 256 ids: 1000 ids span several refills.
    const ids = Array.from({ length: 1000 }, newId);
    for (const id of ids) expect(isId(id), id).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // Not a counter: consecutive ids share no long prefix.
    expect(ids.filter((id, i) => i > 0 && id.slice(0, 8) === ids[i - 1]?.slice(0, 8))).toEqual([]);
  });
});
