import { describe, expect, it } from 'vitest';
import { behaviorMetrics } from '../behavior-metrics.ts';
import { baseFeatures } from '../test-fixtures.ts';
import { aiming } from './aiming.ts';
import { deviceEvidenceRisk } from './device-carry.ts';
import { REACH_SHAPE, reachesUntailed, untailedSignals } from './reach-shape.ts';
import { recordedSessions } from './recorded-pages.fixtures.ts';

type Sample = [number, number, number];

/** A sign-in form's legs: from the page to the e-mail field, to the password, to the button. */
const LEGS = [
  { from: [300, 600], to: [1020, 180] },
  { from: [1020, 180], to: [1000, 270] },
  { from: [1000, 270], to: [1040, 370] },
] as const;

const minJerk = (u: number) => 10 * u ** 3 - 15 * u ** 4 + 6 * u ** 5;

/**
 * A page of three reaches as the SDK records them (a sample per `intervalMs`), each pressed
 * 150 ms after it stopped. `hand`: a primary submovement from rest over 94 % of the distance
 * (minimum jerk) timed by Fitts' law, then a slow corrective one over the last 6 % in 180 ms;
 * `library`: ghost-cursor's way, a bowed curve stepped at one pace (its share of the path
 * proportional to the time), 1.1–0.55 px/ms.
 */
function page(kind: 'hand' | 'library', intervalMs = 16) {
  const mouse: Sample[] = [[400, LEGS[0].from[0], LEGS[0].from[1]]];
  const clicks: number[][] = [];
  let t = 1000;
  for (const [leg, { from, to }] of LEGS.entries()) {
    const d = Math.hypot(to[0] - from[0], to[1] - from[1]);
    const primary = 150 + 120 * Math.log2(d / 43 + 1);
    const mt = kind === 'hand' ? primary + 180 : d / [1.1, 0.55, 0.6][leg]!;
    const covered = (ms: number) =>
      kind === 'library'
        ? ms / mt
        : ms <= primary
          ? 0.94 * minJerk(ms / primary)
          : 0.94 + 0.06 * minJerk((ms - primary) / 180);
    const steps = Math.ceil(mt / intervalMs);
    const nx = -(to[1] - from[1]) / d;
    const ny = (to[0] - from[0]) / d;
    for (let i = 1; i <= steps; i++) {
      const s = covered((i / steps) * mt);
      const bow = 0.05 * d * Math.sin(Math.PI * s);
      mouse.push([
        Math.round(t + (i / steps) * mt),
        Math.round(from[0] + (to[0] - from[0]) * s + nx * bow),
        Math.round(from[1] + (to[1] - from[1]) * s + ny * bow),
      ]);
    }
    t += mt + 150;
    clicks.push([Math.round(t), to[0], to[1], 0]);
    t += 2500; // typing the field
  }
  return { mouse, click_samples: clicks, mouse_moves: mouse.length, clicks: clicks.length, keys: 30 };
}

const features = (evidence: Record<string, unknown>, over: Parameters<typeof baseFeatures>[0] = {}) =>
  baseFeatures({ surface: 'browser', has_behavior: true, behavior: behaviorMetrics(evidence), ...over });

describe('mouse_reaches_untailed', () => {
  it("clears a hand's reaches: each piles its path up early and trails off into the target", () => {
    const f = features(page('hand'));
    expect(f.behavior.reach_shape.reaches).toBe(3);
    expect(f.behavior.reach_shape.untailed).toBe(0);
    expect(untailedSignals(f)).toEqual([]);
    expect(aiming.evaluate(f)).toEqual([]);
  });

  it('flags a page whose every reach covered its path evenly over time', () => {
    const f = features(page('library'));
    expect(f.behavior.reach_shape).toMatchObject({ reaches: 3, untailed: 3 });
    expect(untailedSignals(f).map((s) => [s.rule, s.score])).toEqual([['mouse_reaches_untailed', 20]]);
    // Declared and emitted by the aiming family (signal catalogue, ruleset version).
    expect(aiming.rules.mouse_reaches_untailed?.score).toBe(20);
    expect(aiming.evaluate(f).map((s) => s.rule)).toContain('mouse_reaches_untailed');
    // A page's pointer tell is not carried to the device's next page.
    expect(deviceEvidenceRisk(untailedSignals(f))).toBe(0);
  });

  it("judges the page, not a stroke: one hand's reach among the library's clears it", () => {
    const library = page('library');
    const hand = page('hand');
    const firstPress = hand.click_samples[0]![0]!;
    const mixed = {
      ...library,
      mouse: [
        ...hand.mouse.filter(([t]) => t <= firstPress),
        ...library.mouse.filter(([t]) => t > library.click_samples[0]![0]!),
      ],
      click_samples: [hand.click_samples[0]!, ...library.click_samples.slice(1)],
    };
    const f = features(mixed);
    expect(f.behavior.reach_shape).toMatchObject({ reaches: 3, untailed: 2 });
    expect(reachesUntailed(f)).toBe(false);
  });

  it('abstains on touch, on a phone, under three reaches and on sampling slower than 80 ms', () => {
    const library = page('library');
    expect(reachesUntailed(features({ ...library, touches: 3 }))).toBe(false);
    expect(reachesUntailed(features(library, { ua_mobile: true }))).toBe(false);
    expect(reachesUntailed(features({ ...library, click_samples: library.click_samples.slice(0, 2) }))).toBe(
      false,
    );
    const sparse = features(page('library', 95));
    expect(sparse.behavior.aiming.median_interval_ms).toBeGreaterThan(REACH_SHAPE.maxIntervalMs);
    expect(reachesUntailed(sparse)).toBe(false);
  });
});

/**
 * Pointer moves and presses recorded in real chromium on Xvfb by the benchmark's probe (xdotool
 * driving the npm path libraries, and the replayed person), as the SDK sends them.
 */
const RECORDED = { sessions: recordedSessions('xdotool-paths.json') };

describe('mouse_reaches_untailed on pages recorded in real chromium', () => {
  it("flags ghost-cursor's and @extra/humanize's pages, never the replayed person (nor NaturalMouseMotion's: it trails off)", () => {
    const fired = (setup: string) => {
      const pages = RECORDED.sessions.filter((s) => s.setup === setup);
      return [
        pages.filter((s) => reachesUntailed(features({ mouse: s.mouse, click_samples: s.clicks }))).length,
        pages.length,
      ];
    };
    // 5 before its far reach was read up to where it turned back as well (reach-primary.ts).
    expect(fired('xdotool-ghost')).toEqual([6, 6]);
    expect(fired('xdotool-humanize')).toEqual([3, 6]);
    expect(fired('xdotool-windmouse')).toEqual([1, 9]);
    expect(fired('xdotool-nmm')).toEqual([0, 6]);
    expect(fired('person-pc1')).toEqual([0, 6]);
  });
});
