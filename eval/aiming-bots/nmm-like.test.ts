import { describe, expect, it } from 'vitest';
import { recordedSessions } from '../../packages/server/src/scoring/signals/recorded-pages.fixtures.ts';
import type { DesktopStyle } from '../browsers/desktop-input.ts';
import { NMM_LIKE, nmmLike } from './nmm-like.ts';
import { scriptedPage } from './pages.ts';

const meets = async (style: DesktopStyle, pages: number) => {
  let hits = 0;
  for (let seed = 1; seed <= pages; seed++)
    if (nmmLike(await scriptedPage(style, 1000 * seed + 17)).meets) hits++;
  return hits;
};

describe('the unscored NaturalMouseMotion candidate (swell, long final approach, false target)', () => {
  it('holds on the NaturalMouseMotion-style pages and on none of the other libraries or the replayed person', async () => {
    // eval:aiming-bots, 100 pages each: 97, 0, 0, 0, 0.
    expect(await meets('nmm', 12)).toBeGreaterThanOrEqual(11);
    for (const style of ['ghost', 'windmouse', 'humanize', 'human'] as DesktopStyle[])
      expect(await meets(style, 12)).toBe(0);
  });

  it('reads each of its three properties off a NaturalMouseMotion page', async () => {
    const m = nmmLike(await scriptedPage('nmm', 1017));
    expect(m.primaries).toBeGreaterThanOrEqual(NMM_LIKE.minPrimaries);
    expect(m.medianResidual!).toBeLessThanOrEqual(NMM_LIKE.maxMedianResidual);
    expect(m.approachRatio!).toBeGreaterThanOrEqual(NMM_LIKE.minApproachRatio);
    expect(m.maxPrimaryOffset!).toBeGreaterThanOrEqual(NMM_LIKE.minPrimaryOffset);
  });

  it('holds on every NaturalMouseMotion page recorded in real chromium and on no other page there', () => {
    const held = (setup: string) =>
      ['xdotool-paths.json', 'xdotool-paths-load.json']
        .flatMap((file) => recordedSessions(file))
        .filter((s) => s.setup === setup)
        .map((s) => nmmLike({ mouse: s.mouse, click_samples: s.clicks }).meets);
    expect(held('xdotool-nmm')).toEqual([true, true, true, true, true, true]);
    for (const setup of ['xdotool-ghost', 'xdotool-windmouse', 'xdotool-humanize', 'person-pc1'])
      expect(held(setup).filter(Boolean)).toEqual([]);
  });
});
