import { describe, expect, it } from 'vitest';
import { behaviorMetrics } from '../behavior-metrics.ts';
import { signalCatalogue } from '../signal-catalogue.ts';
import { baseFeatures } from '../test-fixtures.ts';
import { aiming } from './aiming.ts';
import { behavior } from './behavior.ts';
import { deviceEvidenceRisk } from './device-carry.ts';
import { reachesSwelled, swellSignals } from './reach-swell.ts';
import { recordedDecision, recordedSessions } from './recorded-pages.fixtures.ts';

const FILES = ['xdotool-paths.json', 'xdotool-paths-load.json'];
const sessions = (setup: string) =>
  FILES.flatMap((file) => recordedSessions(file)).filter((s) => s.setup === setup);
const features = (
  s: { mouse: number[][]; clicks: number[][] },
  over: Parameters<typeof baseFeatures>[0] = {},
) =>
  baseFeatures({
    surface: 'browser',
    has_behavior: true,
    behavior: behaviorMetrics({ mouse: s.mouse, click_samples: s.clicks, mouse_moves: s.mouse.length }),
    ...over,
  });

describe('mouse_reaches_swelled on pages recorded in real chromium (xdotool, eval:browsers)', () => {
  it('fires on every NaturalMouseMotion page and takes it out of allow, withholding behavior_humanlike', () => {
    const pages = sessions('xdotool-nmm');
    expect(pages).toHaveLength(6);
    for (const s of pages) {
      const f = features(s);
      expect(swellSignals(f).map((x) => [x.rule, x.score])).toEqual([['mouse_reaches_swelled', 30]]);
      expect(aiming.evaluate(f).map((x) => x.rule)).toContain('mouse_reaches_swelled');
      expect(behavior.evaluate(f).map((x) => x.rule)).not.toContain('behavior_humanlike');
      // A page's pointer tell is not carried to the device's next page.
      expect(deviceEvidenceRisk(swellSignals(f))).toBe(0);
      expect(recordedDecision(s).action).not.toBe('allow');
    }
  });

  it('fires on no page of the replayed person or of the other libraries', () => {
    for (const setup of ['person-pc1', 'xdotool-ghost', 'xdotool-windmouse', 'xdotool-humanize']) {
      const pages = sessions(setup);
      expect(pages.length).toBeGreaterThan(0);
      expect(pages.filter((s) => reachesSwelled(features(s))).length).toBe(0);
    }
  });

  it('abstains on touch and on a phone', () => {
    const [s] = sessions('xdotool-nmm');
    expect(reachesSwelled(features(s!))).toBe(true);
    expect(reachesSwelled(features(s!, { ua_mobile: true }))).toBe(false);
    const touched = features(s!);
    expect(reachesSwelled({ ...touched, behavior: { ...touched.behavior, touches: 3 } })).toBe(false);
  });

  it('is declared by the aiming family at +30 (signal catalogue, ruleset version)', () => {
    expect(aiming.rules.mouse_reaches_swelled?.score).toBe(30);
    expect(signalCatalogue().find((s) => s.name === 'mouse_reaches_swelled')).toMatchObject({
      family: 'aiming',
      score: 30,
      hard: false,
    });
  });
});
