import type { Signal } from '../engine-types.ts';
import { clicksWithoutApproach, inhumanKeyDwell } from './input.ts';
import { emit, type SignalFamily } from './types.ts';

/** Thresholds tuned on the DELBOT-Mouse traces (behavior-metrics.ts); see docs/signals.md. */
export const BEHAVIOR = {
  minPoints: 12,
  zeroMoves: 0.02,
  meanTurn: 0.32,
  reversals: 0.03,
  intervalCv: 0.05,
  burstIntervalMs: 4,
  keyCv: 0.08,
  fastSubmitMs: 1500,
};

const FORM_EVENTS = new Set(['signup', 'login', 'promo_claim', 'checkout']);
const BOT_TELLS = new Set([
  'mouse_straight_path',
  'mouse_synthetic_jitter',
  'mouse_stationary_moves',
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
    mouse_straight_path: {
      score: 35,
      description: 'Mouse strokes follow ruler-straight lines (scripted movement).',
    },
    mouse_synthetic_jitter: {
      score: 30,
      description:
        'Mouse path with injected jitter: direction reversals and sharp turns (human-emulation libraries).',
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
    }
    let bot = false;
    if (b.straight_strokes > 0 && b.straight_strokes * 2 >= b.strokes) {
      bot = true;
      out.push(
        emit(this, 'mouse_straight_path', {
          description: `${b.straight_strokes} of ${b.strokes} mouse strokes are ruler straight.`,
        }),
      );
    }
    const enough = b.mouse_points >= BEHAVIOR.minPoints;
    if (enough && (b.mean_turn > BEHAVIOR.meanTurn || b.reversals > BEHAVIOR.reversals)) {
      bot = true;
      out.push(emit(this, 'mouse_synthetic_jitter'));
    }
    if (enough && b.zero_move_count >= 2 && b.zero_moves > BEHAVIOR.zeroMoves) {
      bot = true;
      out.push(emit(this, 'mouse_stationary_moves'));
    }
    const mouseRegular =
      enough &&
      b.interval_cv !== null &&
      (b.interval_cv < BEHAVIOR.intervalCv ||
        (b.mean_interval_ms !== null && b.mean_interval_ms < BEHAVIOR.burstIntervalMs));
    const keysRegular =
      b.key_samples >= 8 &&
      ((b.key_dwell_cv !== null && b.key_dwell_cv < BEHAVIOR.keyCv) ||
        (b.key_gap_cv !== null && b.key_gap_cv < BEHAVIOR.keyCv));
    if (mouseRegular || keysRegular) {
      bot = true;
      out.push(
        emit(this, 'timing_regular', {
          description: mouseRegular
            ? 'Mouse events arrive at metronomic intervals.'
            : 'Keystrokes have metronomic timing.',
        }),
      );
    }
    const tells =
      out.filter((s) => BOT_TELLS.has(s.rule)).length +
      (clicksWithoutApproach(f) ? 1 : 0) +
      (inhumanKeyDwell(f) ? 1 : 0);
    if (tells >= 2) {
      bot = true;
      out.push(emit(this, 'behavior_bot_combined', { description: `${tells} independent behaviour tells.` }));
    }
    if (
      !bot &&
      !clicksWithoutApproach(f) &&
      !inhumanKeyDwell(f) &&
      enough &&
      b.strokes + (b.key_samples >= 8 ? 1 : 0) > 0 &&
      b.interactions >= 30
    ) {
      out.push(emit(this, 'behavior_humanlike'));
    }
    return out;
  },
};
