import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../testing/rng.ts';
import { reachTimeFit } from './aiming-time.ts';

/** Reaches of the given lengths (px) taking the given times (ms). */
const reaches = (lengths: number[], times: number[]) =>
  lengths.map((length, i) => ({ length, meanSpeed: length / times[i]! }));

/** Fitts' law with an intercept and a person's scatter: MT = a + b·log2(D/W + 1), ×(1 ± jitter). */
function fittsTimes(lengths: number[], random: () => number, jitter = 0.25): number[] {
  const a = 150 + 150 * random();
  const b = 120 + 100 * random();
  return lengths.map((d) => (a + b * Math.log2(d / 40 + 1)) * (1 + jitter * (2 * random() - 1)));
}

describe('movement time against distance over a page (reachTimeFit)', () => {
  it('gives WindMouse-like reaches at one speed an exponent of 1 with no scatter', () => {
    const fit = reachTimeFit(reaches([640, 120, 110], [1280, 240, 220]))!;
    expect(fit.exponent).toBeCloseTo(1, 6);
    expect(fit.se).toBeLessThan(1e-6);
  });

  it('keeps people timed by Fitts law (intercept, slope and scatter drawn per person) clear of the limit', () => {
    const random = mulberry32(7);
    let over = 0;
    for (let page = 0; page < 1000; page++) {
      const lengths = [600 + 300 * random(), 80 + 40 * random(), 80 + 40 * random()];
      const fit = reachTimeFit(reaches(lengths, fittsTimes(lengths, random)))!;
      if (fit.exponent - fit.se >= 0.8) over++;
    }
    expect(over).toBe(0);
  });

  it('needs three reaches of different lengths', () => {
    expect(reachTimeFit(reaches([640, 120], [1280, 240]))).toBeNull();
    expect(reachTimeFit(reaches([200, 200, 200], [400, 300, 500]))).toBeNull();
    expect(reachTimeFit(reaches([400, 200, 120], [800, 400, 240]))).toBeNull();
  });
});
