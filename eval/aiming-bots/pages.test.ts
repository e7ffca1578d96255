import { describe, expect, it } from 'vitest';
import { behaviorMetrics } from '../../packages/server/src/scoring/behavior-metrics.ts';
import { reachesOnePace, reachesUnbraked } from '../../packages/server/src/scoring/signals/aiming.ts';
import { baseFeatures } from '../../packages/server/src/scoring/test-fixtures.ts';
import type { DesktopStyle } from '../browsers/desktop-input.ts';
import { humanDesktop } from '../lib/devices.ts';
import { humanDesktopForm } from '../lib/human.ts';
import { pickLocale } from '../lib/locales.ts';
import { BrowserPage } from '../lib/page.ts';
import { scoreLogin } from '../lib/people-robustness.ts';
import { Rng } from '../lib/rng.ts';
import { loadTraceLibrary } from '../lib/traces.ts';
import { SHOP_LAYOUT, scriptedPage } from './pages.ts';
import { recordScript } from './virtual-desktop.ts';

type Tell = typeof reachesOnePace;
const fires = async (style: DesktopStyle, pages: number, tell: Tell = reachesOnePace) => {
  let hits = 0;
  for (let seed = 1; seed <= pages; seed++) {
    const behavior = behaviorMetrics(await scriptedPage(style, 1000 * seed + 17));
    if (tell(baseFeatures({ surface: 'browser', has_behavior: true, behavior }))) hits++;
  }
  return hits;
};

describe('the npm path libraries on the form, as the SDK records them', () => {
  it('mouse_reaches_one_pace catches WindMouse on nearly every page and ghost-cursor on most', async () => {
    expect(await fires('windmouse', 20)).toBeGreaterThanOrEqual(19);
    expect(await fires('ghost', 20)).toBeGreaterThanOrEqual(10);
  });

  it('mouse_reaches_unbraked catches ghost-cursor on most pages and @extra/humanize on many', async () => {
    // Measured 18 and 10 of 20.
    expect(await fires('ghost', 20, reachesUnbraked)).toBeGreaterThanOrEqual(12);
    expect(await fires('humanize', 20, reachesUnbraked)).toBeGreaterThanOrEqual(6);
  });

  it('never flags the replayed person of eval:browsers', async () => {
    expect(await fires('human', 30)).toBe(0);
    expect(await fires('human', 30, reachesUnbraked)).toBe(0);
  });
});

describe("npm run eval's desktop people (DELBOT strokes carried onto a form)", () => {
  it('the soft tell fires on few of their logins and alone never costs one an allow', () => {
    const traces = loadTraceLibrary().human;
    let fired = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const rng = new Rng(seed);
      const page = new BrowserPage(humanDesktop(rng, pickLocale(rng)), '198.51.100.7', 0, rng);
      const submit = humanDesktopForm(page, rng, traces, { typing: [18, 11] });
      const scored = scoreLogin(page.rec.snapshot(submit));
      const tells = scored.signals.filter((s) => s.score > 0).map((s) => s.rule);
      if (!tells.includes('mouse_reaches_one_pace')) continue;
      fired++;
      if (tells.length === 1) expect(scored.action, `seed ${seed}`).toBe('allow');
    }
    expect(fired).toBeLessThanOrEqual(6);
  });
});

describe('recordScript (an xdotool script on a virtual desktop)', () => {
  it('turns moves, presses and keys into the SDK evidence, in page pixels and page time', () => {
    const { x, y } = SHOP_LAYOUT.content;
    const ev = recordScript(
      [
        `mousemove ${x + 10} ${y + 20}`,
        'sleep 0.0200',
        `mousemove ${x + 30} ${y + 20}`,
        'sleep 0.1000',
        'mousedown 1',
        'sleep 0.0800',
        'mouseup 1',
        'keydown a',
        'sleep 0.0900',
        'keyup a',
      ],
      SHOP_LAYOUT,
      0,
    );
    expect(ev.mouse).toEqual([
      [500, 10, 20],
      [520, 30, 20],
    ]);
    expect(ev.click_samples).toEqual([[620, 30, 20, 0]]);
    expect(ev.presses).toMatchObject({ count: 1, quick: 0, median_ms: 80 });
    expect(ev.key_samples).toEqual([[700, 90]]);
  });
});
