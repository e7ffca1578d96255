import type { Features } from '../features.ts';
import { judged } from './aiming.ts';

/**
 * `mouse_speed_ignores_distance`: the page's reaches took time in proportion to their distance
 * (aiming-time.ts), tuned on people aiming at targets (KH2017, odd subject numbers, their reaches
 * timed as recorded and by Fitts' law with no intercept, through every device transform) beside
 * the npm path libraries on the benchmark's form (`eval:aiming-bots`): docs/signals.md.
 */
export const TIME_FIT = {
  /**
   * The time exponent must stay this high or more after TIME_FIT.seMargin standard errors are
   * taken off: WindMouse's reaches 0.90–1.03 offline, 0.95–1.16 (standard error 0.003–0.20) in 9
   * sign-ins recorded in real chromium (the lowest, 0.98 − 0.16, at 0.825); people timed by
   * Fitts' law 0.47 median, and the 1 % of their pages at 0.9 or more scatter widely about the
   * line (a detour on one reach, a quick flick on another).
   */
  minExponent: 0.8,
  /**
   * Standard errors taken off the exponent before it is compared: a page's evidence counts only
   * as far as its reaches agree with each other (with three reaches, one degree of freedom).
   */
  seMargin: 1,
  /**
   * A stroke pair at one speed (the longest aimed stroke's cruise speed no higher than the
   * shortest's: BEHAVIOR.isochrony*) counts where the page's reaches agree: their time exponent
   * this high or more, whatever its scatter (well above the 0.45 of Fitts' law with no
   * intercept). WindMouse in real chromium on a loaded machine: a late event adds time to one
   * reach and the scatter hides the page (0.77 ± 0.29), while its strokes still cruise at one
   * speed (0.98–1.06×); people timed by Fitts' law whose stroke pair does that mostly have page
   * exponents under it (KH2017 odd subjects: 28 of 5,400 pages meet either, 103 the pair alone).
   */
  pairedExponent: 0.75,
};

/**
 * The page's reaches took time in proportion to their distance: the time exponent
 * (`aiming.time_fit`) minus TIME_FIT.seMargin of its standard error is TIME_FIT.minExponent or
 * more. A hand covers a longer distance faster (Fitts' law) and scatters from reach to reach; a
 * generator stepping the pointer at one speed (WindMouse) takes ten times the time for ten times
 * the distance, every reach on one line. Abstains where the page-level aiming tells do (touch, a
 * phone, under three reaches, the longest under 4.5 times the shortest, sampled every 40 ms or
 * slower); `mouse_speed_ignores_distance` (behavior-tells.ts) abstains on sparse input as well.
 * `strokesAtOneSpeed`: the page's longest aimed stroke cruised no faster than its shortest (then
 * an exponent of TIME_FIT.pairedExponent suffices).
 */
export function reachTimeIgnoresDistance(f: Features, strokesAtOneSpeed = false): boolean {
  const fit = f.behavior.aiming.time_fit;
  return (
    fit !== null &&
    judged(f) &&
    (fit.exponent - TIME_FIT.seMargin * fit.se >= TIME_FIT.minExponent ||
      (strokesAtOneSpeed && fit.exponent >= TIME_FIT.pairedExponent))
  );
}
