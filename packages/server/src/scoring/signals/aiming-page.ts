import type { Signal } from '../engine-types.ts';
import type { Features } from '../features.ts';
import { reachesOnePace, reachesUnbraked, reachesUnshaped } from './aiming.ts';
import { speedIgnoresDistance } from './behavior-tells.ts';
import { REACH_CUBIC, reachCubic } from './reach-cubic.ts';
import { reachesUntailed } from './reach-shape.ts';
import { reachesSwelled } from './reach-swell.ts';
import { emit, type RuleInfo } from './types.ts';

/**
 * The soft page-level aiming tells (+20) that withhold `behavior_humanlike` (behavior.ts): each
 * judges the page's reaches to what it pressed (three or more, the longest 4.5 times the shortest
 * or more), so each is page-level evidence. `mouse_reaches_unshaped` and `mouse_reaches_untailed`
 * are not among them: a piece of a person's circle carried onto a form meets them alone
 * (docs/signals.md, "One aiming tell alone").
 */
export const LONE_AIMING_TELLS: ReadonlySet<string> = new Set([
  'mouse_reaches_one_pace',
  'mouse_reaches_unbraked',
  'mouse_reach_cubic',
]);

export const LONE_REACHES_RULES: Record<string, RuleInfo> = {
  mouse_reaches_scripted_alone: {
    score: 10,
    description:
      "The page's one aiming tell was mouse_reaches_one_pace, mouse_reaches_unbraked or mouse_reach_cubic (+20, judged on three or more reaches to what it pressed, the longest 4.5 times the shortest or more): with this it reaches review alone. Never added beside another aiming tell (two already reach review).",
  },
};

/**
 * `mouse_reaches_scripted_alone` when the page's one aiming tell (of the aiming family's, and
 * `mouse_speed_ignores_distance`) is one of LONE_AIMING_TELLS. Declared and emitted by the
 * behaviour family (behavior.ts), which may read both families' predicates without an import cycle.
 */
export function loneReachesSignals(f: Features): Signal[] {
  const tells: [string, boolean][] = [
    ['mouse_reaches_unshaped', reachesUnshaped(f)],
    ['mouse_reaches_one_pace', reachesOnePace(f)],
    ['mouse_reaches_unbraked', reachesUnbraked(f)],
    ['mouse_reaches_untailed', reachesUntailed(f)],
    [
      f.behavior.reach_cubic.cubic >= REACH_CUBIC.manyCubicReaches
        ? 'mouse_reaches_cubic'
        : 'mouse_reach_cubic',
      reachCubic(f),
    ],
    ['mouse_reaches_swelled', reachesSwelled(f)],
    ['mouse_speed_ignores_distance', speedIgnoresDistance(f)],
  ];
  const fired = tells.filter(([, on]) => on).map(([rule]) => rule);
  const [only] = fired;
  if (fired.length !== 1 || only === undefined || !LONE_AIMING_TELLS.has(only)) return [];
  return [
    emit({ rules: LONE_REACHES_RULES }, 'mouse_reaches_scripted_alone', {
      description: `The page's one aiming tell, ${only} (+20), judges three or more reaches: with this it reaches review.`,
    }),
  ];
}
