import { describe, expect, it } from 'vitest';
import { countGeometryOnce } from './path-geometry.ts';

const signal = (rule: string, score: number) => ({ rule, score, description: rule });

describe('the path-geometry tells count once (countGeometryOnce)', () => {
  it("keeps the strongest geometry tell's score and records the others at 0 (the 60 Hz person's page: straight, smooth, sharp)", () => {
    const { signals, geometry } = countGeometryOnce([
      signal('mouse_straight_path', 35),
      signal('mouse_smooth_curve', 30),
      signal('mouse_sharp_turns', 20),
      signal('mouse_stationary_moves', 20),
    ]);
    expect(geometry).toBe(1);
    expect(signals.map((s) => [s.rule, s.score])).toEqual([
      ['mouse_straight_path', 35],
      ['mouse_smooth_curve', 0],
      ['mouse_sharp_turns', 0],
      ['mouse_stationary_moves', 20],
    ]);
    // 35 + 20 (+ 20 for two kinds of tell): challenge, not the block (≥ 85) of 105 + 20.
    expect(signals.reduce((sum, s) => sum + s.score, 0)).toBe(55);
  });

  it('leaves a single geometry tell and the other tells as they are', () => {
    const input = [signal('mouse_smooth_curve', 30), signal('timing_regular', 25)];
    const { signals, geometry } = countGeometryOnce(input);
    expect(geometry).toBe(1);
    expect(signals).toEqual(input);
    expect(countGeometryOnce([signal('timing_regular', 25)]).geometry).toBe(0);
  });
});
