import type { Signal } from '../engine-types.ts';
import type { Features } from '../features.ts';
import { reachesOnePace, reachesUnbraked } from './aiming.ts';
import { inputTells, instantRelease, superhumanKeySpeed } from './input.ts';
import { emit, FORM_EVENTS, type SignalFamily } from './types.ts';

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
   * `mouse_speed_ignores_distance`: the longest aimed stroke (directed, and a press follows where
   * it stopped: mouse-path.ts AIMED_PRESS_MS, AIMED_PRESS_PX) at least this many times the shortest
   * (path length)…
   */
  isochronyLengthRatio: 4,
  /**
   * …and its cruise speed (the middle half of the path over its time) grew by less than
   * lengthRatio^this. People move further by moving faster (isochrony: DELBOT strokes' peak speed
   * ∝ length^0.65; every pair of human strokes 4× apart, also scaled ×0.5/×2 in time or space and
   * resampled to 60/30 Hz, has a cruise-speed exponent ≥ 0.12); WindMouse steps at one speed
   * whatever the distance (−0.07–0.07 offline, −0.28–0.05 in 9 real-browser logins).
   * docs/signals.md.
   */
  isochronyExponent: 0.08,
  keyCv: 0.08,
  fastSubmitMs: 1500,
  /** A form with text submitted this soon after the first pointer, key or touch input. */
  fastFillMs: 1000,
  /** Accounts on one mailbox (24 h) from which behaviour earns no trust (see behavior_humanlike). */
  sharedMailboxAccounts: 2,
};

const BOT_TELLS = new Set([
  'mouse_speed_ignores_distance',
  'mouse_straight_path',
  'mouse_constant_speed',
  'mouse_synthetic_jitter',
  'mouse_stationary_moves',
  'mouse_smooth_curve',
  'mouse_sharp_turns',
  'timing_regular',
]);

type Check = (f: Features) => boolean;

/** Enough mouse points for path-shape statistics to mean anything. */
const enoughPoints: Check = (f) => f.behavior.mouse_points >= BEHAVIOR.minPoints;

/**
 * The path tells (shape and speed of strokes) need a pointer reported often enough to show a
 * hand's path: when it arrived in jumps (`mouse_sparse_updates`: a remote desktop, a VM, a slow
 * link, or a program sleeping between positions) they abstain rather than judge the jumps.
 */
const pathJudged: Check = (f) => !sparseUpdates(f);

/** At least half the strokes are ruler straight. */
const straightPath: Check = (f) =>
  pathJudged(f) && f.behavior.straight_strokes > 0 && f.behavior.straight_strokes * 2 >= f.behavior.strokes;

/** Most strokes (two or more) keep one speed from start to end: no hand accelerates like that. */
const constantSpeed: Check = (f) =>
  pathJudged(f) &&
  f.behavior.flat_speed_strokes >= 2 &&
  f.behavior.flat_speed_strokes * 2 >= f.behavior.strokes;

/** Jittered paths: the pointer steps back and forth (two reversals in a row), more than once. */
const syntheticJitter: Check = (f) =>
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
const smoothCurve: Check = (f) =>
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
 * A long aimed stroke (one ended by a press where it stopped; a slow drift while reading is not
 * aimed) no faster than a short one: the long stroke is BEHAVIOR.isochronyLengthRatio or
 * more times the short one's length, yet its cruise speed is under lengthRatio^isochronyExponent
 * times the short one's. A hand covers a bigger distance in little more time, so its speed
 * grows with the distance; a generator stepping the pointer at one speed (WindMouse, fixed step
 * sizes at fixed sleeps) moves every distance at the same speed.
 */
export function speedIgnoresDistance(f: Features): boolean {
  const lengthRatio = f.behavior.stroke_length_ratio;
  const speedRatio = f.behavior.stroke_speed_ratio;
  return (
    pathJudged(f) &&
    lengthRatio !== null &&
    speedRatio !== null &&
    lengthRatio >= BEHAVIOR.isochronyLengthRatio &&
    speedRatio < lengthRatio ** BEHAVIOR.isochronyExponent
  );
}

/** Move events that do not move. */
const stationaryMoves: Check = (f) =>
  enoughPoints(f) && f.behavior.zero_move_count >= 2 && f.behavior.zero_moves > BEHAVIOR.zeroMoves;

/**
 * Text typed into the form (not autofilled) and submitted within BEHAVIOR.fastFillMs of the first
 * input of the page: nobody moves, clicks, types and submits that fast (people: 13–19 s for a login).
 */
function filledFast(f: Features): boolean {
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
function regularTiming(f: Features): 'mouse' | 'burst' | 'keys' | null {
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

/** Interaction evidence: none at all, inhumanly fast, synthetic mouse paths, metronomic timing. */
export const behavior: SignalFamily = {
  name: 'behavior',
  rules: {
    behavior_missing: {
      score: 10,
      description: 'A browser form event without behaviour evidence.',
    },
    no_interaction: { score: 25, description: 'No mouse, key, touch or scroll interaction before submit.' },
    fast_submit: { score: 20, description: 'The form was submitted less than 1.5 s after page load.' },
    form_filled_fast: {
      score: 20,
      description:
        'Text fields filled and the form submitted less than 1 s after the first pointer, key or touch input.',
    },
    mouse_straight_path: {
      score: 35,
      description: 'Mouse strokes follow ruler-straight lines (scripted movement).',
    },
    mouse_constant_speed: {
      score: 30,
      description:
        'Mouse strokes keep one speed from start to end, without the acceleration and braking of a hand.',
    },
    mouse_speed_ignores_distance: {
      score: 30,
      description:
        'A mouse stroke four or more times longer than another reached no higher speed: a hand covers a longer distance by moving faster (isochrony); a generator stepping the pointer at one speed does not.',
    },
    mouse_smooth_curve: {
      score: 30,
      description:
        'Mouse strokes bend as smoothly as a parametric curve (Bezier, spline): no tremor, sub-movements or corrections of a hand.',
    },
    mouse_synthetic_jitter: {
      score: 30,
      description:
        'Mouse path with injected jitter: the pointer turns back between consecutive moves (human-emulation libraries).',
    },
    mouse_sharp_turns: {
      score: 20,
      description:
        'Mouse path that turns sharply from one move to the next (injected jitter; also a fast hand on a device reporting rarely, so never enough alone).',
    },
    mouse_sparse_updates: {
      score: 0,
      description:
        'The pointer moved in jumps: single pointer events 40 ms or more apart that each moved it 8 px or more, 15 % or more of its moves (a remote desktop, a VM, a slow link, or a program sleeping between positions). No risk: the path tells abstain, and the page earns no behaviour trust.',
    },
    mouse_stationary_moves: {
      score: 20,
      description: 'Mouse move events without any displacement (scripted movement).',
    },
    timing_regular: {
      score: 25,
      description: 'Event timing is too regular or too fast for a person (metronomic intervals).',
    },
    behavior_bot_combined: {
      score: 20,
      description:
        'Two or more independent behaviour tells (path shape, timing, stationary moves, clicks, key dwell) agree.',
    },
    behavior_humanlike: {
      score: -15,
      description: 'Varied, human-like mouse and keyboard behaviour.',
    },
  },
  evaluate(f) {
    const out: Signal[] = [];
    const b = f.behavior;
    const form = FORM_EVENTS.has(f.event_type);
    if (!b.present) {
      if (form && f.surface === 'browser') out.push(emit(this, 'behavior_missing'));
      return out;
    }
    if (b.interactions === 0 && form) out.push(emit(this, 'no_interaction'));
    if (form && b.time_to_submit_ms !== null && b.time_to_submit_ms < BEHAVIOR.fastSubmitMs) {
      out.push(
        emit(this, 'fast_submit', {
          description: `Submitted ${Math.round(b.time_to_submit_ms)} ms after load.`,
        }),
      );
    } else if (filledFast(f)) {
      out.push(
        emit(this, 'form_filled_fast', {
          description: `${b.form?.fields} fields filled and submitted ${Math.round(b.input_to_submit_ms ?? 0)} ms after the first input.`,
        }),
      );
    }
    if (straightPath(f)) {
      out.push(
        emit(this, 'mouse_straight_path', {
          description: `${b.straight_strokes} of ${b.strokes} mouse strokes are ruler straight.`,
        }),
      );
    }
    if (constantSpeed(f)) {
      out.push(
        emit(this, 'mouse_constant_speed', {
          description: `${b.flat_speed_strokes} of ${b.strokes} mouse strokes keep one speed from start to end.`,
        }),
      );
    }
    if (speedIgnoresDistance(f)) {
      out.push(
        emit(this, 'mouse_speed_ignores_distance', {
          description: `A stroke ${(b.stroke_length_ratio ?? 0).toFixed(1)}× longer than another cruised at ${(b.stroke_speed_ratio ?? 0).toFixed(2)}× its speed.`,
        }),
      );
    }
    if (smoothCurve(f)) {
      out.push(
        emit(this, 'mouse_smooth_curve', {
          description: `${b.smooth_strokes} of ${b.curvature_strokes} mouse strokes bend too smoothly for a hand.`,
        }),
      );
    }
    if (syntheticJitter(f)) {
      out.push(emit(this, 'mouse_synthetic_jitter'));
    }
    if (sharpTurns(f)) {
      out.push(
        emit(this, 'mouse_sharp_turns', {
          description: `The path turns ${b.mean_turn.toFixed(2)} rad per move on average (no reversals).`,
        }),
      );
    }
    if (stationaryMoves(f)) {
      out.push(emit(this, 'mouse_stationary_moves'));
    }
    if (sparseUpdates(f) && b.pointer_steps) {
      out.push(
        emit(this, 'mouse_sparse_updates', {
          description: `${b.pointer_steps.sparse} of ${b.pointer_steps.moving} pointer moves were single events 40 ms or more apart that jumped 8 px or more (a device reports every frame).`,
        }),
      );
    }
    const timing = regularTiming(f);
    if (timing !== null) {
      out.push(
        emit(this, 'timing_regular', {
          description:
            timing === 'mouse'
              ? 'Mouse events arrive at metronomic intervals.'
              : timing === 'burst'
                ? `${Math.round(b.moves_per_sample ?? 0)} pointer moves per 16 ms: dispatched in bursts, faster than a display refreshes.`
                : 'Keystrokes have metronomic timing.',
        }),
      );
    }
    const tells =
      out.filter((s) => BOT_TELLS.has(s.rule)).length +
      // Sparse updates abstain the path tells; with a tell of another kind (zero-length moves,
      // clicks, keys) they still count once.
      (sparseUpdates(f) ? 1 : 0) +
      inputTells(f);
    if (tells >= 2) {
      out.push(emit(this, 'behavior_bot_combined', { description: `${tells} independent behaviour tells.` }));
    }
    if (
      !scriptedInput(f) &&
      // Instant mouse releases earn no trust (a driver's clicks; at best a trackpad's taps).
      !instantRelease(f) &&
      // Nor keys faster than hands type (a script's delay; at best an auto-type tool).
      !superhumanKeySpeed(f) &&
      // Nor a pointer that moved in jumps (a position set and a sleep; at best a remote desktop).
      !sparseUpdates(f) &&
      // Nor sharp turns from move to move (jitter; at best a fast hand on a slow report rate).
      !sharpTurns(f) &&
      // Nor reaches drawn from one machine model or run into their targets (aiming.ts: tells of their own family).
      !reachesOnePace(f) &&
      !reachesUnbraked(f) &&
      // One stroke as smooth as a parametric curve is too little for a tell, but no trust either.
      b.smooth_strokes === 0 &&
      // A person at the keyboard is no excuse for a second account on one mailbox (promo farming by hand).
      f.history.accounts_per_email_24h < BEHAVIOR.sharedMailboxAccounts &&
      b.mouse_points >= BEHAVIOR.minPoints &&
      b.strokes + (b.key_samples >= 8 ? 1 : 0) > 0 &&
      b.interactions >= 30
    ) {
      out.push(emit(this, 'behavior_humanlike'));
    }
    return out;
  },
};
