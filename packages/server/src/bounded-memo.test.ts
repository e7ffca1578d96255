import { describe, expect, it } from 'vitest';
import { BoundedMemo } from './bounded-memo.ts';

describe('BoundedMemo', () => {
  it('computes a key once, remembers undefined answers too, and never holds more than its limit', () => {
    let calls = 0;
    const memo = new BoundedMemo<string, number | undefined>(3, (key) => {
      calls++;
      return key === 'none' ? undefined : key.length;
    });
    expect(memo.get('ab')).toBe(2);
    expect(memo.get('ab')).toBe(2);
    expect(memo.get('none')).toBeUndefined();
    expect(memo.get('none')).toBeUndefined();
    expect(calls).toBe(2);
    for (const key of ['c', 'dd', 'eee', 'ffff', 'ggggg']) memo.get(key);
    expect(memo.size).toBeLessThanOrEqual(3);
  });
});
