import { isRecord } from '../fingerprint/device-id.ts';
import { hypot } from './hypot.ts';
import type { MousePath } from './mouse-path.ts';

/**
 * Measurements of how input arrived (issue 14): clicks without an approach, clicks at positions a
 * hand does not repeat, key rhythm, and how the form's text got there. Pure functions of the
 * `behavior` evidence (samples as the SDK records them: mouse [t, x, y] every ≥ 16 ms, clicks
 * [t, x, y, button], keys [t_down, dwell]).
 */

/**
 * How far back its approach is looked for: before the pointer's last sample at or before the
 * click (where it came to rest; people rest on a button for over a second before pressing).
 */
export const APPROACH_MS = 1000;
/** A click "without approach": at most this many pointer samples in the APPROACH_MS up to where the pointer came to rest. */
export const APPROACH_MAX_SAMPLES = 1;
/**
 * The SDK's mouse buffer keeps its newest samples at full resolution: this many after a 2:1
 * decimation of the oldest half of 256. Clicks before them are not judged (their approach may have
 * been thinned out).
 */
const FULL_RESOLUTION_SAMPLES = 128;
/** A click at an earlier click's exact position counts when the pointer went this far away between. */
export const REPEAT_AWAY_PX = 20;
/** …and the clicks are this far apart in time (a double click is one click, twice). */
const REPEAT_MIN_GAP_MS = 1000;
/**
 * Key-down gaps needed before their rhythm is judged (20 keys): with fewer, a person's spread
 * estimate is too noisy (log-normal gaps, σ 0.3: 1 % of 10-key samples under 0.06, none of 2,000
 * 20-key samples under 0.057).
 */
export const RHYTHM_MIN_GAPS = 19;

/**
 * Key-down gaps shorter than this are chords (a modifier and its key, which `xdotool type` presses
 * together), not the typing rhythm: left out of the floor test.
 */
export const FLOOR_CHORD_MS = 10;
/**
 * Holds shorter than this are `key_dwell_inhuman`'s evidence (synthetic pairs, on-screen keyboards
 * that send down and up together): left out of the floor test, so they never count twice.
 */
export const FLOOR_MIN_HOLD_MS = 10;
/** The floor of a set of timings: its 10th percentile (robust to the odd early value). */
export const FLOOR_QUANTILE = 0.1;
/** "On the floor": within max(FLOOR_WINDOW_MS, FLOOR_WINDOW_SHARE × floor) above it. */
export const FLOOR_WINDOW_MS = 3;
export const FLOOR_WINDOW_SHARE = 0.04;
/**
 * Clock steps the floor test cannot judge: every gap and hold on a grid of one of these (ms, or a
 * multiple: 10, 20, 33⅓, 50, 100). A coarsened clock (Firefox resistFingerprinting: 16⅔ ms, Tor
 * Browser: 100 ms) piles every timing onto a few steps, a person's too. 1 ms clocks are judged.
 */
export const FLOOR_COARSE_CLOCKS = [2, 5, 50 / 3];

/** Every threshold above: hashed into `ruleset_version`. */
export const INPUT_METRIC_THRESHOLDS = {
  APPROACH_MS,
  APPROACH_MAX_SAMPLES,
  FULL_RESOLUTION_SAMPLES,
  REPEAT_AWAY_PX,
  REPEAT_MIN_GAP_MS,
  RHYTHM_MIN_GAPS,
  FLOOR_CHORD_MS,
  FLOOR_MIN_HOLD_MS,
  FLOOR_QUANTILE,
  FLOOR_WINDOW_MS,
  FLOOR_WINDOW_SHARE,
  FLOOR_COARSE_CLOCKS,
};

type Sample = readonly number[];

export interface ClickApproach {
  /** Clicks whose approach can be judged (mouse samples cover it at full resolution). */
  judged: number;
  /**
   * Of those, clicks with at most APPROACH_MAX_SAMPLES pointer samples in the APPROACH_MS up to
   * the pointer's last sample before the click, REPEAT_AWAY_PX or more from the previous click
   * (the pointer jumped there).
   */
  teleported: number;
}

/**
 * Pointer samples leading to each click. A hand moves to what it clicks: at 16 ms per sample
 * a move of even 100 ms leaves several samples; `page.click()` and `xdotool mousemove; click`
 * leave one (the jump) or none. The window ends where the pointer came to rest (its last sample
 * at or before the click), so a person who rests on the button before pressing keeps the approach.
 */
export function clickApproach(mouse: MousePath, clicks: readonly Sample[]): ClickApproach {
  const out = { judged: 0, teleported: 0 };
  if (clicks.length === 0) return out;
  const { n, t: times } = mouse;
  const from = n > FULL_RESOLUTION_SAMPLES ? times[n - FULL_RESOLUTION_SAMPLES]! : -1;
  let lo = 0;
  let hi = 0;
  let previous: Sample | undefined;
  for (const c of clicks) {
    const t = c[0]!;
    const before = previous;
    previous = c;
    while (hi < n && times[hi]! <= t) hi++;
    // Where the pointer came to rest before the click (the click's time when no sample precedes it).
    const rest = hi > 0 ? times[hi - 1]! : t;
    if (rest - APPROACH_MS < from) continue;
    while (lo < hi && times[lo]! < rest - APPROACH_MS) lo++;
    out.judged++;
    // Clicking again where the pointer rests (a second click on one button) is no jump.
    const moved = !before || hypot(c[1]! - before[1]!, c[2]! - before[2]!) >= REPEAT_AWAY_PX;
    if (hi - lo <= APPROACH_MAX_SAMPLES && moved) out.teleported++;
  }
  return out;
}

/**
 * Clicks at the exact position (to the SDK's 0.1 px) of an earlier click, after the pointer went
 * REPEAT_AWAY_PX or more away in between: a script clicking stored coordinates. A hand returning
 * to a target lands a few pixels off.
 */
export function clickRepeats(mouse: MousePath, clicks: readonly Sample[]): number {
  let repeats = 0;
  for (let j = 1; j < clicks.length; j++) {
    const c = clicks[j]!;
    for (let i = 0; i < j; i++) {
      const e = clicks[i]!;
      if (e[1] !== c[1] || e[2] !== c[2] || c[0]! - e[0]! < REPEAT_MIN_GAP_MS) continue;
      if (wentAway(mouse, e[0]!, c)) {
        repeats++;
        break;
      }
    }
  }
  return repeats;
}

/** Whether the pointer was REPEAT_AWAY_PX or more from click `c` at some time after `since`, before `c`. */
function wentAway(mouse: MousePath, since: number, c: Sample): boolean {
  const { n, t, x, y } = mouse;
  for (let i = 0; i < n; i++)
    if (t[i]! > since && t[i]! < c[0]! && hypot(x[i]! - c[1]!, y[i]! - c[2]!) >= REPEAT_AWAY_PX) return true;
  return false;
}

function median(sorted: readonly number[]): number {
  const n = sorted.length;
  return n % 2 === 1 ? sorted[n >> 1]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
}

/**
 * Key rhythm: median absolute deviation of the gaps between key-downs over their median. Robust
 * to the long pauses between fields and to a loaded machine's stray delays (which move a
 * coefficient of variation): scripts typing at a fixed delay measure 0.005–0.033, people
 * 0.145–0.305 (issue 14). Null with fewer than RHYTHM_MIN_GAPS gaps or a zero median.
 */
export function keyRhythmSpread(keys: readonly Sample[]): number | null {
  if (keys.length < RHYTHM_MIN_GAPS + 1) return null;
  const gaps: number[] = [];
  for (let i = 1; i < keys.length; i++) gaps.push(keys[i]![0]! - keys[i - 1]![0]!);
  gaps.sort((a, b) => a - b);
  const m = median(gaps);
  if (m <= 0) return null;
  const deviations = gaps.map((g) => Math.abs(g - m)).sort((a, b) => a - b);
  return median(deviations) / m;
}

export interface KeyFloor {
  /** Key-down gaps and holds judged (each set needs RHYTHM_MIN_GAPS or more). */
  judged: number;
  /** Share of them on their set's floor, the floor sample itself not counted. */
  share: number;
  /** The same share within each set: a fixed delay floors both, steady holds alone are a person's. */
  gap_share: number;
  hold_share: number;
  /** The floors (ms): 10th percentile of the gaps and of the holds. */
  gap_floor: number;
  hold_floor: number;
}

/** Values within the floor window above the FLOOR_QUANTILE of `sorted`, not counting the floor sample. */
function onFloor(sorted: readonly number[]): { floor: number; count: number } {
  const floor = sorted[Math.floor(sorted.length * FLOOR_QUANTILE)]!;
  const top = floor + Math.max(FLOOR_WINDOW_MS, FLOOR_WINDOW_SHARE * floor) + 1e-6;
  let count = 0;
  for (const v of sorted) if (v >= floor && v <= top) count++;
  return { floor, count: count - 1 };
}

/** Whether every value lies on a FLOOR_COARSE_CLOCKS grid (to the SDK's 0.1 ms rounding of both ends). */
function coarseClock(values: readonly number[]): boolean {
  return FLOOR_COARSE_CLOCKS.some((step) =>
    values.every((v) => Math.abs(v - Math.round(v / step) * step) <= 0.15),
  );
}

/** Sorted key-down gaps and holds, as `judgedKeyTimings` keeps them. */
export interface KeyTimings {
  gaps: number[];
  holds: number[];
}

/** Milliseconds to one decimal, as the evidence reports them. */
const tenth = (v: number) => Math.round(v * 10) / 10;

/**
 * The key-down gaps (chords under FLOOR_CHORD_MS left out: a modifier and its key) and the holds
 * (instant ones under FLOOR_MIN_HOLD_MS left out) that `keyFloor` and `keySpeed` judge, sorted;
 * null with fewer than RHYTHM_MIN_GAPS of either, or on a coarsened clock (FLOOR_COARSE_CLOCKS).
 */
export function judgedKeyTimings(keys: readonly Sample[]): KeyTimings | null {
  const allGaps: number[] = [];
  for (let i = 1; i < keys.length; i++) allGaps.push(keys[i]![0]! - keys[i - 1]![0]!);
  const allHolds = keys.map((k) => k[1]!);
  const gaps = allGaps.filter((g) => g >= FLOOR_CHORD_MS).sort((a, b) => a - b);
  const holds = allHolds.filter((d) => d >= FLOOR_MIN_HOLD_MS).sort((a, b) => a - b);
  if (gaps.length < RHYTHM_MIN_GAPS || holds.length < RHYTHM_MIN_GAPS) return null;
  if (coarseClock([...allGaps, ...allHolds])) return null;
  return { gaps, holds };
}

/**
 * The floor of a fixed typing delay. A script that presses, sleeps, releases and sleeps a fixed
 * delay (`xdotool type --delay`, a `type({delay})` loop) holds every key and spaces every key-down
 * at least that long; a busy machine only ever adds time, so however wide the spread above, many
 * holds and gaps still sit within a few milliseconds of the lowest ones. A person's timings rise
 * smoothly from their low edge (log-normal): about 2.5–4 % fall in the same window. Pools the
 * key-down gaps (chords left out) and the holds (instant ones left out); null with fewer than
 * RHYTHM_MIN_GAPS of either, or on a coarsened clock (FLOOR_COARSE_CLOCKS).
 */
export function keyFloor(
  keys: readonly Sample[],
  timings: KeyTimings | null = judgedKeyTimings(keys),
): KeyFloor | null {
  if (timings === null) return null;
  const { gaps, holds } = timings;
  const g = onFloor(gaps);
  const h = onFloor(holds);
  return {
    judged: gaps.length + holds.length,
    share: (g.count + h.count) / (gaps.length + holds.length),
    gap_share: g.count / gaps.length,
    hold_share: h.count / holds.length,
    gap_floor: tenth(g.floor),
    hold_floor: tenth(h.floor),
  };
}

export interface KeySpeed {
  /** Key-down gaps judged (chords under FLOOR_CHORD_MS left out) and their median (ms). */
  gaps: number;
  gap_median: number;
  /** Holds judged (instant ones under FLOOR_MIN_HOLD_MS left out) and their median (ms). */
  holds: number;
  hold_median: number;
}

/**
 * How fast keys were pressed and released: the medians of the key-down gaps (chords left out, as
 * `keyFloor` does: a modifier and its key) and of the holds (instant ones left out: they are
 * `key_dwell_inhuman`'s evidence, never counted twice). Medians ignore the pauses between fields
 * and a busy machine's stray delays, which only lengthen some timings. Key samples carry no key
 * names, so modifiers are told only by their chords. Null with fewer than RHYTHM_MIN_GAPS of
 * either, or on a coarsened clock (FLOOR_COARSE_CLOCKS).
 */
export function keySpeed(
  keys: readonly Sample[],
  timings: KeyTimings | null = judgedKeyTimings(keys),
): KeySpeed | null {
  if (timings === null) return null;
  const { gaps, holds } = timings;
  return {
    gaps: gaps.length,
    gap_median: tenth(median(gaps)),
    holds: holds.length,
    hold_median: tenth(median(holds)),
  };
}

export interface FormInput {
  fields: number;
  untyped: number;
  autofilled: number;
  keys: number;
  pastes: number;
  inputs: number;
  compositions: number;
}

function count(rec: Record<string, unknown>, key: string): number {
  const v = rec[key];
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;
}

/** `behavior.form` as sent by the SDK (null when absent: older SDKs, server-side evidence). */
export function formInput(value: unknown): FormInput | null {
  if (!isRecord(value)) return null;
  const fields = count(value, 'fields');
  return {
    fields,
    untyped: Math.min(fields, count(value, 'untyped')),
    autofilled: Math.min(fields, count(value, 'autofilled')),
    keys: count(value, 'keys'),
    pastes: count(value, 'pastes'),
    inputs: count(value, 'inputs'),
    compositions: count(value, 'compositions'),
  };
}

export interface Presses {
  /** Primary mouse/pen presses the SDK timed (pointerdown → pointerup). */
  count: number;
  /** Of those, released under 15 ms. */
  quick: number;
  median_ms: number | null;
}

/** `behavior.presses` as sent by the SDK (null when absent: older SDKs, a coarse clock, no press). */
export function presses(value: unknown): Presses | null {
  if (!isRecord(value)) return null;
  const n = count(value, 'count');
  if (n === 0) return null;
  const m = value.median_ms;
  return {
    count: n,
    quick: Math.min(n, count(value, 'quick')),
    median_ms: typeof m === 'number' && Number.isFinite(m) && m >= 0 ? m : null,
  };
}

export interface PointerSteps {
  /** Intervals between trusted mouse/pen pointermoves ≤ 200 ms apart that moved the pointer. */
  moving: number;
  /** Of those, ≥ 40 ms and ≥ 8 px in a single event (no coalesced reports): position set, then a sleep. */
  sparse: number;
}

/** `behavior.pointer_steps` as sent by the SDK (null when absent: older SDKs, no getCoalescedEvents, a coarse clock). */
export function pointerSteps(value: unknown): PointerSteps | null {
  if (!isRecord(value)) return null;
  const moving = count(value, 'moving');
  if (moving === 0) return null;
  return { moving, sparse: Math.min(moving, count(value, 'sparse')) };
}

export interface PointerGrid {
  /** Trusted mouse pointermoves judged (top frame, pinch-zoom scale 1). */
  judged: number;
  /** Of those, off the whole device pixel (clientX or clientY × devicePixelRatio). */
  fractional: number;
  /** Of those, off the 1/256 px grid too (Wayland's `wl_fixed` steps). */
  off_fixed: number;
  /** devicePixelRatio they were judged at. */
  dpr: number;
}

/** `behavior.pointer_grid` as sent by the SDK (null when absent: older SDKs, no trusted mouse moves). */
export function pointerGrid(value: unknown): PointerGrid | null {
  if (!isRecord(value)) return null;
  const judged = count(value, 'judged');
  const dpr = value.dpr;
  if (judged === 0 || typeof dpr !== 'number' || !Number.isFinite(dpr) || dpr <= 0) return null;
  const fractional = Math.min(judged, count(value, 'fractional'));
  return { judged, fractional, off_fixed: Math.min(fractional, count(value, 'off_fixed')), dpr };
}

export interface PointerFrame {
  samples: number;
  /** Median event offset of the viewport from the window's corner (screen − client − window.screen). */
  dx: number;
  dy: number;
  /** Largest minus smallest per-event offset. */
  spread: number;
  /** The window's chrome size (outer − inner). */
  chrome_x: number;
  chrome_y: number;
}

function int(rec: Record<string, unknown>, key: string): number | null {
  const v = rec[key];
  return typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : null;
}

/** `behavior.pointer_frame` as sent by the SDK (null when absent or incomplete). */
export function pointerFrame(value: unknown): PointerFrame | null {
  if (!isRecord(value)) return null;
  const samples = count(value, 'samples');
  const dx = int(value, 'dx');
  const dy = int(value, 'dy');
  const spread = int(value, 'spread');
  const chromeX = int(value, 'chrome_x');
  const chromeY = int(value, 'chrome_y');
  if (samples === 0 || dx === null || dy === null || spread === null || chromeX === null || chromeY === null)
    return null;
  return { samples, dx, dy, spread, chrome_x: chromeX, chrome_y: chromeY };
}
