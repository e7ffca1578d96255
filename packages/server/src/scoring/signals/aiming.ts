import { ARRIVED_AT } from '../aiming-metrics.ts';
import type { Features } from '../features.ts';
import { CUBIC_RULES, cubicSignals } from './reach-cubic.ts';
import { reachesUntailed, UNTAILED_RULES, untailedSignals } from './reach-shape.ts';
import { SWELL_RULES, swellSignals } from './reach-swell.ts';
import { emit, type SignalFamily } from './types.ts';

/**
 * `mouse_reaches_unshaped`, `mouse_reaches_one_pace` and `mouse_reaches_unbraked`, tuned on people aiming at targets (a
 * mouse-tracking study, odd subject numbers; eval/aiming) beside the npm path libraries on the
 * benchmark's form: docs/signals.md.
 */
export const AIMING = {
  /** Reaches (press-ended movements) a page needs before its aiming is judged. */
  minReaches: 3,
  /**
   * …the longest at least this many times the shortest (path length), so distance can show: a
   * sign-in form's first reach (from the page to its first field) against the short steps between
   * fields (4.5–11× on the benchmark's shop page).
   */
  minLengthRatio: 4.5,
  /**
   * Mean speed grows with the reach's length at least this much (least-squares log-log slope) for
   * a person: a hand obeys Fitts' law, time growing with the log of the distance. ghost-cursor
   * moves at one speed per reach, drawn from a 2:1 range (slope median 0.13–0.21). Replayed people
   * keep a recording's duration (slope 0.37 or more), people aiming, timed by Fitts' law with no
   * intercept (the least speed-up it allows), 0.19 or more on 95 % of pages: where they fall under
   * it, the shape of their reaches (`handlike`, `abrupt`) clears them.
   */
  maxSpeedSlope: 0.45,
  /**
   * Under this slope speed does not grow with distance at all, whatever the reaches' shapes
   * (WindMouse −0.02–0.13); at or over it, up to maxSpeedSlope, every reach must also have set off
   * and arrived at speed (`abrupt`: ghost-cursor). People drawing circles (DELBOT's strokes carried
   * onto a form, `npm run eval`) are not aiming: 1 % of their pages meet this too, which is why
   * the tell is soft (docs/signals.md).
   */
  flatSpeedSlope: 0.15,
  /**
   * Sampling the reach shapes need (median interval, ms): at 25 Hz or less (a remote desktop, a
   * slow VM) a hand's first sample already covers its acceleration and its peak is averaged away.
   */
  maxIntervalMs: 40,
  /**
   * …except for `mouse_reaches_unshaped` where the pointer moved in jumps (inJumps), which then
   * asks only what survives coarse sampling (peaked above the mean, braked): up to this median
   * interval (ms; a remote desktop's ~94 ms, ghost-cursor's own timestamps, 16–60 ms per step).
   */
  maxJumpIntervalMs: 120,
  /**
   * The pointer moved in jumps (inJumps) when this share of its moves or more were single events
   * 40 ms or more apart that moved it 8 px or more (`pointer_steps`: the share
   * `mouse_sparse_updates` asks, without its minimum count: a page of three reaches has few moves).
   */
  jumpShare: 0.15,
  /**
   * Reaches of a page with no hand-like reach that may brake into their target (not `arrived`)
   * for `mouse_reaches_unbraked` to fire: one (ghost-cursor's overshoot
   * corrected on a far reach, @extra/humanize's Bezier easing into one of three). People brake
   * into every reach.
   */
  brakedReachesAllowed: 1,
};

/**
 * The page's reaches can be judged: a desktop pointer (no touch, not a phone), AIMING.minReaches
 * or more, the longest AIMING.minLengthRatio times the shortest or more, sampled every
 * AIMING.maxIntervalMs or faster.
 */
export function judged(f: Features, maxIntervalMs = AIMING.maxIntervalMs): boolean {
  const a = f.behavior.aiming;
  return (
    !f.ua_mobile &&
    f.behavior.touches === 0 &&
    a.reaches >= AIMING.minReaches &&
    a.length_ratio !== null &&
    a.length_ratio >= AIMING.minLengthRatio &&
    a.median_interval_ms !== null &&
    a.median_interval_ms <= maxIntervalMs
  );
}

/**
 * No reach of the page is shaped as a hand's aimed reach (`bells`, aiming-metrics.ts: set off from
 * rest, peaked inside the movement and above its mean, braked into the target). A library draws
 * every reach of a page from one model, so when that model is not a hand's none of them is; a
 * person's reaches are bell-shaped on all but the odd page (a fast flick, a reach that began while
 * the pointer still drifted). It does not withhold `behavior_humanlike`: people drawing circles carried
 * onto a form (`npm run eval`) meet it on 6 % of pages, and with the trust withheld 1.0 % of
 * humans_desktop and 5 points more of humans_longtail went to review. Where the pointer moved in jumps (inJumps: a remote desktop, a VM)
 * the first sample may already hold the peak, so only the rest is asked
 * (`braked_peaks`: peaked above the mean and braked), up to AIMING.maxJumpIntervalMs. The gate
 * of the page-level aiming tells. Abstains where `judged` does (but for that interval).
 */
export function reachesUnshaped(f: Features): boolean {
  const a = f.behavior.aiming;
  return inJumps(f)
    ? judged(f, AIMING.maxJumpIntervalMs) && a.braked_peaks === 0
    : judged(f) && a.bells === 0;
}

/** The pointer moved in jumps: AIMING.jumpShare of its moves or more (pointer_steps). */
function inJumps(f: Features): boolean {
  const s = f.behavior.pointer_steps;
  return s !== null && s.sparse > 0 && s.sparse >= s.moving * AIMING.jumpShare;
}

/**
 * The page's reaches were drawn from one machine model: none is shaped as a hand's reach
 * (reachesUnshaped), and the speed did not grow with the distance (slope under
 * AIMING.flatSpeedSlope), or hardly grew (under AIMING.maxSpeedSlope) and every reach set off and
 * arrived at speed. Abstains (false) on touch and mobile pages, under AIMING.minReaches reaches,
 * under AIMING.minLengthRatio, and when the reaches were sampled at AIMING.maxIntervalMs or slower
 * — unless every reach covered its path evenly over time (reachesUntailed, reach-shape.ts: a
 * measure that holds up to 80 ms between positions, where ghost-cursor's own steps come 40–60 ms
 * apart in a loaded browser and the shape tests here abstain).
 */
export function reachesOnePace(f: Features): boolean {
  const a = f.behavior.aiming;
  return (
    ((judged(f) && (a.handlike === 0 || reachesUnshaped(f))) || reachesUntailed(f)) &&
    a.speed_slope !== null &&
    (a.speed_slope < AIMING.flatSpeedSlope ||
      (a.speed_slope < AIMING.maxSpeedSlope && a.abrupt === a.reaches))
  );
}

/**
 * The page's reaches ran into what they pressed: none is shaped as a hand's reach
 * (reachesUnshaped), and all but AIMING.brakedReachesAllowed arrived at speed (`arrived`: over the last two
 * sample intervals ARRIVED_AT of the fastest over three or more), whatever the speed against
 * distance. Abstains where reachesOnePace does.
 */
export function reachesUnbraked(f: Features): boolean {
  const a = f.behavior.aiming;
  return (
    judged(f) &&
    (a.handlike === 0 || reachesUnshaped(f)) &&
    a.arrived >= a.reaches - AIMING.brakedReachesAllowed
  );
}

/** How the pointer reached what it pressed, judged over the page's reaches (aiming-metrics.ts). */
export const aiming: SignalFamily = {
  name: 'aiming',
  rules: {
    mouse_reaches_unshaped: {
      score: 20,
      description:
        "No reach of the page to what it pressed was shaped as a hand's: setting off from rest, peaking inside the movement at more than 1.6 times its mean speed and braking into the target (a library draws every reach from one model). Judged on three or more reaches, the longest 4.5 times the shortest or more, sampled faster than 25 Hz (where the pointer moved in jumps, as from a remote desktop, only peaking and braking are asked, up to 120 ms between positions); never on touch. Soft: never enough alone.",
    },
    mouse_reaches_one_pace: {
      score: 20,
      description:
        "Every reach of the page to what it pressed moved like one machine model: none set off from rest and peaked as a hand's reach does, and longer reaches were no faster (a hand covers a longer distance faster: Fitts' law), or hardly faster and every reach set off and arrived at speed. Judged on three or more reaches, the longest 4.5 times the shortest or more, sampled faster than 25 Hz (every 80 ms or faster where every reach covered its path evenly: mouse_reaches_untailed); never on touch. Alone it reaches review with mouse_reaches_scripted_alone.",
    },
    mouse_reaches_unbraked: {
      score: 20,
      description:
        "The page's reaches ran into what they pressed: none set off from rest and peaked as a hand's reach does, and all but one ran into it at 70 % of their top speed or more (speed over the last two sample intervals against the fastest over three; a hand brakes into its target). Judged where mouse_reaches_one_pace is. Alone it reaches review with mouse_reaches_scripted_alone.",
    },
    ...UNTAILED_RULES,
    ...CUBIC_RULES,
    ...SWELL_RULES,
  },
  evaluate(f) {
    const a = f.behavior.aiming;
    const out = [];
    if (reachesUnshaped(f))
      out.push(
        emit(this, 'mouse_reaches_unshaped', {
          description: `None of ${a.reaches} reaches set off from rest, peaked inside the movement and braked into its target.`,
        }),
      );
    if (reachesOnePace(f))
      out.push(
        emit(this, 'mouse_reaches_one_pace', {
          description: `None of ${a.reaches} reaches was shaped as a hand's; a reach ${(a.length_ratio ?? 0).toFixed(1)}× longer than another was made at mean speed ∝ length^${(a.speed_slope ?? 0).toFixed(2)}.`,
        }),
      );
    if (reachesUnbraked(f))
      out.push(
        emit(this, 'mouse_reaches_unbraked', {
          description: `None of ${a.reaches} reaches was shaped as a hand's; ${a.arrived} arrived at ${Math.round(100 * ARRIVED_AT)} % of their top speed or more.`,
        }),
      );
    out.push(...untailedSignals(f));
    out.push(...cubicSignals(f));
    out.push(...swellSignals(f));
    return out;
  },
};
