import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ruleBudget } from '../../rules/budget.ts';
import { EMPTY_RULESET } from '../../rules/ruleset.ts';
import { behaviorMetrics } from '../behavior-metrics.ts';
import { decide } from '../decide-event.ts';
import { DEFAULT_FAMILIES, hardRules } from '../ruleset.ts';
import { baseFeatures } from '../test-fixtures.ts';
import { LONE_AIMING_TELLS } from './aiming-page.ts';

const RULES = {
  families: DEFAULT_FAMILIES,
  hard: hardRules(DEFAULT_FAMILIES),
  custom: EMPTY_RULESET,
  budget: ruleBudget(25, () => 0),
};

interface Session {
  setup: string;
  mouse: number[][];
  clicks: number[][];
  pointer_steps?: { moving: number; sparse: number } | null;
}

/** Decisions of the pages recorded in real chromium (loaded and unloaded machine). */
function decisions(file: string) {
  const rec = JSON.parse(readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8')) as {
    sessions: Session[];
  };
  return rec.sessions.map((s) => {
    const behavior = behaviorMetrics({
      mouse: s.mouse,
      click_samples: s.clicks,
      mouse_moves: s.mouse.length,
      clicks: s.clicks.length,
      ...(s.pointer_steps ? { pointer_steps: s.pointer_steps } : {}),
    });
    const features = baseFeatures({ surface: 'browser', has_behavior: true, behavior });
    return { setup: s.setup, d: decide({ features, event: {}, ip: '203.0.113.7' }, RULES).decision };
  });
}

describe('one aiming tell alone on pages recorded in real chromium', () => {
  const all = [...decisions('xdotool-paths.json'), ...decisions('xdotool-paths-load.json')];

  it('sends a page whose one aiming tell withholds the behaviour trust to review', () => {
    const lone = all.filter(({ d }) => d.signals.some((s) => s.rule === 'mouse_reaches_scripted_alone'));
    // Before, these were "allow 20": ghost-cursor and WindMouse on a loaded machine, humanize.
    expect(lone.map(({ setup, d }) => [setup, d.action, d.risk_score])).toEqual([
      ['xdotool-humanize', 'review', 30],
      ['xdotool-ghost', 'review', 30],
      ['xdotool-windmouse', 'review', 30],
    ]);
  });

  it('is added beside one aiming tell only, one of the three, to 30', () => {
    const aimingRules = /^mouse_reach|^mouse_speed_ignores_distance$/;
    for (const { d } of all) {
      if (!d.signals.some((s) => s.rule === 'mouse_reaches_scripted_alone')) continue;
      const tells = d.signals.filter(
        (s) => aimingRules.test(s.rule) && s.rule !== 'mouse_reaches_scripted_alone',
      );
      expect(tells).toHaveLength(1);
      expect(LONE_AIMING_TELLS.has(tells[0]?.rule ?? '')).toBe(true);
      expect(tells[0]?.score).toBe(20);
      expect(d.signals.find((s) => s.rule === 'mouse_reaches_scripted_alone')?.score).toBe(10);
    }
  });

  it('leaves the replayed people allowed', () => {
    const people = all.filter(({ setup }) => setup.startsWith('person-'));
    expect(people.length).toBe(42);
    expect(people.filter(({ d }) => d.action !== 'allow')).toEqual([]);
  });

  it('not allowed per library: ghost-cursor 13 of 24, WindMouse 22 of 27, humanize 5 of 6, NaturalMouseMotion 0 of 6', () => {
    // Before: 12, 21, 4 and 0.
    const notAllowed = (setup: string) =>
      all.filter((x) => x.setup === setup && x.d.action !== 'allow').length;
    expect(notAllowed('xdotool-ghost')).toBe(13);
    expect(notAllowed('xdotool-windmouse')).toBe(22);
    expect(notAllowed('xdotool-humanize')).toBe(5);
    expect(notAllowed('xdotool-nmm')).toBe(0);
  });
});
