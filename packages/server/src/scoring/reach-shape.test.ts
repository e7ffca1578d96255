import { describe, expect, it } from 'vitest';
import { aimedReachSpans } from './aimed-reaches.ts';
import { type MousePath, readMousePath } from './mouse-path.ts';
import { reachShapeMetrics, spreadOverTime, UNTAILED_KURTOSIS, UNTAILED_LAST_TENTH } from './reach-shape.ts';

/** One reach of 600 px along x in `ms`, a sample every 10 ms, its covered share at u ∈ [0, 1] by `profile`. */
function reach(profile: (u: number) => number, ms = 600) {
  const samples: number[][] = [];
  for (let t = 0; t <= ms; t += 10) samples.push([1000 + t, 100 + 600 * profile(t / ms), 300]);
  return readMousePath(samples);
}
const minJerk = (u: number) => 10 * u ** 3 - 15 * u ** 4 + 6 * u ** 5;
/** Abramowitz and Stegun 7.1.26 (error under 1.5e-7). */
function erf(v: number): number {
  const a = Math.abs(v);
  const k = 1 / (1 + 0.3275911 * a);
  const poly =
    ((((1.061405429 * k - 1.453152027) * k + 1.421413741) * k - 0.284496736) * k + 0.254829592) * k;
  return Math.sign(v) * (1 - poly * Math.exp(-a * a));
}
/** A lognormal speed pulse (Plamondon): covered share is its CDF (t0 = −50 ms, μ = ln 200, σ = 0.45) over the 600 ms. */
function lognormal(u: number): number {
  const cdf = (w: number) => 0.5 * (1 + erf((Math.log(w * 600 + 50) - Math.log(200)) / 0.45 / Math.SQRT2));
  return (cdf(u) - cdf(0)) / (cdf(1) - cdf(0));
}

describe('spreadOverTime', () => {
  it('reads an even speed as a uniform spread (kurtosis 1.8) whose last tenth of path takes a tenth of the time', () => {
    const s = spreadOverTime(
      reach((u) => u),
      0,
      60,
    )!;
    expect(s.kurtosis).toBeCloseTo(1.8, 1);
    expect(s.lastTenth).toBeCloseTo(0.1, 2);
    expect(s.kurtosis).toBeLessThan(UNTAILED_KURTOSIS);
  });

  it("reads a minimum-jerk bell at about 2.3 and a lognormal pulse (a hand's primary submovement) at 3 or more, with a tail", () => {
    expect(spreadOverTime(reach(minJerk), 0, 60)!.kurtosis).toBeCloseTo(2.33, 1);
    const hand = spreadOverTime(reach(lognormal), 0, 60)!;
    expect(hand.kurtosis).toBeGreaterThan(3);
    expect(hand.lastTenth).toBeGreaterThan(UNTAILED_LAST_TENTH);
  });

  it('is null for a reach that never moved', () => {
    expect(
      spreadOverTime(
        reach(() => 0),
        0,
        60,
      ),
    ).toBeNull();
  });
});

describe('reachShapeMetrics', () => {
  it('counts a reach a press ended as untailed only when it is both flat and tail-less', () => {
    const shape = (p: MousePath, presses: number[][]) => reachShapeMetrics(p, aimedReachSpans(p, presses));
    const press = (p: MousePath) => [[p.t[p.n - 1]! + 150, p.x[p.n - 1]!, p.y[p.n - 1]!, 0]];
    const even = reach((u) => u);
    expect(shape(even, press(even))).toMatchObject({ reaches: 1, untailed: 1 });
    const hand = reach(lognormal);
    expect(shape(hand, press(hand))).toMatchObject({ reaches: 1, untailed: 0 });
    // A press far from where the movement stopped ends no reach.
    expect(shape(even, [[even.t[even.n - 1]! + 150, 5, 5, 0]]).reaches).toBe(0);
  });
});
