import { describe, expect, it } from 'vitest';
import { LONE_AIMING_TELLS } from './aiming-page.ts';
import { recordedDecision, recordedSessions } from './recorded-pages.fixtures.ts';

/** Decisions of the pages recorded in real chromium (loaded and unloaded machine). */
function decisions(file: string) {
  return recordedSessions(file).map((s) => ({ setup: s.setup, d: recordedDecision(s) }));
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
    expect(people.length).toBe(24);
    expect(people.filter(({ d }) => d.action !== 'allow')).toEqual([]);
  });

  it('not allowed per library: ghost-cursor 20 of 24, WindMouse 22 of 27, humanize 5 of 6, NaturalMouseMotion 6 of 6', () => {
    // Before: 12, 21, 4 and 0; ghost-cursor 13 before its reaches split by a stall were judged
    // whole (reach-stalls.ts), 17 before a reach that turned back was read up to the turn as well
    // (reach-primary.ts); NaturalMouseMotion 0 of 6 before mouse_reaches_swelled (reach-swell.test.ts).
    const notAllowed = (setup: string) =>
      all.filter((x) => x.setup === setup && x.d.action !== 'allow').length;
    expect(notAllowed('xdotool-ghost')).toBe(20);
    expect(notAllowed('xdotool-windmouse')).toBe(22);
    expect(notAllowed('xdotool-humanize')).toBe(5);
    expect(notAllowed('xdotool-nmm')).toBe(6);
  });
});
