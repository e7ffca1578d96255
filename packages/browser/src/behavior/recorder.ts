import type { BehaviorEvidence } from '../types.ts';
import { CAPACITY, SampleBuffer } from './buffer.ts';
import { centredOnTarget, FieldTracker } from './fields.ts';
import { PointerGridProbe } from './grid.ts';
import { eventTime, moveSamples } from './move-samples.ts';
import { PointerFrameProbe, PressTimer } from './press.ts';
import { PointerStepCounter } from './steps.ts';

type Point = [number, number, number];
type Click = [number, number, number, number];
type Key = [number, number];
type Scroll = [number, number];

const MOVE_INTERVAL_MS = 16;
const r1 = (v: number) => Math.round(v * 10) / 10;
const optional = <K extends string, V>(key: K, value: V | undefined) =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

/**
 * Records interaction timing with passive listeners. Key values are never read: only when a key
 * went down and how long it was held (the physical key code is used transiently to pair down/up).
 */
export class BehaviorRecorder {
  private readonly mouse = new SampleBuffer<Point>(CAPACITY.mouse);
  private readonly clicks = new SampleBuffer<Click>(CAPACITY.click);
  private readonly keys = new SampleBuffer<Key>(CAPACITY.key);
  private readonly scrolls = new SampleBuffer<Scroll>(CAPACITY.scroll);
  private readonly touches = new SampleBuffer<Point>(CAPACITY.touch);
  private readonly down = new Map<string, number>();
  private readonly counts = {
    moves: 0,
    clicks: 0,
    keys: 0,
    scrolls: 0,
    touches: 0,
    focus: 0,
    blur: 0,
    paste: 0,
    copy: 0,
  };
  private readonly fields = new FieldTracker();
  private readonly presses = new PressTimer();
  private readonly frame = new PointerFrameProbe();
  private readonly steps = new PointerStepCounter();
  private readonly grid = new PointerGridProbe();
  private firstInput: number | undefined;
  private centred = 0;
  private activeMs = 0;
  private activeSince: number | undefined;
  private readonly stops: Array<() => void> = [];

  start(): void {
    if (this.stops.length > 0) return;
    const on = <K extends keyof WindowEventMap | 'visibilitychange'>(
      target: Window | Document,
      type: K,
      fn: (e: K extends keyof WindowEventMap ? WindowEventMap[K] : Event) => void,
    ) => {
      const listener = fn as EventListener;
      target.addEventListener(type, listener, { passive: true, capture: true });
      this.stops.push(() => target.removeEventListener(type, listener, { capture: true }));
    };
    const now = () => performance.now();
    const input = (t: number) => {
      this.firstInput ??= t;
    };
    on(document, 'pointermove', (e) => {
      this.counts.moves++;
      this.frame.observe(e);
      this.steps.observe(e);
      this.grid.observe(e);
      const t = now();
      input(t);
      // At the browser's event times, coalesced positions included (move-samples.ts): a busy
      // machine's late, bunched dispatches keep the pointer's own pace.
      for (const [at, x, y] of moveSamples(e, t)) {
        const last = this.mouse.last;
        if (!last || at - last[0] >= MOVE_INTERVAL_MS) this.mouse.push([r1(at), r1(x), r1(y)]);
      }
    });
    on(document, 'pointerdown', (e) => {
      this.counts.clicks++;
      const t = now();
      input(t);
      // The moves' clock (event times), so a press and the reach before it line up.
      this.clicks.push([
        r1(eventTime(e, t)),
        r1(e.clientX),
        r1(e.clientY),
        Math.max(0, Math.min(8, e.button)),
      ]);
      if (centredOnTarget(e)) this.centred++;
      this.presses.pointerDown(e);
      this.frame.observe(e);
    });
    on(document, 'pointerup', (e) => this.presses.pointerUp(e));
    on(document, 'pointercancel', (e) => this.presses.cancel(e));
    on(document, 'keydown', (e) => {
      this.fields.key(e);
      if (e.repeat) return;
      this.counts.keys++;
      const t = now();
      input(t);
      this.down.set(e.code, t);
    });
    on(document, 'keyup', (e) => {
      const t0 = this.down.get(e.code);
      if (t0 === undefined) return;
      this.down.delete(e.code);
      this.keys.push([r1(t0), r1(Math.min(60_000, now() - t0))]);
    });
    on(window, 'scroll', () => {
      this.counts.scrolls++;
      const t = now();
      const last = this.scrolls.last;
      if (!last || t - last[0] >= 50) this.scrolls.push([r1(t), r1(window.scrollY)]);
    });
    const touch = (e: TouchEvent) => {
      this.counts.touches++;
      input(now());
      const p = e.touches[0];
      if (p) this.touches.push([r1(now()), r1(p.clientX), r1(p.clientY)]);
    };
    on(document, 'touchstart', touch);
    on(document, 'touchmove', touch);
    on(window, 'focus', () => {
      this.counts.focus++;
      this.activeSince ??= now();
    });
    on(window, 'blur', () => {
      this.counts.blur++;
      this.pause();
    });
    on(document, 'visibilitychange', () => {
      if (document.hidden) this.pause();
      else this.activeSince ??= now();
    });
    on(document, 'paste', (e) => {
      this.counts.paste++;
      this.fields.paste(e);
    });
    on(document, 'input', (e) => this.fields.input(e));
    on(document, 'compositionstart', (e) => this.fields.composition(e));
    on(document, 'submit', (e) => this.fields.submitted(e));
    on(document, 'copy', () => this.counts.copy++);
    if (!document.hidden) this.activeSince = now();
  }

  private pause(): void {
    if (this.activeSince !== undefined) this.activeMs += performance.now() - this.activeSince;
    this.activeSince = undefined;
  }

  stop(): void {
    for (const s of this.stops.splice(0)) s();
  }

  snapshot(): BehaviorEvidence {
    const t = performance.now();
    const c = this.counts;
    const active = this.activeMs + (this.activeSince === undefined ? 0 : t - this.activeSince);
    return {
      v: 1,
      time_to_submit_ms: Math.round(Math.min(t, 86_400_000)),
      active_ms: Math.round(Math.min(active, 86_400_000)),
      mouse_moves: c.moves,
      clicks: c.clicks,
      key_presses: c.keys,
      scrolls: c.scrolls,
      touches: c.touches,
      focus_count: c.focus,
      blur_count: c.blur,
      paste_count: c.paste,
      copy_count: c.copy,
      ...(this.firstInput === undefined ? {} : { first_input_ms: Math.round(this.firstInput) }),
      centred_clicks: this.centred,
      form: this.fields.summary(),
      ...optional('presses', this.presses.summary()),
      ...optional('pointer_frame', this.frame.summary()),
      ...optional('pointer_steps', this.steps.summary()),
      ...optional('pointer_grid', this.grid.summary()),
      mouse: this.mouse.items.slice(),
      click_samples: this.clicks.items.slice(),
      key_samples: this.keys.items.slice(),
      scroll_samples: this.scrolls.items.slice(),
      touch_samples: this.touches.items.slice(),
    };
  }
}
