import { describe, expect, it } from 'vitest';
import { hypot } from './hypot.ts';

/** A deterministic generator (LCG). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('hypot', () => {
  it('equals Math.hypot bit for bit on mouse-sized moves and on extreme values', () => {
    const r = rng(7);
    const values = (kind: number): number => {
      if (kind < 0.4) return Math.round((r() - 0.5) * 4000) / 10 - Math.round((r() - 0.5) * 4000) / 10;
      if (kind < 0.7) return (r() - 0.5) * 1000;
      return (r() - 0.5) * 10 ** (r() * 600 - 300);
    };
    let differing = 0;
    for (let i = 0; i < 200_000; i++) {
      const dx = values(r());
      const dy = values(r());
      if (!Object.is(hypot(dx, dy), Math.hypot(dx, dy))) differing++;
    }
    expect(differing).toBe(0);
  });

  it('handles zeros, infinities and NaN as Math.hypot does', () => {
    const cases: [number, number][] = [
      [0, 0],
      [-0, 0],
      [-0, -0],
      [3, 4],
      [-3, 0],
      [Number.POSITIVE_INFINITY, Number.NaN],
      [Number.NaN, Number.NEGATIVE_INFINITY],
      [Number.NaN, 1],
      [1e308, 1e308],
      [5e-324, 5e-324],
    ];
    for (const [dx, dy] of cases) expect(Object.is(hypot(dx, dy), Math.hypot(dx, dy))).toBe(true);
  });
});
