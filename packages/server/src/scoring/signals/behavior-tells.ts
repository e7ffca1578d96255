/**
 * The behaviour tells: the thresholds (BEHAVIOR) and the checks of a page's behaviour features
 * that each tell is raised on. The behavior family (behavior.ts) emits them and combines them
 * (behavior_bot_combined, behavior_humanlike); other families ask scriptedInput.
 */

import type { Features } from '../features.ts';
import { reachTimeIgnoresDistance } from './aiming-time.ts';
import { inputTells } from './input.ts';
import { FORM_EVENTS } from './types.ts';

/** Thresholds tuned on the DELBOT-Mouse traces (behavior-metrics.ts); see docs/signals.md. */
export const BEHAVIOR = {
  minPoints: 12,
  zeroMoves: 0.02,
  meanTurn: 0.32,
  /**
   * `mouse_synthetic_jitter`: reversals right after a reversal (the pointer stepping back and
   * forth). A hand reverses once when it corrects an overshoot, never back and forth: no page of
   * people aiming at buttons (KH2017 tuning half, 180 pages, under every device transform) has
   * two, while 36 of 55 pyHM pages as recorded do (docs/signals.md). The reversal share it
   * replaces (> 3 %) fired on one genuine back-step among ~33 turns.
   */
  zigzags: 2,
  intervalCv: 0.05,
  burstIntervalMs: 4,
  /**
   * Raw pointer moves per recorded 16 ms sample: browsers dispatch pointermove at most once per
   * display frame (about 1 at 60 Hz, under 9 even at 500 Hz); CDP `Input.dispatchMouseEvent`
   * loops send 10–50 within 16 ms.
   */
  burstMovesPerSample: 10,
  /**
   * `mouse_sparse_updates`: pointer moves that arrived as single events 40+ ms apart yet moved
   * 8+ px (`behavior.pointer_steps`), at least this many and this share of the moving intervals.
   * A mouse or trackpad reports every frame while it moves (DELBOT people: at most 2 per
   * 4-trace session, 0.5 %; the replayed person in real chromium 0–16, ≤ 9 %); xdotool driving
   * ghost-cursor's timed paths 14–71, 11–66 %; a remote desktop at ~94 ms nearly every move
   * (docs/signals.md). No risk of its own: the path tells abstain.
   */
  sparseSteps: 10,
  sparseShare: 0.15,
  /**
   * The stroke pair at one speed (strokesAtOneSpeed: the longest aimed stroke this many times
   * the shortest, its cruise speed grown by less than lengthRatio^exponent). The tell until issue
   * 24; now it only lowers the page-level bar of `mouse_speed_ignores_distance` (aiming-time.ts
   * TIME_FIT.pairedExponent).
   */
  isochronyLengthRatio: 4,
  isochronyExponent: 0.08,
  keyCv: 0.08,
  fastSubmitMs: 1500,
  /** A form with text submitted this soon after the first pointer, key or touch input. */
  fastFillMs: 1000,
  /** Accounts on one mailbox (24 h) from which behaviour earns no trust (see behavior_humanlike). */
  sharedMailboxAccounts: 2,
};
type Check = (f: Features) => boolean;

/** Enough mouse points for path-shape statistics to mean anything. */
const enoughPoints: Check = (f) => f.behavior.mouse_points >= BEHAVIOR.minPoints;

/**
 * The path tells (shape and speed of strokes) need a pointer reported often enough to show a
 * hand's path: when it arrived in jumps (`mouse_sparse_updates`: a remote desktop, a VM, a slow
 * link, or a program sleeping between positions) they abstain rather than judge the jumps.
 */
const pathJudged: Check = (f) => !sparseUpdates(f);

/**
 * At least half the strokes are ruler straight: two or more of them, or the page's only stroke. One
 * short straight reach beside a curved one is a hand's quick aim (people aiming at buttons, their
 * reaches carried onto the form's 100 px legs: KH2017 tuning half), not a script drawing lines,
 * which draws every leg straight.
 */
export const straightPath: Check = (f) =>
  pathJudged(f) &&
  (f.behavior.straight_strokes >= 2 || (f.behavior.straight_strokes === 1 && f.behavior.strokes === 1)) &&
  f.behavior.straight_strokes * 2 >= f.behavior.strokes;

/** Most strokes (two or more) keep one speed from start to end: no hand accelerates like that. */
export const constantSpeed: Check = (f) =>
  pathJudged(f) &&
  f.behavior.flat_speed_strokes >= 2 &&
  f.behavior.flat_speed_strokes * 2 >= f.behavior.strokes;

/** Jittered paths: the pointer steps back and forth (two reversals in a row), more than once. */
export const syntheticJitter: Check = (f) =>
  pathJudged(f) && enoughPoints(f) && f.behavior.zigzags >= BEHAVIOR.zigzags;

/**
 * Large turns between consecutive moves, without reversals. Soft: the turn per report grows with
 * the path's curvature times the distance covered between reports, so a fast hand on a device
 * that reports at 30 Hz (a VM, a remote desktop) turns this much too (docs/signals.md). Abstains
 * with the other path tells on sparse input: a pointer that reports rarely turns more per report.
 */
export const sharpTurns: Check = (f) =>
  pathJudged(f) && enoughPoints(f) && !syntheticJitter(f) && f.behavior.mean_turn > BEHAVIOR.meanTurn;

/**
 * Most strokes bend as smoothly as a parametric curve (no tremor, no corrections): two or more such
 * strokes, or one long one (a script chaining its moves without pauses draws one long stroke).
 */
export const smoothCurve: Check = (f) =>
  pathJudged(f) &&
  (f.behavior.smooth_strokes >= 2 || f.behavior.long_smooth_strokes >= 1) &&
  f.behavior.smooth_strokes * 2 >= f.behavior.curvature_strokes;

/**
 * The pointer moved in discrete jumps: many single (uncoalesced) pointer events 40+ ms apart that
 * each moved it 8+ px, 15 % or more of the moving intervals. A program setting the position and
 * sleeping; a person's device reports every frame. Soft (see `scriptedInput`): a remote desktop or
 * a Bluetooth mouse on a long connection interval could update this rarely too.
 */
export function sparseUpdates(f: Features): boolean {
  const s = f.behavior.pointer_steps;
  return (
    !f.ua_mobile &&
    f.behavior.touches === 0 &&
    s !== null &&
    s.sparse >= BEHAVIOR.sparseSteps &&
    s.sparse >= s.moving * BEHAVIOR.sparseShare
  );
}

/**
 * The page's reaches took time in proportion to their distance (reachTimeIgnoresDistance,
 * aiming-time.ts: a generator stepping the pointer at one speed, WindMouse), the page's stroke
 * pair at one speed (strokesAtOneSpeed) lowering the bar. Abstains where the page-level aiming
 * tells do, and on sparse input with the other path tells.
 */
export const speedIgnoresDistance: Check = (f) =>
  pathJudged(f) && reachTimeIgnoresDistance(f, strokesAtOneSpeed(f));

/**
 * The longest aimed stroke (a press follows where it stopped) BEHAVIOR.isochronyLengthRatio or
 * more times the shortest, its cruise speed under lengthRatio^BEHAVIOR.isochronyExponent times
 * the shortest's. Not a tell alone (people timed by Fitts' law meet it on 2 % of pages): it
 * lowers the page-level bar of `mouse_speed_ignores_distance`.
 */
function strokesAtOneSpeed(f: Features): boolean {
  const lengthRatio = f.behavior.stroke_length_ratio;
  const speedRatio = f.behavior.stroke_speed_ratio;
  return (
    lengthRatio !== null &&
    speedRatio !== null &&
    lengthRatio >= BEHAVIOR.isochronyLengthRatio &&
    speedRatio < lengthRatio ** BEHAVIOR.isochronyExponent
  );
}

/** Move events that do not move. */
export const stationaryMoves: Check = (f) =>
  enoughPoints(f) && f.behavior.zero_move_count >= 2 && f.behavior.zero_moves > BEHAVIOR.zeroMoves;

/**
 * Text typed into the form (not autofilled) and submitted within BEHAVIOR.fastFillMs of the first
 * input of the page: nobody moves, clicks, types and submits that fast (people: 13–19 s for a login).
 */
export function filledFast(f: Features): boolean {
  const b = f.behavior;
  return (
    FORM_EVENTS.has(f.event_type) &&
    b.form !== null &&
    b.form.fields > 0 &&
    b.form.autofilled === 0 &&
    b.input_to_submit_ms !== null &&
    b.input_to_submit_ms < BEHAVIOR.fastFillMs
  );
}

/** Pointer moves dispatched faster than any display refreshes (CDP loops), through the SDK's throttle. */
function burstDispatch(f: Features): boolean {
  const b = f.behavior;
  return enoughPoints(f) && b.moves_per_sample !== null && b.moves_per_sample >= BEHAVIOR.burstMovesPerSample;
}

/** Metronomic mouse or key timing, or null. */
export function regularTiming(f: Features): 'mouse' | 'burst' | 'keys' | null {
  const b = f.behavior;
  if (burstDispatch(f)) return 'burst';
  const mouse =
    enoughPoints(f) &&
    b.interval_cv !== null &&
    (b.interval_cv < BEHAVIOR.intervalCv ||
      (b.mean_interval_ms !== null && b.mean_interval_ms < BEHAVIOR.burstIntervalMs));
  if (mouse) return 'mouse';
  // Key gaps: `key_rhythm_uniform` (input.ts) measures them robustly; dwell stays here.
  const keys = b.key_samples >= 8 && b.key_dwell_cv !== null && b.key_dwell_cv < BEHAVIOR.keyCv;
  return keys ? 'keys' : null;
}

/**
 * Whether a form was driven by a script: no interaction at all, or any mechanical tell (scripted
 * mouse paths or timing, clicks without pointer approach, synthetic key dwell; not the soft
 * `click_instant_release`, which trackpad taps share, nor the soft `mouse_sparse_updates` and
 * `mouse_sharp_turns`, which a remote desktop or a VM can share). Used by families
 * that weigh what an event does by how it was done (card testing).
 */
export function scriptedInput(f: Features): boolean {
  const b = f.behavior;
  if (!b.present) return false;
  if (b.interactions === 0) return true;
  return (
    straightPath(f) ||
    constantSpeed(f) ||
    speedIgnoresDistance(f) ||
    smoothCurve(f) ||
    syntheticJitter(f) ||
    stationaryMoves(f) ||
    regularTiming(f) !== null ||
    inputTells(f, false) > 0
  );
}
