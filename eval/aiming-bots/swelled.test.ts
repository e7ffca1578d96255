import { describe, expect, it } from 'vitest';
import { behaviorMetrics } from '../../packages/server/src/scoring/behavior-metrics.ts';
import { REACH_SWELL } from '../../packages/server/src/scoring/signals/reach-swell.ts';
import type { DesktopStyle } from '../browsers/desktop-input.ts';
import { scoreLogin } from '../lib/people-robustness.ts';
import { scriptedPage } from './pages.ts';

/** Pages of a style (eval:aiming-bots' seeds) `mouse_reaches_swelled` caught, and those not allowed. */
const scored = async (style: DesktopStyle, pages: number) => {
  let caught = 0;
  let notAllowed = 0;
  for (let seed = 1; seed <= pages; seed++) {
    const s = scoreLogin(await scriptedPage(style, 1000 * seed + 17));
    if (s.signals.some((x) => x.rule === 'mouse_reaches_swelled')) caught++;
    if (s.action !== 'allow') notAllowed++;
  }
  return { caught, notAllowed };
};

describe('mouse_reaches_swelled on the generated pages of eval:aiming-bots', () => {
  it('catches the NaturalMouseMotion-style pages, which it takes out of allow', async () => {
    // eval:aiming-bots, 100 pages: 97 caught, 97 not allowed (0 without the rule).
    const nmm = await scored('nmm', 12);
    expect(nmm.caught).toBeGreaterThanOrEqual(11);
    expect(nmm.notAllowed).toBeGreaterThanOrEqual(11);
  });

  it('catches no page of the other libraries or of the replayed person', async () => {
    for (const style of ['ghost', 'windmouse', 'humanize', 'human'] as DesktopStyle[])
      expect((await scored(style, 12)).caught).toBe(0);
    // The replayed person stays allowed.
    expect((await scored('human', 12)).notAllowed).toBe(0);
  });

  it("reads each of its three properties off a NaturalMouseMotion page (the server's reach_swell)", async () => {
    const m = behaviorMetrics(await scriptedPage('nmm', 1017)).reach_swell;
    expect(m.reaches).toBeGreaterThanOrEqual(REACH_SWELL.minPrimaries);
    expect(m.median_residual!).toBeLessThanOrEqual(REACH_SWELL.maxMedianResidual);
    expect(m.max_residual!).toBeLessThanOrEqual(REACH_SWELL.maxResidual);
    expect(m.approach_ratio!).toBeGreaterThanOrEqual(REACH_SWELL.minApproachRatio);
    expect(m.max_primary_offset!).toBeGreaterThanOrEqual(REACH_SWELL.minPrimaryOffset);
  });
});
