import type { Signal } from '../engine-types.ts';
import { reachesOnePace, reachesUnbraked } from './aiming.ts';
import { LONE_REACHES_RULES, loneReachesSignals } from './aiming-page.ts';
import {
  BEHAVIOR,
  constantSpeed,
  filledFast,
  regularTiming,
  scriptedInput,
  sharpTurns,
  smoothCurve,
  sparseUpdates,
  speedIgnoresDistance,
  stationaryMoves,
  straightPath,
  syntheticJitter,
} from './behavior-tells.ts';
import { inputTells, instantRelease, superhumanKeySpeed } from './input.ts';
import { countGeometryOnce, PATH_GEOMETRY } from './path-geometry.ts';
import { reachCubic } from './reach-cubic.ts';
import { reachesSwelled } from './reach-swell.ts';
import { emit, FORM_EVENTS, type SignalFamily } from './types.ts';

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
        "The page's reaches to what it pressed took time in proportion to their distance, every reach at one speed: a hand covers a longer distance faster (Fitts' law) and scatters from reach to reach; a generator stepping the pointer at one speed does not. Judged on three or more reaches, the longest 4.5 times the shortest or more, sampled faster than 25 Hz; never on touch or input in jumps.",
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
        'Two or more independent behaviour tells (path shape, timing, stationary moves, clicks, key dwell) agree; the path-geometry tells (straight, smooth, sharp turns, jitter) count once.',
    },
    ...LONE_REACHES_RULES,
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
      const fit = b.aiming.time_fit;
      out.push(
        emit(this, 'mouse_speed_ignores_distance', {
          description: `${b.aiming.reaches} reaches, the longest ${(b.aiming.length_ratio ?? 0).toFixed(1)}× the shortest: time ∝ length^${(fit?.exponent ?? 0).toFixed(2)} ± ${(fit?.se ?? 0).toFixed(2)}.`,
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
    // One aiming tell alone that withholds the trust reaches review (aiming-page.ts).
    out.push(...loneReachesSignals(f));
    // The path-geometry tells read one thing (the strokes' shape): they score and count once.
    const counted = countGeometryOnce(out);
    out.splice(0, out.length, ...counted.signals);
    const tells =
      out.filter((s) => BOT_TELLS.has(s.rule) && !PATH_GEOMETRY.has(s.rule)).length +
      counted.geometry +
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
      // Nor a reach that was one cubic in time (reach-cubic.ts: a Bezier stepped at one pace).
      !reachCubic(f) &&
      // Nor reaches drawn as NaturalMouseMotion draws them (reach-swell.ts: one swell, a long approach, a false target).
      !reachesSwelled(f) &&
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
