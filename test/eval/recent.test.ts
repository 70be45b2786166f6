import { describe, expect, it } from 'vitest';
import { RecentMap } from '../../src/eval/recent.js';

describe('RecentMap', () => {
  it('keeps a value that is used again while one-off values come and go', () => {
    const map = new RecentMap<string, number>(4);
    map.set('user-agent', 1);
    for (let i = 0; i < 100; i++) {
      map.set(`token-${i}`, i);
      // Read back now and then, as a frequent value is: it survives every turn of the generations.
      if (i % 3 === 0) expect(map.get('user-agent')).toBe(1);
    }
    expect(map.get('user-agent')).toBe(1);
    expect(map.get('token-0')).toBeUndefined();
    expect(map.get('token-99')).toBe(99);
  });

  it('holds at most two generations', () => {
    const map = new RecentMap<number, number>(3);
    for (let i = 0; i < 10; i++) map.set(i, i);
    const kept = Array.from({ length: 10 }, (_, i) => map.get(i)).filter((v) => v !== undefined);
    expect(kept.length).toBeLessThanOrEqual(6);
    expect(map.get(9)).toBe(9);
  });
});
