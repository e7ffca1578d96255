import { describe, expect, it } from 'vitest';
import { behaviorMetrics } from '../behavior-metrics.ts';
import { baseFeatures } from '../test-fixtures.ts';
import { reachTimeIgnoresDistance, TIME_FIT } from './aiming-time.ts';

/** A judged page (three directed reaches, 6.5× apart, sampled at 17 ms) with the given time fit. */
function page(exponent: number, se: number) {
  const behavior = behaviorMetrics({ mouse: [], click_samples: [] });
  return baseFeatures({
    surface: 'browser',
    behavior: {
      ...behavior,
      aiming: {
        ...behavior.aiming,
        reaches: 3,
        length_ratio: 6.5,
        median_interval_ms: 17,
        time_fit: { exponent, se },
      },
    },
  });
}

describe('mouse_speed_ignores_distance on the page (reachTimeIgnoresDistance)', () => {
  it('fires when the time exponent less one standard error reaches the limit (WindMouse: 0.98 ± 0.16 in chromium)', () => {
    expect(reachTimeIgnoresDistance(page(0.98, 0.16))).toBe(true);
    // A person whose exponent is as high scatters about the line.
    expect(reachTimeIgnoresDistance(page(1.03, 0.3))).toBe(false);
  });

  it('lowers the bar to TIME_FIT.pairedExponent where a stroke pair cruised at one speed (WindMouse on a loaded machine: 0.77 ± 0.29)', () => {
    expect(reachTimeIgnoresDistance(page(0.77, 0.29))).toBe(false);
    expect(reachTimeIgnoresDistance(page(0.77, 0.29), true)).toBe(true);
    // A person timed by Fitts' law: exponent near 0.45, stroke pair or not.
    expect(reachTimeIgnoresDistance(page(0.5, 0.05), true)).toBe(false);
    expect(TIME_FIT.pairedExponent).toBeGreaterThan(0.45);
  });

  it('abstains on touch and on slow sampling', () => {
    const touch = page(1, 0);
    touch.behavior = { ...touch.behavior, touches: 3 };
    expect(reachTimeIgnoresDistance(touch)).toBe(false);
    const slow = page(1, 0);
    slow.behavior = { ...slow.behavior, aiming: { ...slow.behavior.aiming, median_interval_ms: 94 } };
    expect(reachTimeIgnoresDistance(slow)).toBe(false);
  });
});
