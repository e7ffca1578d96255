import type { BehaviorEvidence } from '@warden/protocol';
import { r1 } from './geometry.ts';
import type { Sample } from './traces.ts';

/**
 * A model of the browser SDK's BehaviorRecorder (packages/browser/src/behavior): raw DOM events in,
 * the `behavior` object the SDK would send out. Same throttles (mouse 16 ms, scroll 50 ms), same
 * 0.1 rounding, same buffer capacities with 2:1 decimation of the oldest half, same counters.
 */
const CAPACITY = { mouse: 256, click: 64, key: 128, scroll: 64, touch: 32 } as const;
const MOVE_INTERVAL_MS = 16;
const SCROLL_INTERVAL_MS = 50;

class Buffer<T> {
  readonly items: T[] = [];
  constructor(private readonly capacity: number) {}
  push(item: T): void {
    if (this.items.length >= this.capacity) {
      const half = this.items.length >> 1;
      const kept: T[] = [];
      for (let i = 0; i < half; i += 2) kept.push(this.items[i]!);
      this.items.splice(0, half, ...kept);
    }
    this.items.push(item);
  }
  get last(): T | undefined {
    return this.items[this.items.length - 1];
  }
}

/**
 * How a text field of the form got its text (the SDK's FieldTracker, `behavior.form`): typed with
 * keys, pasted, inserted by a driver without key events (`page.fill()`), or autofilled by the
 * browser or a password manager.
 */
export type FieldEntry = 'typed' | 'pasted' | 'untyped' | 'autofilled';

/** The SDK's PointerStepCounter: moves ≤ 200 ms apart are one movement; ≥ 40 ms and ≥ 8 px is a sparse step. */
const MOVING_GAP_MS = 200;
const SPARSE_GAP_MS = 40;
const SPARSE_STEP_PX = 8;

/**
 * `behavior.pointer_steps` of raw pointermoves, each taken as one uncoalesced event (the model has
 * no coalesced events: a person's traces count as the browser recorded them, dropped frames too).
 */
function pointerSteps(moves: readonly Sample[]): { moving: number; sparse: number } | undefined {
  let moving = 0;
  let sparse = 0;
  for (let i = 1; i < moves.length; i++) {
    const gap = moves[i]![0] - moves[i - 1]![0];
    const moved = Math.hypot(moves[i]![1] - moves[i - 1]![1], moves[i]![2] - moves[i - 1]![2]);
    if (gap > MOVING_GAP_MS || gap < 0 || moved === 0) continue;
    moving++;
    if (gap >= SPARSE_GAP_MS && moved >= SPARSE_STEP_PX) sparse++;
  }
  return moving > 0 ? { moving, sparse } : undefined;
}

/** Presses released sooner than this count as quick (the SDK's QUICK_PRESS_MS). */
const QUICK_PRESS_MS = 15;

export class PageRecorder {
  private moves: Sample[] = [];
  private clicks: Array<[number, number, number, number]> = [];
  /** Trusted mouse presses: [t_down, hold ms]. Taps and script clicks are not presses. */
  private holds: Array<[number, number]> = [];
  private fields: Array<{ entry: FieldEntry; keys: number; inputs: number }> = [];
  /** Pointer-downs within 0.5 px of their element's centre (a driver's `click()`). */
  centred = 0;
  private keys: Array<[number, number]> = [];
  private scrolls: Array<[number, number]> = [];
  private touches: Sample[] = [];
  pastes = 0;
  copies = 0;
  focus = 1;
  blur = 0;
  /** Time hidden or unfocused (tab switch), subtracted from active_ms. */
  inactiveMs = 0;

  /** Raw pointermove events (page time, CSS px). */
  move(samples: readonly Sample[]): void {
    for (const s of samples) this.moves.push(s);
  }
  /** A pointer-down; `holdMs` when it is a trusted mouse press the SDK times (pointerdown → up). */
  click(t: number, x: number, y: number, button = 0, holdMs?: number): void {
    this.clicks.push([t, x, y, button]);
    if (holdMs !== undefined && button === 0) this.holds.push([t, holdMs]);
  }
  /** A text field of the submitted form changed from its default, and how (`behavior.form`). */
  field(entry: FieldEntry, chars: number): void {
    const keys = entry === 'typed' ? chars : 0;
    // One input event per typed character, one per paste, per driver insert or per autofill.
    this.fields.push({ entry, keys, inputs: entry === 'typed' ? chars : 1 });
  }
  /** One key: [t_down, dwell_ms]. */
  key(tDown: number, dwell: number): void {
    this.keys.push([tDown, dwell]);
  }
  scroll(t: number, y: number): void {
    this.scrolls.push([t, y]);
  }
  touch(samples: readonly Sample[]): void {
    for (const s of samples) this.touches.push(s);
  }

  /** What the SDK sends when the form is submitted at page time `t`. */
  snapshot(t: number): BehaviorEvidence {
    const by0 = <T extends readonly number[]>(a: T, b: T) => a[0]! - b[0]!;
    const mouse = new Buffer<[number, number, number]>(CAPACITY.mouse);
    const moves = [...this.moves].sort(by0);
    const steps = pointerSteps(moves.filter((m) => m[0] <= t));
    for (const [mt, x, y] of moves) {
      if (mt > t) break;
      const last = mouse.last;
      if (!last || mt - last[0] >= MOVE_INTERVAL_MS) mouse.push([r1(mt), r1(x), r1(y)]);
    }
    const clicks = new Buffer<[number, number, number, number]>(CAPACITY.click);
    for (const [ct, x, y, b] of [...this.clicks].sort(by0))
      if (ct <= t) clicks.push([r1(ct), r1(x), r1(y), b]);
    const keys = new Buffer<[number, number]>(CAPACITY.key);
    for (const [kt, dwell] of [...this.keys].sort(by0)) if (kt + dwell <= t) keys.push([r1(kt), r1(dwell)]);
    const scrolls = new Buffer<[number, number]>(CAPACITY.scroll);
    for (const [st, y] of [...this.scrolls].sort(by0)) {
      if (st > t) break;
      const last = scrolls.last;
      if (!last || st - last[0] >= SCROLL_INTERVAL_MS) scrolls.push([r1(st), r1(y)]);
    }
    const touches = new Buffer<[number, number, number]>(CAPACITY.touch);
    for (const [tt, x, y] of [...this.touches].sort(by0)) if (tt <= t) touches.push([r1(tt), r1(x), r1(y)]);
    const before = (list: ReadonlyArray<readonly number[]>) => list.filter((e) => e[0]! <= t).length;
    const firstOf = (list: ReadonlyArray<readonly number[]>) => {
      let first = Number.POSITIVE_INFINITY;
      for (const e of list) if (e[0]! < first) first = e[0]!;
      return first;
    };
    // The SDK's first input: the first pointermove, pointerdown (touches are pointer events too) or keydown.
    const firstInput = Math.min(
      firstOf(this.moves),
      firstOf(this.clicks),
      firstOf(this.keys),
      firstOf(this.touches),
    );
    const form = { fields: 0, untyped: 0, autofilled: 0, keys: 0, pastes: 0, inputs: 0, compositions: 0 };
    for (const f of this.fields) {
      form.fields++;
      form.keys += f.keys;
      form.inputs += f.inputs;
      if (f.entry === 'pasted') form.pastes++;
      if (f.entry === 'untyped') form.untyped++;
      if (f.entry === 'autofilled') form.autofilled++;
    }
    const holds = this.holds
      .filter(([ht, hold]) => ht + hold <= t)
      .map(([, hold]) => hold)
      .sort((a, b) => a - b);
    const median = (s: number[]) =>
      s.length % 2 === 1 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
    return {
      v: 1,
      time_to_submit_ms: Math.round(t),
      active_ms: Math.round(Math.max(0, t - this.inactiveMs)),
      mouse_moves: before(this.moves),
      clicks: before(this.clicks),
      key_presses: before(this.keys),
      scrolls: before(this.scrolls),
      touches: before(this.touches),
      focus_count: this.focus,
      blur_count: this.blur,
      paste_count: this.pastes,
      copy_count: this.copies,
      ...(firstInput <= t ? { first_input_ms: Math.round(firstInput) } : {}),
      centred_clicks: this.centred,
      form,
      ...(holds.length > 0
        ? {
            presses: {
              count: holds.length,
              quick: holds.filter((h) => h < QUICK_PRESS_MS).length,
              median_ms: r1(median(holds)),
            },
          }
        : {}),
      ...(steps ? { pointer_steps: steps } : {}),
      mouse: mouse.items,
      click_samples: clicks.items,
      key_samples: keys.items,
      scroll_samples: scrolls.items,
      touch_samples: touches.items,
    };
  }
}
