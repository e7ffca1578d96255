import { describe, expect, it } from 'vitest';
import { behaviorLimitDetails, countArrayElements, MAX_BEHAVIOR_SAMPLES } from './scoring-validation.ts';

describe('countArrayElements', () => {
  it('counts every array element at any depth, inside objects too', () => {
    const mouse = Array.from({ length: 10 }, (_, i) => [i * 16, i, i]);
    expect(countArrayElements({ mouse }, 10_000)).toBe(10 + 30);
    expect(countArrayElements({ a: { b: [[1, [2, 3]], { c: [4] }] }, n: 5, s: 'x' }, 10_000)).toBe(
      2 + 2 + 2 + 1,
    );
    expect(countArrayElements([null, undefined, 'x', 1.5, true], 10_000)).toBe(5);
    expect(countArrayElements({}, 10_000)).toBe(0);
    expect(countArrayElements(7, 10_000)).toBe(0);
  });

  it('stops once past the limit', () => {
    const big = Array.from({ length: 100 }, () => [1, 2, 3]);
    expect(countArrayElements(big, 50)).toBeGreaterThan(50);
    expect(countArrayElements(big, 50)).toBeLessThan(400);
  });

  it('refuses behaviour over the sample limit, and only then', () => {
    const samples = (n: number) => Array.from({ length: n }, (_, i) => [i, 1, 2]);
    expect(behaviorLimitDetails({ mouse: samples(MAX_BEHAVIOR_SAMPLES / 4) }, 'body')).toEqual([]);
    expect(behaviorLimitDetails({ mouse: samples(MAX_BEHAVIOR_SAMPLES / 4 + 1) }, 'body')).toEqual([
      expect.objectContaining({ path: 'body.behavior' }),
    ]);
  });
});
