import { describe, expect, it } from 'vitest';
import { bucketize, DAY_MS, HOUR_MS, niceMax, stack, ticks } from './charts.ts';

describe('chart math', () => {
  it('rounds axis maxima up to 1/2/5 × 10^k', () => {
    expect([0, 1, 3, 7, 10, 11, 45, 180, 999].map(niceMax)).toEqual([1, 1, 5, 10, 10, 20, 50, 200, 1000]);
  });

  it('makes integer ticks', () => {
    expect(ticks(10)).toEqual([0, 3, 6, 9]);
    expect(ticks(20)).toEqual([0, 5, 10, 15, 20]);
    expect(ticks(1)).toEqual([0, 1]);
  });

  it('fills missing hours with zeros', () => {
    const from = Date.parse('2026-01-01T00:00:00Z');
    const { size, buckets } = bucketize(
      [{ hour: '2026-01-01T02:00:00.000Z', human: 2, bot: 1 }],
      ['human', 'bot'],
      from,
      from + 4 * HOUR_MS,
    );
    expect(size).toBe(HOUR_MS);
    expect(buckets.map((b) => b.total)).toEqual([0, 0, 3, 0]);
    expect(buckets[2]?.values).toEqual({ human: 2, bot: 1 });
  });

  it('sums per day over long windows', () => {
    const from = Date.parse('2026-01-01T00:00:00Z');
    const { size, buckets } = bucketize(
      [
        { hour: '2026-01-01T01:00:00.000Z', human: 1 },
        { hour: '2026-01-01T23:00:00.000Z', human: 2 },
        { hour: '2026-01-03T05:00:00.000Z', human: 4 },
      ],
      ['human'],
      from,
      from + 7 * DAY_MS,
    );
    expect(size).toBe(DAY_MS);
    expect(buckets.map((b) => b.total)).toEqual([3, 0, 4, 0, 0, 0, 0]);
  });

  it('stacks bottom-up', () => {
    expect(stack({ human: 2, bot: 3 }, ['human', 'suspicious', 'bot'])).toEqual([
      { key: 'human', y0: 0, y1: 2 },
      { key: 'suspicious', y0: 2, y1: 2 },
      { key: 'bot', y0: 2, y1: 5 },
    ]);
  });
});
