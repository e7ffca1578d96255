import { describe, expect, it } from 'vitest';
import { behaviorMetrics } from '../behavior-metrics.ts';
import { baseFeatures } from '../test-fixtures.ts';
import { aiming } from './aiming.ts';
import { behavior } from './behavior.ts';
import { deviceEvidenceRisk } from './device-carry.ts';
import { cubicSignals, reachCubic } from './reach-cubic.ts';
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
 * A page of three reaches as the SDK records them (whole pixels, a sample per 16 ms or more),
 * each pressed 150 ms after it stopped. `hand`: a minimum-jerk primary submovement over 94 % of
 * the way timed by Fitts' law, then a slow correction over the rest (the smoothest a hand draws),
 * with a pixel of tremor; `library`: @extra/humanize's way, a cubic Bezier bowed off the line,
 * its points at even steps of the parameter, one every 12 ms.
 */
function page(kind: 'hand' | 'library') {
  const mouse: Sample[] = [[400, LEGS[0].from[0], LEGS[0].from[1]]];
  const clicks: number[][] = [];
  let t = 1000;
  let seed = 7;
  const tremor = () => {
    seed = (seed * 16807) % 2147483647;
    return (seed / 2147483647 - 0.5) * 1.6;
  };
  for (const { from, to } of LEGS) {
    const d = Math.hypot(to[0] - from[0], to[1] - from[1]);
    const nx = -(to[1] - from[1]) / d;
    const ny = (to[0] - from[0]) / d;
    const primary = 150 + 120 * Math.log2(d / 43 + 1);
    const mt = kind === 'hand' ? primary + 180 : 12 * Math.ceil((200 + 2 * d) / 12);
    const at = (ms: number): [number, number] => {
      if (kind === 'library') {
        // Anchors a third and two thirds of the way, bowed 15 % of the distance to one side.
        const u = ms / mt;
        const s = 3 * u * (1 - u) ** 2 * 0.2 + 3 * u ** 2 * (1 - u) * 0.55 + u ** 3;
        const bow = 0.15 * d * 3 * u * (1 - u);
        return [from[0] + (to[0] - from[0]) * s + nx * bow, from[1] + (to[1] - from[1]) * s + ny * bow];
      }
      const s = ms <= primary ? 0.94 * minJerk(ms / primary) : 0.94 + 0.06 * minJerk((ms - primary) / 180);
      return [from[0] + (to[0] - from[0]) * s + tremor(), from[1] + (to[1] - from[1]) * s + tremor()];
    };
    let last = Number.NEGATIVE_INFINITY;
    for (let ms = 12; ms <= mt; ms += 12) {
      if (ms - last < 16 && ms + 12 <= mt) continue;
      last = ms;
      const [x, y] = at(ms);
      mouse.push([t + ms, Math.round(x), Math.round(y)]);
    }
    t += mt + 150;
    clicks.push([t, to[0], to[1], 0]);
    t += 2500; // typing the field
  }
  return { mouse, click_samples: clicks, mouse_moves: mouse.length, clicks: clicks.length, key_presses: 30 };
}

const features = (evidence: Record<string, unknown>, over: Parameters<typeof baseFeatures>[0] = {}) =>
  baseFeatures({ surface: 'browser', has_behavior: true, behavior: behaviorMetrics(evidence), ...over });

describe('mouse_reach_cubic', () => {
  it("clears a hand's reaches, even the smoothest (minimum jerk and a correction)", () => {
    const f = features(page('hand'));
    expect(f.behavior.reach_cubic).toMatchObject({ fitted: 3, cubic: 0 });
    expect(cubicSignals(f)).toEqual([]);
  });

  it('flags a page whose reaches were Bezier curves stepped at even parameter steps, one per fixed interval', () => {
    const f = features(page('library'));
    expect(f.behavior.reach_cubic).toMatchObject({ fitted: 3, cubic: 3 });
    expect(cubicSignals(f).map((s) => [s.rule, s.score])).toEqual([['mouse_reaches_cubic', 30]]);
    // Declared and emitted by the aiming family (signal catalogue, ruleset version).
    expect(aiming.rules.mouse_reaches_cubic?.score).toBe(30);
    expect(aiming.rules.mouse_reach_cubic?.score).toBe(20);
    expect(aiming.evaluate(f).map((s) => s.rule)).toContain('mouse_reaches_cubic');
    // It withholds the behaviour trust, and a page's pointer tell is not carried to the device's next page.
    expect(behavior.evaluate(f).map((s) => s.rule)).not.toContain('behavior_humanlike');
    expect(deviceEvidenceRisk(cubicSignals(f))).toBe(0);
  });

  it('weighs one cubic reach among hand-drawn ones as soft (+20): a hand draws one as the odd exception', () => {
    const library = page('library');
    const hand = page('hand');
    const firstPress = library.click_samples[0]![0]!;
    const mixed = {
      ...hand,
      mouse: [
        ...library.mouse.filter(([t]) => t <= firstPress),
        ...hand.mouse.filter(([t]) => t > hand.click_samples[0]![0]!),
      ],
      click_samples: [library.click_samples[0]!, ...hand.click_samples.slice(1)],
    };
    const f = features(mixed);
    expect(f.behavior.reach_cubic).toMatchObject({ fitted: 3, cubic: 1 });
    expect(cubicSignals(f).map((s) => [s.rule, s.score])).toEqual([['mouse_reach_cubic', 20]]);
  });

  it('abstains on touch and on a phone', () => {
    const library = page('library');
    expect(reachCubic(features({ ...library, touches: 3 }))).toBe(false);
    expect(reachCubic(features(library, { ua_mobile: true }))).toBe(false);
  });
});

const RECORDED = { sessions: recordedSessions('xdotool-paths.json') };

describe('mouse_reach_cubic on pages recorded in real chromium', () => {
  it("flags @extra/humanize where chromium kept its steps' timing (and a ghost-cursor overshoot), never the replayed person", () => {
    const fired = (setup: string) => {
      const pages = RECORDED.sessions.filter((s) => s.setup === setup);
      return [
        pages.filter((s) => reachCubic(features({ mouse: s.mouse, click_samples: s.clicks }))).length,
        pages.length,
      ];
    };
    // A loaded browser stamps moves late: the residual grows past the pixel's rounding on most pages.
    expect(fired('xdotool-humanize')).toEqual([1, 6]);
    // ghost-cursor's far reach: its Bezier to the overshoot point, at its own steady timestamps, is a cubic before it turns back.
    expect(fired('xdotool-ghost')).toEqual([1, 6]);
    expect(fired('xdotool-windmouse')).toEqual([0, 9]);
    expect(fired('xdotool-nmm')).toEqual([0, 6]);
    expect(fired('person-pc1')).toEqual([0, 6]);
  });
});
