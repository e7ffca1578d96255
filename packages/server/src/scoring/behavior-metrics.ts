import { isRecord } from '../fingerprint/device-id.ts';
import { aimedReachSpans } from './aimed-reaches.ts';
import { AIMING_METRIC_THRESHOLDS, type AimingMetrics, aimingMetrics, NO_AIMING } from './aiming-metrics.ts';
import {
  clickApproach,
  clickRepeats,
  type FormInput,
  formInput,
  INPUT_METRIC_THRESHOLDS,
  judgedKeyTimings,
  type KeyFloor,
  type KeySpeed,
  keyFloor,
  keyRhythmSpread,
  keySpeed,
  type PointerFrame,
  type PointerGrid,
  type PointerSteps,
  type Presses,
  pointerFrame,
  pointerGrid,
  pointerSteps,
  presses,
} from './input-metrics.ts';
import { AIMED_PRESS_MS, AIMED_PRESS_PX } from './mouse-aimed.ts';
import {
  cv,
  mouseStats,
  readMousePath,
  STROKE_PAUSE_MS,
  UNDECIMATED_SAMPLES,
  ZIGZAG_STEP_PX,
} from './mouse-path.ts';
import {
  DIRECTED_STROKE,
  FLAT_SPEED_CV,
  SMOOTH_LONG_TURNS,
  SMOOTH_MIN_TURNS,
  SMOOTH_TURN_CHANGE,
  STRAIGHT_DEVIATION_PX,
  type StrokeStats,
  strokeStats,
} from './mouse-strokes.ts';
import {
  NO_REACH_CUBIC,
  REACH_CUBIC_THRESHOLDS,
  type ReachCubicMetrics,
  reachCubicMetrics,
} from './reach-cubic.ts';
import {
  NO_REACH_SHAPE,
  REACH_SHAPE_THRESHOLDS,
  type ReachShapeMetrics,
  reachShapeMetrics,
} from './reach-shape.ts';
import {
  NO_REACH_SWELL,
  REACH_SWELL_THRESHOLDS,
  type ReachSwellMetrics,
  reachSwellMetrics,
} from './reach-swell.ts';

/**
 * Pure measurements of `behavior` evidence. Mouse samples are [t, x, y] with raw event times
 * (docs/evidence.md: decimate by dropping events, never resample). Tuned on the DELBOT-Mouse
 * traces: human moves have no zero-length moves, no reversals and a mean turning angle < 0.29 rad;
 * pynput leaves zero-length moves, pyHM injects jitter (reversals, large turning angles).
 */
export interface BehaviorMetrics {
  present: boolean;
  interactions: number;
  time_to_submit_ms: number | null;
  paste_count: number;
  mouse_points: number;
  /** Fraction of moves with no displacement, and their number. */
  zero_moves: number;
  zero_move_count: number;
  /** Fraction of consecutive moves that turn back (> 90°). */
  reversals: number;
  /** Reversals right after a reversal (back, forth, back): jitter, not a hand's one correction. */
  zigzags: number;
  /** Mean turning angle between consecutive moves, radians. */
  mean_turn: number;
  /** Longest stroke (≥ 8 points, ≥ 100 px) chord/path ratio; 1 = ruler straight. */
  max_straightness: number;
  straight_strokes: number;
  strokes: number;
  /** Strokes moved at one constant speed (speed CV under FLAT_SPEED_CV): no acceleration profile. */
  flat_speed_strokes: number;
  /**
   * Strokes whose curvature changes too smoothly for a hand (median change of the turning angle
   * between consecutive moves under SMOOTH_TURN_CHANGE): parametric curves (Bezier, splines)
   * sampled by a script. Counted over strokes with at least SMOOTH_MIN_TURNS turn changes.
   */
  smooth_strokes: number;
  /** Smooth strokes with at least SMOOTH_LONG_TURNS turn changes (a long path: a reliable median). */
  long_smooth_strokes: number;
  /** Strokes with enough turn changes to judge smoothness. */
  curvature_strokes: number;
  /**
   * Path length of the longest aimed stroke (directed: chord ≥ DIRECTED_STROKE of its path, and a
   * press follows where it stopped: AIMED_PRESS_MS, AIMED_PRESS_PX) over the shortest, and the
   * ratio of their cruise speeds (the middle half of the path over its time); null under two aimed
   * strokes or without speeds to compare. A hand aiming further moves faster (isochrony); a
   * generator stepping at one speed does not. A reading drift (slow, no press) is not aimed.
   */
  stroke_length_ratio: number | null;
  stroke_speed_ratio: number | null;
  /**
   * Raw pointer-move events per recorded sample (the SDK keeps at most one per 16 ms), or null
   * when the buffer may have been decimated (≥ 192 samples) or there are fewer than 2 samples.
   */
  moves_per_sample: number | null;
  /** Coefficient of variation of mouse sample intervals. */
  interval_cv: number | null;
  mean_interval_ms: number | null;
  /** Coefficient of variation of key dwell times and of gaps between key presses. */
  key_dwell_cv: number | null;
  key_gap_cv: number | null;
  key_samples: number;
  /** Totals (counters, or the samples when larger). */
  clicks: number;
  mouse_moves: number;
  touches: number;
  /** Median key dwell (ms) and the share of keys held under FAST_DWELL_MS (physically implausible). */
  key_dwell_median: number | null;
  key_fast_dwell: number;
  /** Milliseconds from the first pointer, key or touch input to submit (null when unknown). */
  input_to_submit_ms: number | null;
  /** Clicks whose approach could be judged, and those with ≤ 1 pointer sample in the second before. */
  approach_clicks: number;
  teleport_clicks: number;
  /** Clicks at an earlier click's exact position after the pointer went away (input-metrics.ts). */
  click_repeats: number;
  /** Clicks within 0.5 px of their element's centre (as the SDK counted them). */
  centred_clicks: number;
  /** MAD / median of the gaps between key-downs (null under 20 keys). */
  key_rhythm_spread: number | null;
  /** Key-down gaps and holds piled on their floor (input-metrics.ts `keyFloor`), null when not judged. */
  key_floor: KeyFloor | null;
  /** Median key-down gap and hold (input-metrics.ts `keySpeed`), null when not judged. */
  key_speed: KeySpeed | null;
  /** How the form's text fields got their text (`behavior.form`), null when not sent. */
  form: FormInput | null;
  /** How long mouse/pen presses were held (`behavior.presses`), null when not sent. */
  presses: Presses | null;
  /** Event screen offset beside the window's chrome size (`behavior.pointer_frame`), null when not sent. */
  pointer_frame: PointerFrame | null;
  /** How the pointer's position updates arrived while moving (`behavior.pointer_steps`), null when not sent. */
  pointer_steps: PointerSteps | null;
  /** Where mouse moves fell on the device pixel grid (`behavior.pointer_grid`), null when not sent. */
  pointer_grid: PointerGrid | null;
  /** How the pointer reached what it pressed, one reach per press (aiming-metrics.ts). */
  aiming: AimingMetrics;
  /** How the reaches spread their path over their time (reach-shape.ts). */
  reach_shape: ReachShapeMetrics;
  /** Whether the reaches were one cubic polynomial in time (reach-cubic.ts). */
  reach_cubic: ReachCubicMetrics;
  /** How closely the reaches' primaries follow one sinusoidal swell off their chord (reach-swell.ts). */
  reach_swell: ReachSwellMetrics;
}

/** A physical key stroke takes longer than this between keydown and keyup. */
export const FAST_DWELL_MS = 10;

function count(rec: Record<string, unknown>, key: string): number {
  const v = rec[key];
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

function samples(rec: Record<string, unknown>, key: string, width: number): number[][] {
  const v = rec[key];
  if (!Array.isArray(v)) return [];
  const out: number[][] = [];
  for (const s of v) {
    if (!Array.isArray(s) || s.length < width) continue;
    let ok = true;
    for (let i = 0; i < width; i++) if (typeof s[i] !== 'number' || !Number.isFinite(s[i])) ok = false;
    if (ok) out.push(s as number[]);
  }
  return out;
}

const EMPTY: BehaviorMetrics = {
  present: false,
  interactions: 0,
  time_to_submit_ms: null,
  paste_count: 0,
  mouse_points: 0,
  zero_moves: 0,
  zero_move_count: 0,
  reversals: 0,
  zigzags: 0,
  mean_turn: 0,
  max_straightness: 0,
  straight_strokes: 0,
  flat_speed_strokes: 0,
  smooth_strokes: 0,
  long_smooth_strokes: 0,
  curvature_strokes: 0,
  stroke_length_ratio: null,
  stroke_speed_ratio: null,
  moves_per_sample: null,
  strokes: 0,
  interval_cv: null,
  mean_interval_ms: null,
  key_dwell_cv: null,
  key_gap_cv: null,
  key_samples: 0,
  clicks: 0,
  mouse_moves: 0,
  touches: 0,
  key_dwell_median: null,
  key_fast_dwell: 0,
  input_to_submit_ms: null,
  approach_clicks: 0,
  teleport_clicks: 0,
  click_repeats: 0,
  centred_clicks: 0,
  key_rhythm_spread: null,
  key_floor: null,
  key_speed: null,
  form: null,
  presses: null,
  pointer_frame: null,
  pointer_steps: null,
  pointer_grid: null,
  aiming: NO_AIMING,
  reach_shape: NO_REACH_SHAPE,
  reach_cubic: NO_REACH_CUBIC,
  reach_swell: NO_REACH_SWELL,
};

/** Every threshold above: hashed into `ruleset_version`, so a change shows on every decision. */
export const METRIC_THRESHOLDS = {
  FAST_DWELL_MS,
  STROKE_PAUSE_MS,
  ZIGZAG_STEP_PX,
  FLAT_SPEED_CV,
  SMOOTH_TURN_CHANGE,
  SMOOTH_MIN_TURNS,
  SMOOTH_LONG_TURNS,
  UNDECIMATED_SAMPLES,
  DIRECTED_STROKE,
  STRAIGHT_DEVIATION_PX,
  AIMED_PRESS_MS,
  AIMED_PRESS_PX,
  ...INPUT_METRIC_THRESHOLDS,
  ...AIMING_METRIC_THRESHOLDS,
  ...REACH_SHAPE_THRESHOLDS,
  ...REACH_CUBIC_THRESHOLDS,
  ...REACH_SWELL_THRESHOLDS,
};

function strokeRatios(
  stroke: StrokeStats,
): Pick<BehaviorMetrics, 'stroke_length_ratio' | 'stroke_speed_ratio'> {
  if (stroke.aimed < 2 || stroke.shortLength <= 0 || stroke.shortCruise <= 0 || stroke.longCruise <= 0) {
    return { stroke_length_ratio: null, stroke_speed_ratio: null };
  }
  return {
    stroke_length_ratio: stroke.longLength / stroke.shortLength,
    stroke_speed_ratio: stroke.longCruise / stroke.shortCruise,
  };
}

export function behaviorMetrics(evidence: unknown): BehaviorMetrics {
  if (!isRecord(evidence)) return EMPTY;
  const mouse = readMousePath(evidence.mouse);
  const keys = samples(evidence, 'key_samples', 2).sort((a, b) => a[0]! - b[0]!);
  // Judged once for both the floor and the speed of the typing.
  const keyTimings = judgedKeyTimings(keys);
  const clicks = samples(evidence, 'click_samples', 3).sort((a, b) => a[0]! - b[0]!);
  const scrolls = samples(evidence, 'scroll_samples', 2);
  const touches = samples(evidence, 'touch_samples', 3);
  const mouseMoves = Math.max(count(evidence, 'mouse_moves'), mouse.n);
  const interactions =
    mouseMoves +
    Math.max(count(evidence, 'clicks'), clicks.length) +
    Math.max(count(evidence, 'key_presses'), keys.length) +
    Math.max(count(evidence, 'scrolls'), scrolls.length) +
    Math.max(count(evidence, 'touches'), touches.length);
  const tts = evidence.time_to_submit_ms;
  const firstInput = evidence.first_input_ms;
  const approach = clickApproach(mouse, clicks);
  const stroke = strokeStats(mouse, clicks);
  // Found once: every aiming measurement judges the same reaches (aimed-reaches.ts).
  const spans = aimedReachSpans(mouse, clicks);
  const gaps: number[] = [];
  for (let i = 1; i < keys.length; i++) gaps.push(keys[i]![0]! - keys[i - 1]![0]!);
  const dwells = keys.map((k) => k[1]!);
  let fast = 0;
  for (const d of dwells) if (d < FAST_DWELL_MS) fast++;
  const sorted = dwells.length > 0 ? [...dwells].sort((a, b) => a - b) : [];
  return {
    present: true,
    interactions,
    time_to_submit_ms: typeof tts === 'number' && Number.isFinite(tts) ? tts : null,
    paste_count: count(evidence, 'paste_count'),
    mouse_points: mouse.n,
    ...(mouse.n >= 3
      ? mouseStats(mouse)
      : {
          zero_moves: 0,
          zero_move_count: 0,
          reversals: 0,
          zigzags: 0,
          mean_turn: 0,
          interval_cv: null,
          mean_interval_ms: null,
        }),
    max_straightness: stroke.max,
    straight_strokes: stroke.straight,
    strokes: stroke.strokes,
    flat_speed_strokes: stroke.flat,
    smooth_strokes: stroke.smooth,
    long_smooth_strokes: stroke.longSmooth,
    curvature_strokes: stroke.curvature,
    ...strokeRatios(stroke),
    moves_per_sample: mouse.n >= 2 && mouse.n < UNDECIMATED_SAMPLES ? mouseMoves / mouse.n : null,
    key_dwell_cv: cv(dwells),
    key_gap_cv: cv(gaps),
    key_samples: keys.length,
    clicks: Math.max(count(evidence, 'clicks'), clicks.length),
    mouse_moves: mouseMoves,
    touches: Math.max(count(evidence, 'touches'), touches.length),
    key_dwell_median: sorted.length > 0 ? sorted[sorted.length >> 1]! : null,
    key_fast_dwell: dwells.length > 0 ? fast / dwells.length : 0,
    input_to_submit_ms:
      typeof tts === 'number' && Number.isFinite(tts) && typeof firstInput === 'number' && firstInput <= tts
        ? tts - firstInput
        : null,
    approach_clicks: approach.judged,
    teleport_clicks: approach.teleported,
    click_repeats: clickRepeats(mouse, clicks),
    centred_clicks: count(evidence, 'centred_clicks'),
    key_rhythm_spread: keyRhythmSpread(keys),
    key_floor: keyFloor(keys, keyTimings),
    key_speed: keySpeed(keys, keyTimings),
    form: formInput(evidence.form),
    presses: presses(evidence.presses),
    pointer_frame: pointerFrame(evidence.pointer_frame),
    pointer_steps: pointerSteps(evidence.pointer_steps),
    pointer_grid: pointerGrid(evidence.pointer_grid),
    aiming: aimingMetrics(mouse, spans),
    reach_shape: reachShapeMetrics(mouse, spans),
    reach_cubic: reachCubicMetrics(mouse, spans),
    reach_swell: reachSwellMetrics(mouse, spans),
  };
}
