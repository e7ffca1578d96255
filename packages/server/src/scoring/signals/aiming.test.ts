import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { behaviorMetrics } from '../behavior-metrics.ts';
import { baseFeatures } from '../test-fixtures.ts';
import { AIMING, aiming, reachesOnePace, reachesUnbraked, reachesUnshaped } from './aiming.ts';
import { behavior } from './behavior.ts';

type Sample = [number, number, number];
type Leg = { from: [number, number]; to: [number, number] };

/** A sign-in form's legs: from the page to the e-mail field, to the password, to the button. */
const LEGS: Leg[] = [
  { from: [300, 600], to: [1020, 180] },
  { from: [1020, 180], to: [1000, 270] },
  { from: [1000, 270], to: [1040, 370] },
];

/**
 * A page of reaches as the SDK records them (a sample per 16 ms, or per `intervalMs`), each
 * pressed 150 ms after it stopped. `hand`: a primary submovement from rest covering 94 % of the
 * distance (minimum jerk: a bell-shaped speed) timed by Fitts' law, MT = 150 + 120·log2(D/43 + 1)
 * ms, then a slow corrective one (the last 6 % in 180 ms), as people aim (Meyer et al.'s optimised
 * submovements); `machine`: one speed per leg (`speeds`, px/ms; 0.6 whatever the length, as
 * WindMouse steps), the last `braking` legs braking into their targets, every third sample
 * `lateMs` late.
 */
function page(
  kind: 'hand' | 'machine',
  intervalMs = 16,
  speeds = [0.6, 0.6, 0.6],
  braking = 0,
  /** Every third sample delivered this much late (a browser's frames: a step late, the next one early). */
  lateMs = 0,
) {
  const mouse: Sample[] = [];
  const clicks: number[][] = [];
  const minJerk = (u: number) => 10 * u ** 3 - 15 * u ** 4 + 6 * u ** 5;
  let t = 1000;
  for (const [leg, { from, to }] of LEGS.entries()) {
    const d = Math.hypot(to[0] - from[0], to[1] - from[1]);
    const primary = 150 + 120 * Math.log2(d / 43 + 1);
    const mt = kind === 'hand' ? primary + 180 : d / speeds[leg]!;
    const brake = leg >= LEGS.length - braking;
    /** Share of the distance covered at `ms` into the reach. */
    const covered = (ms: number) =>
      kind === 'machine'
        ? brake
          ? 1 - (1 - ms / mt) ** 2
          : ms / mt
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
        Math.round(t + (i / steps) * mt + (i % 3 === 1 && i < steps ? lateMs : 0)),
        Math.round(from[0] + (to[0] - from[0]) * s + nx * bow),
        Math.round(from[1] + (to[1] - from[1]) * s + ny * bow),
      ]);
    }
    t += mt + 150;
    clicks.push([Math.round(t), to[0], to[1], 0]);
    t += 2500; // typing the field
  }
  // The pointer rests where the page's first reach starts.
  mouse.unshift([400, LEGS[0]!.from[0], LEGS[0]!.from[1]]);
  return { mouse, click_samples: clicks, mouse_moves: mouse.length, clicks: clicks.length };
}

const features = (evidence: Record<string, unknown>, over: Parameters<typeof baseFeatures>[0] = {}) =>
  baseFeatures({ surface: 'browser', has_behavior: true, behavior: behaviorMetrics(evidence), ...over });

describe('mouse_reaches_one_pace', () => {
  it("clears a hand's reaches: each sets off from rest and peaks, and longer reaches are faster", () => {
    const f = features(page('hand'));
    expect(f.behavior.aiming.reaches).toBe(3);
    expect(f.behavior.aiming.handlike).toBe(3);
    expect(f.behavior.aiming.length_ratio).toBeGreaterThan(AIMING.minLengthRatio);
    expect(f.behavior.aiming.speed_slope).toBeGreaterThan(AIMING.maxSpeedSlope);
    expect(reachesOnePace(f)).toBe(false);
    expect(aiming.evaluate(f)).toEqual([]);
  });

  it('flags the same reaches at one speed whatever their length, and withholds behavior_humanlike', () => {
    // Two of them brake into their targets, so only the speed against length tells (not mouse_reaches_unbraked).
    const f = features(page('machine', 16, [0.6, 0.6, 0.6], 2));
    expect(f.behavior.aiming.handlike).toBe(0);
    expect(Math.abs(f.behavior.aiming.speed_slope ?? 1)).toBeLessThan(0.1);
    expect(aiming.evaluate(f).map((s) => [s.rule, s.score])).toEqual([
      ['mouse_reaches_unshaped', 20],
      ['mouse_reaches_one_pace', 20],
      // The braking legs ease out as a quadratic in time: polynomial to the pixel (reach-cubic.ts).
      ['mouse_reaches_cubic', 30],
    ]);
    expect(behavior.evaluate(f).map((s) => s.rule)).not.toContain('behavior_humanlike');
  });

  it('with speed growing a little with length, flags only reaches that all set off and arrive at speed', () => {
    // ghost-cursor: one speed per reach; here the long reach is drawn faster (slope ≈ 0.3).
    const speeds = [1.1, 0.55, 0.6];
    const flat = features(page('machine', 16, speeds));
    const slope = flat.behavior.aiming.speed_slope ?? 0;
    expect(slope).toBeGreaterThan(AIMING.flatSpeedSlope);
    expect(slope).toBeLessThan(AIMING.maxSpeedSlope);
    expect(flat.behavior.aiming.abrupt).toBe(3);
    expect(reachesOnePace(flat)).toBe(true);
    const braking = features(page('machine', 16, speeds, 1));
    expect(braking.behavior.aiming.abrupt).toBe(2);
    expect(reachesOnePace(braking)).toBe(false);
  });

  it('abstains on touch, on a phone, under three reaches and on sampling at 25 Hz or slower', () => {
    const machine = page('machine');
    expect(reachesOnePace(features({ ...machine, touches: 3 }))).toBe(false);
    expect(reachesOnePace(features(machine, { ua_mobile: true }))).toBe(false);
    const two = { ...machine, click_samples: machine.click_samples.slice(0, 2) };
    expect(features(two).behavior.aiming.reaches).toBe(2);
    expect(reachesOnePace(features(two))).toBe(false);
    const sparse = features(page('machine', 50));
    expect(sparse.behavior.aiming.median_interval_ms).toBeGreaterThan(AIMING.maxIntervalMs);
    expect(reachesOnePace(sparse)).toBe(false);
  });

  it('judges only reaches a press ended where the pointer stopped', () => {
    const machine = page('machine');
    // Presses far from where the movements stopped (keyboard-driven or scripted clicks): no reach.
    const away = machine.click_samples.map(([t]) => [t!, 5, 5, 0]);
    expect(features({ ...machine, click_samples: away }).behavior.aiming.reaches).toBe(0);
  });
});

describe('mouse_reaches_unshaped', () => {
  it("clears a page whose reaches are a hand's: from rest to a peak inside the movement, braked", () => {
    const f = features(page('hand'));
    expect(f.behavior.aiming.bells).toBe(3);
    expect(reachesUnshaped(f)).toBe(false);
  });

  it('flags a page with no such reach (one speed, or braking from the first sample)', () => {
    for (const braking of [0, 3]) {
      const f = features(page('machine', 16, [1.1, 0.55, 0.6], braking));
      expect(f.behavior.aiming.bells).toBe(0);
      expect(reachesUnshaped(f)).toBe(true);
      expect(aiming.evaluate(f).map((s) => s.rule)).toContain('mouse_reaches_unshaped');
    }
  });

  it("judges the page, not a stroke: one hand's reach among machine ones clears it", () => {
    const machine = page('machine', 16, [1.1, 0.55, 0.6]);
    const hand = page('hand');
    // The hand's first reach (to the e-mail field) in place of the machine's.
    const firstPress = hand.click_samples[0]![0]!;
    const mixed = {
      ...machine,
      mouse: [
        ...hand.mouse.filter(([t]) => t <= firstPress),
        ...machine.mouse.filter(([t]) => t > firstPress + 2500),
      ],
      click_samples: [hand.click_samples[0]!, ...machine.click_samples.slice(1)],
    };
    const f = features(mixed);
    expect(f.behavior.aiming.reaches).toBe(3);
    expect(f.behavior.aiming.bells).toBe(1);
    expect(reachesUnshaped(f)).toBe(false);
  });

  it('where the pointer moved in jumps, asks only for a peak and braking, up to 120 ms between positions', () => {
    const jumps = (evidence: ReturnType<typeof page>) => ({
      ...evidence,
      pointer_steps: { moving: evidence.mouse.length, sparse: evidence.mouse.length },
    });
    // A hand seen every 94 ms (a remote desktop): the first position may already hold the peak.
    const remote = features(jumps(page('hand', 94)));
    expect(remote.behavior.aiming.median_interval_ms).toBeGreaterThan(AIMING.maxIntervalMs);
    expect(remote.behavior.aiming.braked_peaks).toBe(3);
    expect(reachesUnshaped(remote)).toBe(false);
    // A script stepping every 60 ms at one speed per reach (ghost-cursor's own timestamps).
    const script = features(jumps(page('machine', 60, [0.5, 0.2, 0.2])));
    expect(script.behavior.aiming.braked_peaks).toBe(0);
    expect(reachesUnshaped(script)).toBe(true);
    // Without jumps, 60 ms sampling is too coarse to judge.
    expect(reachesUnshaped(features(page('machine', 60, [0.5, 0.2, 0.2])))).toBe(false);
  });

  it('abstains on touch, on a phone, under three reaches', () => {
    const machine = page('machine', 16, [1.1, 0.55, 0.6]);
    expect(reachesUnshaped(features({ ...machine, touches: 3 }))).toBe(false);
    expect(reachesUnshaped(features(machine, { ua_mobile: true }))).toBe(false);
    expect(reachesUnshaped(features({ ...machine, click_samples: machine.click_samples.slice(0, 2) }))).toBe(
      false,
    );
  });
});

describe('mouse_reaches_unbraked', () => {
  it("clears a hand's reaches: each brakes into its target", () => {
    const f = features(page('hand'));
    expect(f.behavior.aiming.arrived).toBe(0);
    expect(reachesUnbraked(f)).toBe(false);
  });

  it('flags reaches that run into their targets even when longer ones are drawn faster', () => {
    // @extra/humanize: a step count by Fitts' law at one interval per step, so speed grows with
    // length (slope ≈ 0.8, over what mouse_reaches_one_pace allows), and no reach brakes.
    const f = features(page('machine', 16, [1.6, 0.45, 0.5]));
    expect(f.behavior.aiming.speed_slope).toBeGreaterThan(AIMING.maxSpeedSlope);
    expect(f.behavior.aiming.arrived).toBe(3);
    expect(reachesOnePace(f)).toBe(false);
    expect(aiming.evaluate(f).map((s) => [s.rule, s.score])).toEqual([
      ['mouse_reaches_unshaped', 20],
      ['mouse_reaches_unbraked', 20],
      // Each reach at one speed: the path covered evenly over time (reach-shape.ts).
      ['mouse_reaches_untailed', 20],
    ]);
    expect(behavior.evaluate(f).map((s) => s.rule)).not.toContain('behavior_humanlike');
  });

  it("judges arrival over several intervals, so a browser's late and early samples do not hide it", () => {
    // A sample 10 ms late makes the next interval 2.7 times as fast as the reach: a single
    // interval's peak would be that, and no arrival at cruising speed would reach 70 % of it.
    const f = features(page('machine', 16, [1.6, 0.45, 0.5], 0, 10));
    expect(f.behavior.aiming.arrived).toBe(3);
    expect(reachesUnbraked(f)).toBe(true);
  });

  it('forgives one braked reach (an overshoot corrected), not two', () => {
    const speeds = [1.6, 0.45, 0.5];
    const one = features(page('machine', 16, speeds, 1));
    expect(one.behavior.aiming.arrived).toBe(2);
    expect(reachesUnbraked(one)).toBe(true);
    const two = features(page('machine', 16, speeds, 2));
    expect(two.behavior.aiming.arrived).toBe(1);
    expect(reachesUnbraked(two)).toBe(false);
  });

  it('abstains where mouse_reaches_one_pace does: touch, a phone, two reaches, 25 Hz sampling', () => {
    const machine = page('machine');
    expect(reachesUnbraked(features(machine))).toBe(true);
    expect(reachesUnbraked(features({ ...machine, touches: 3 }))).toBe(false);
    expect(reachesUnbraked(features(machine, { ua_mobile: true }))).toBe(false);
    expect(reachesUnbraked(features({ ...machine, click_samples: machine.click_samples.slice(0, 2) }))).toBe(
      false,
    );
    expect(reachesUnbraked(features(page('machine', 50)))).toBe(false);
  });
});

/**
 * Pointer moves and presses recorded in real chromium on Xvfb by the benchmark's probe (xdotool
 * driving the npm path libraries, and the replayed person), as the SDK sends them.
 */
const RECORDED = JSON.parse(
  readFileSync(new URL('./fixtures/xdotool-paths.json', import.meta.url), 'utf8'),
) as { sessions: Array<{ setup: string; mouse: Sample[]; clicks: Sample[] }> };

describe('mouse_reaches_one_pace on pages recorded in real chromium', () => {
  const fired = (setup: string) => {
    const pages = RECORDED.sessions.filter((s) => s.setup === setup);
    const hits = pages.filter((s) => reachesOnePace(features({ mouse: s.mouse, click_samples: s.clicks })));
    return [hits.length, pages.length];
  };

  it('catches WindMouse and ghost-cursor pages, never the replayed person', () => {
    // 8 of 9 since peaks are read held over ~48 ms and stalls are taken out (reach-stalls.ts): 7 before.
    expect(fired('xdotool-windmouse')).toEqual([8, 9]);
    // 5 of 6 since mouse_reaches_untailed (reach-shape.ts) lets it judge ghost-cursor's 45–48 ms steps.
    expect(fired('xdotool-ghost')).toEqual([5, 6]);
    expect(fired('person-pc1')).toEqual([0, 6]);
  });

  it('mouse_reaches_unshaped finds no hand-shaped reach on the libraries’ pages, abstains on the replayed person', () => {
    const unshaped = (setup: string) => {
      const pages = RECORDED.sessions.filter((s) => s.setup === setup);
      const hits = pages.filter((s) =>
        reachesUnshaped(features({ mouse: s.mouse, click_samples: s.clicks })),
      );
      return [hits.length, pages.length];
    };
    expect(unshaped('xdotool-ghost')).toEqual([4, 6]);
    expect(unshaped('xdotool-humanize')).toEqual([4, 6]);
    // 6 of 9 since a single fast interval no longer reads as a hand's peak (2 before).
    expect(unshaped('xdotool-windmouse')).toEqual([6, 9]);
    expect(unshaped('xdotool-nmm')).toEqual([0, 6]);
    expect(unshaped('person-pc1')).toEqual([0, 6]);
  });
});
