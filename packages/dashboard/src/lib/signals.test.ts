import { describe, expect, it } from 'vitest';
import { clampScore, scoreMatches, signalChart, signalSum } from './signals.ts';

const s = (rule: string, score: number) => ({ rule, score, description: '' });

describe('signal bars', () => {
  it('sums and clamps like the engine', () => {
    expect(clampScore(-12)).toBe(0);
    expect(clampScore(45.5)).toBe(46);
    expect(clampScore(130)).toBe(100);
    expect(signalSum([s('a', 0.1), s('b', 0.2)])).toBe(0.3);
    expect(scoreMatches([s('a', 15), s('b', 85), s('c', 30)], 100)).toBe(true);
    expect(scoreMatches([s('a', 15)], 16)).toBe(false);
  });

  it('lays bars end to end on a 0..100 scale', () => {
    const chart = signalChart([s('a', 15), s('b', 30)]);
    expect([chart.sum, chart.clamped, chart.min, chart.max]).toEqual([45, 45, 0, 100]);
    expect(chart.bars.map((b) => [b.from, b.to, b.left, b.width])).toEqual([
      [0, 15, 0, 15],
      [15, 45, 15, 30],
    ]);
    expect([chart.zeroAt, chart.hundredAt]).toEqual([0, 100]);
  });

  it('widens the scale for sums outside 0..100 and draws negative bars leftwards', () => {
    const chart = signalChart([s('a', 85), s('b', 85), s('trust', -50)]);
    expect([chart.sum, chart.clamped, chart.min, chart.max]).toEqual([120, 100, 0, 170]);
    const trust = chart.bars[2]!;
    expect([trust.from, trust.to]).toEqual([170, 120]);
    expect(trust.left).toBeCloseTo((120 / 170) * 100);
    expect(trust.width).toBeCloseTo((50 / 170) * 100);

    const negative = signalChart([s('pow', -20), s('x', 5)]);
    expect([negative.sum, negative.clamped, negative.min, negative.max]).toEqual([-15, 0, -20, 100]);
    expect(negative.zeroAt).toBeCloseTo((20 / 120) * 100);
  });

  it('handles no signals', () => {
    const chart = signalChart([]);
    expect([chart.sum, chart.clamped, chart.bars.length]).toEqual([0, 0, 0]);
  });
});
