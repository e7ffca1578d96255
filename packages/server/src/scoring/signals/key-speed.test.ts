import { describe, expect, it } from 'vitest';
import { HumanScript } from '../../../../../e2e/support/human-input.ts';
import {
  type KeySample,
  keyFeatures,
  LOADED_XDOTOOL,
  r1,
  scriptKeys,
  typingPerson,
} from '../../testing/key-samples.ts';
import { mulberry32 } from '../../testing/rng.ts';
import { behaviorMetrics } from '../behavior-metrics.ts';
import { keyFloor, keyRhythmSpread, keySpeed } from '../input-metrics.ts';
import { baseFeatures, humanKeys, humanPageFeatures } from '../test-fixtures.ts';
import { behavior } from './behavior.ts';
import { INPUT, input } from './input.ts';

const features = keyFeatures;

const rules = (keys: KeySample[], over: Record<string, unknown> = {}) =>
  input.evaluate(features(keys, over)).map((s) => s.rule);
const fires = (keys: KeySample[], over: Record<string, unknown> = {}) =>
  rules(keys, over).includes('key_speed_superhuman');

const person = (random: () => number, n: number, gap: number, hold: number) =>
  typingPerson(random, n, { gap, hold });

describe('key_speed_superhuman: typing faster than hands', () => {
  it('a real loaded xdotool visit: medians far under the limits; one cause, scored once', () => {
    const keys = LOADED_XDOTOOL.keys;
    expect(keyRhythmSpread(keys)).toBeGreaterThan(INPUT.keyRhythmSpread);
    const speed = keySpeed(keys);
    // Median gap 49.4 ms (54 gaps, the two chords left out), median hold 24.3 ms (56 holds).
    expect(speed).toEqual({ gaps: 54, gap_median: 49.4, holds: 56, hold_median: 24.3 });
    expect(speed!.gap_median).toBeLessThan(INPUT.speedGapMedianMs);
    expect(speed!.hold_median).toBeLessThan(INPUT.speedHoldMedianMs);
    // This visit kept 28 % of its timings on the floor, so key_rhythm_uniform fired and the speed
    // (the same cause) is not scored again.
    expect(rules(keys)).toContain('key_rhythm_uniform');
    expect(fires(keys)).toBe(false);
    // Had the floor drowned (every key-down and hold 0–8 ms later, at random: more load), the speed still tells.
    const random = mulberry32(3);
    const drowned = keys.map(([t, d]) => [r1(t! + 8 * random()), r1(d! + 8 * random())]);
    expect(keyFloor(drowned)!.share).toBeLessThan(INPUT.keyFloorShare);
    expect(rules(drowned)).not.toContain('key_rhythm_uniform');
    expect(fires(drowned)).toBe(true);
    // Phones and touch screens commit keys at once: not judged.
    expect(fires(drowned, { ua_mobile: true })).toBe(false);
    const touched = baseFeatures({
      surface: 'browser',
      behavior: { ...behaviorMetrics({ v: 1, key_samples: drowned, key_presses: keys.length }), touches: 3 },
    });
    expect(input.evaluate(touched).map((s) => s.rule)).not.toContain('key_speed_superhuman');
  });

  it('with instant mouse releases it makes two input tells: behavior_bot_combined', () => {
    const presses = { count: 3, quick: 3, median_ms: 4 };
    const random = mulberry32(3);
    const drowned = LOADED_XDOTOOL.keys.map(([t, d]) => [r1(t! + 8 * random()), r1(d! + 8 * random())]);
    const f = features(drowned, {}, { presses });
    expect(input.evaluate(f).map((s) => s.rule)).toEqual(
      expect.arrayContaining(['key_speed_superhuman', 'click_instant_release']),
    );
    expect(behavior.evaluate(f).map((s) => s.rule)).toContain('behavior_bot_combined');
    // Without the key evidence, the instant releases alone are one tell.
    const alone = features([], {}, { presses });
    expect(behavior.evaluate(alone).map((s) => s.rule)).not.toContain('behavior_bot_combined');
  });

  it('catches fixed delays under load too heavy for the floor test (generated)', () => {
    const random = mulberry32(90);
    let rhythmMisses = 0;
    let speedFires = 0;
    const runs = 200;
    for (let run = 0; run < runs; run++) {
      // `xdotool type --delay D`, D 60–110 ms: holds and gap halves of D/4, every sleep overrun by an
      // exponential 3–12 ms on average (no sleep ends on time, so no floor). Measured under such
      // load with D = 90: median gaps 47–70 ms, holds 22–40 ms.
      const delay = 60 + random() * 50;
      const mean = 3 + random() * 9;
      const late = () => -mean * Math.log(1 - random());
      const keys: KeySample[] = [];
      let t = 0;
      for (let k = 0; k < 30; k++) {
        const hold = delay / 4 + late();
        keys.push([r1(t), r1(hold)]);
        t += hold + delay / 4 + late();
      }
      const missed =
        keyRhythmSpread(keys)! >= INPUT.keyRhythmSpread && keyFloor(keys)!.share < INPUT.keyFloorShare;
      if (missed && !rules(keys).includes('key_rhythm_uniform')) rhythmMisses++;
      if (fires(keys)) speedFires++;
    }
    // key_rhythm_uniform (spread and floor) misses more than half of them (113 of 200); this
    // catches exactly those (where the rhythm test fired, the same cause is not scored twice).
    expect(rhythmMisses).toBeGreaterThan(runs / 2);
    expect(speedFires).toBe(rhythmMisses);
  });

  it('never fires on generated people, fast typists or short-holding ones included', () => {
    const random = mulberry32(238);
    let gapUnder = 0;
    let holdUnder = 0;
    for (let i = 0; i < 4000; i++) {
      // Realistic medians: gaps 120–400 ms (Dhakal et al. 2018: mean 239 ms), holds 60–130 ms.
      const keys = person(random, 20 + (i % 31), 120 + random() * 280, 60 + random() * 70);
      const speed = keySpeed(keys);
      expect(speed).not.toBeNull();
      if (speed!.gap_median < INPUT.speedGapMedianMs) gapUnder++;
      if (speed!.hold_median < INPUT.speedHoldMedianMs) holdUnder++;
      expect(fires(keys), JSON.stringify(speed)).toBe(false);
    }
    // Neither median comes near its limit alone (it would take a 200 wpm typist, or 30 ms holds).
    expect(gapUnder).toBe(0);
    expect(holdUnder).toBe(0);
    // A record typist (median gap 60 ms, ≈ 200 wpm) holds keys like a person: not judged superhuman.
    for (let i = 0; i < 500; i++) expect(fires(person(random, 30, 60, 70 + random() * 40))).toBe(false);
    // Short holds (a fast-release keyboard, 30–45 ms) at a human pace: not judged superhuman either.
    for (let i = 0; i < 500; i++)
      expect(fires(person(random, 30, 120 + random() * 200, 30 + random() * 15))).toBe(false);
  });

  it("HumanScript's typing (the benchmark's replayed person) is human speed", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const script = new HumanScript(seed).type('jane.doe@example.com').type('correct-horse-42');
      const keys = scriptKeys(script.lines);
      // Judged as the service judges them (sorted by down time: the SDK sends them in release order).
      const speed = features(keys).behavior.key_speed!;
      expect(speed.gap_median, `seed ${seed}`).toBeGreaterThan(INPUT.speedGapMedianMs);
      expect(fires(keys), `seed ${seed}`).toBe(false);
    }
  });

  it('short samples, missing samples and coarse clocks are not judged', () => {
    expect(keySpeed(LOADED_XDOTOOL.keys.slice(0, 19))).toBeNull();
    expect(fires(LOADED_XDOTOOL.keys.slice(0, 19))).toBe(false);
    // No key samples (older SDKs, server-side evidence): nothing to judge.
    expect(keySpeed([])).toBeNull();
    expect(features([]).behavior.key_speed).toBeNull();
    // Firefox resistFingerprinting: every timing on a 16⅔ ms step.
    const step = 50 / 3;
    const coarse = LOADED_XDOTOOL.keys.map(([t, d]) => [
      r1(Math.round(t! / step) * step),
      r1(Math.round(d! / step) * step),
    ]);
    expect(keySpeed(coarse)).toBeNull();
    expect(fires(coarse)).toBe(false);
  });

  it('auto-type (KeePass: down and up together, 10 ms apart) is left to key_dwell_inhuman', () => {
    const keys: KeySample[] = [];
    for (let k = 0; k < 30; k++) keys.push([r1(k * 10.4), r1((k % 3) * 0.3)]);
    expect(keySpeed(keys)).toBeNull();
    expect(rules(keys)).toContain('key_dwell_inhuman');
    expect(rules(keys)).not.toContain('key_speed_superhuman');
  });
});

describe('key_speed_superhuman and the trust of a human-looking page', () => {
  /** A person's mouse (DELBOT strokes) with the given key samples. */
  const rulesWith = (keys: KeySample[]) => {
    const f = humanPageFeatures({ key_samples: keys, key_presses: keys.length });
    return [...behavior.evaluate(f), ...input.evaluate(f)].map((s) => s.rule);
  };

  it('keys faster than hands type earn no behavior_humanlike, however human the mouse', () => {
    const random = mulberry32(5);
    const drowned = LOADED_XDOTOOL.keys.map(([t, d]) => [r1(t! + 8 * random()), r1(d! + 8 * random())]);
    const rules = rulesWith(drowned);
    expect(rules).toContain('key_speed_superhuman');
    expect(rules).not.toContain('behavior_humanlike');
    expect(rulesWith(humanKeys(5, 24, 2000))).toContain('behavior_humanlike');
  });
});
