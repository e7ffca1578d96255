import type { Signal } from '../engine-types.ts';
import type { Features } from '../features.ts';
import { emit, type SignalFamily } from './types.ts';

/** Input mechanics on desktops (no touch): see docs/signals.md. */
export const INPUT = {
  /** Clicks needed before "no pointer approach" counts. */
  minClicks: 2,
  /** Keys needed before the dwell check counts, and the share held under FAST_DWELL_MS. */
  minKeys: 5,
  fastDwellShare: 0.5,
};

/** Desktop pointer and keyboard: phones and touch screens tap without moves and commit keys at once. */
function desktop(f: Features): boolean {
  return !f.ua_mobile && f.behavior.present && f.behavior.touches === 0;
}

/** Clicks that arrive with no pointer movement towards them (page.click(), element teleports). */
export function clicksWithoutApproach(f: Features): boolean {
  const b = f.behavior;
  return desktop(f) && b.clicks >= INPUT.minClicks && b.mouse_moves <= b.clicks;
}

/** Keys released within a few milliseconds (synthetic keydown/keyup pairs). */
export function inhumanKeyDwell(f: Features): boolean {
  const b = f.behavior;
  return desktop(f) && b.key_samples >= INPUT.minKeys && b.key_fast_dwell >= INPUT.fastDwellShare;
}

/** How the pointer reached the clicks and how long keys were held. */
export const input: SignalFamily = {
  name: 'input',
  rules: {
    click_without_movement: {
      score: 35,
      description:
        'Desktop clicks without pointer movement towards them (at most one move per click): clicks dispatched by a script.',
    },
    key_dwell_inhuman: {
      score: 35,
      description: 'Most keys were released within 10 ms of being pressed: synthetic key events.',
    },
  },
  evaluate(f) {
    const out: Signal[] = [];
    const b = f.behavior;
    if (clicksWithoutApproach(f)) {
      out.push(
        emit(this, 'click_without_movement', {
          description: `${b.clicks} clicks with ${b.mouse_moves} pointer moves on a desktop.`,
        }),
      );
    }
    if (inhumanKeyDwell(f)) {
      out.push(
        emit(this, 'key_dwell_inhuman', {
          description: `${Math.round(b.key_fast_dwell * 100)}% of ${b.key_samples} keys held under 10 ms (median ${b.key_dwell_median} ms).`,
        }),
      );
    }
    return out;
  },
};
