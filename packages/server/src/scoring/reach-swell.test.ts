import { describe, expect, it } from 'vitest';
import { aimedReachSpans } from './aimed-reaches.ts';
import { readMousePath } from './mouse-path.ts';
import { primaryFit, reachSwellMetrics, SWELL_MAX_RESIDUAL, swelledPage, swellFit } from './reach-swell.ts';
import { recordedSessions } from './signals/recorded-pages.fixtures.ts';

/**
 * A movement from (100, 500) to (100 + d, 500) in 600 ms, a sample every 16 ms, whole pixels, its
 * position at completion c: c·d along, `side(c)·d` across (and `along(c)·d` further along).
 */
function movement(d: number, side: (c: number) => number, along: (c: number) => number = () => 0) {
  const samples: number[][] = [];
  for (let t = 0; t <= 600; t += 16) {
    const c = 0.5 - 0.5 * Math.cos((Math.PI * t) / 600); // eased, as a speed flow would be
    samples.push([1000 + t, Math.round(100 + d * (c + along(c))), Math.round(500 + d * side(c))]);
  }
  samples.push([1600, 100 + d, 500]);
  return samples;
}
const swell = (h: number) => (c: number) => (h * (1 - Math.cos(2 * Math.PI * c))) / 2;
/** A hand's reach: sets off at an angle and curves back (a parabola, its peak early). */
const handArc = (h: number) => (c: number) => h * 4 * c * (1 - c) * (1 - 0.6 * c);

describe('swellFit', () => {
  it("fits NaturalMouseMotion's deviation (one sinusoidal swell, its vector across and along the chord) within a pixel", () => {
    for (const d of [120, 400, 800]) {
      const path = readMousePath(movement(d, swell(0.08), swell(0.05)));
      const fit = swellFit(path, 0, path.n - 1)!;
      expect(fit.residual).toBeLessThan(SWELL_MAX_RESIDUAL / 2);
      expect(fit.height).toBeCloseTo(0.08, 1);
    }
  });

  it("leaves a hand's arc, set off at an angle and peaking early (9 % of the chord), further off than SWELL_MAX_RESIDUAL", () => {
    const path = readMousePath(movement(400, handArc(0.12)));
    expect(swellFit(path, 0, path.n - 1)!.residual).toBeGreaterThan(SWELL_MAX_RESIDUAL);
  });

  it('abstains under SWELL_MIN_PX of chord or SWELL_MIN_SAMPLES samples', () => {
    expect(swellFit(readMousePath(movement(30, swell(0.08))), 0, 30)).toBeNull();
    expect(swellFit(readMousePath(movement(400, swell(0.08))), 0, 5)).toBeNull();
  });
});

describe('primaryFit', () => {
  it('fits the primary up to its rest on a false target, not the correction after it', () => {
    const primary = movement(400, swell(0.08));
    const rest = primary[primary.length - 1]!;
    const correction: number[][] = [];
    for (let k = 1; k <= 12; k++) correction.push([rest[0]! + 80 + 25 * k, rest[1]! - k, rest[2]! + 2 * k]);
    const path = readMousePath([...primary, ...correction]);
    expect(primaryFit(path, 0, path.n - 1)!.residual).toBeLessThan(SWELL_MAX_RESIDUAL / 2);
    // Without the rest (the correction run on at once) the whole reach is judged, and strays.
    const run = readMousePath([...primary, ...correction.map(([t, x, y]) => [t! - 70, x!, y!])]);
    expect(primaryFit(run, 0, run.n - 1)!.residual).toBeGreaterThan(SWELL_MAX_RESIDUAL / 2);
  });
});

describe('reachSwellMetrics on pages recorded in chromium (xdotool, eval:browsers)', () => {
  const sessions = recordedSessions('xdotool-paths.json');
  const swelled = (setup: string) =>
    sessions
      .filter((s) => s.setup === setup)
      .map((s) => {
        const path = readMousePath(s.mouse);
        return swelledPage(reachSwellMetrics(path, aimedReachSpans(path, s.clicks)));
      });

  it('finds every NaturalMouseMotion-style page in one swell', () => {
    expect(swelled('xdotool-nmm')).toEqual([true, true, true, true, true, true]);
  });

  it('finds no replayed person, ghost-cursor or @extra/humanize page in one swell', () => {
    for (const setup of ['person-pc1', 'xdotool-ghost', 'xdotool-humanize'])
      expect(swelled(setup).every((s) => !s)).toBe(true);
  });
});
