import type { BehaviorEvidence } from '../types.ts';

type Presses = NonNullable<BehaviorEvidence['presses']>;
type PointerFrame = NonNullable<BehaviorEvidence['pointer_frame']>;

/** A press released sooner than this is quicker than a finger (people hold 50–150 ms). */
export const QUICK_PRESS_MS = 15;
/** Holds kept in memory (never sent: only the summary is). */
const MAX_HOLDS = 64;
/** Events measured for the pointer frame. */
const FRAME_EVENTS = 8;

/** Whether this pointer event is a trusted mouse or pen event (not touch, not dispatched by a script). */
function pointing(e: PointerEvent): boolean {
  return e.isTrusted && (e.pointerType === 'mouse' || e.pointerType === 'pen');
}

/**
 * The smallest step of `performance.now()` seen within a bounded spin, or null when it did not move
 * (a clock coarsened to tens of ms, e.g. Firefox's resistFingerprinting, cannot time a press).
 */
export function clockStep(): number | null {
  const start = performance.now();
  for (let i = 0; i < 20_000; i++) {
    const t = performance.now();
    if (t !== start) return t - start;
  }
  return null;
}

function median(sorted: readonly number[]): number {
  const n = sorted.length;
  return n % 2 === 1 ? sorted[n >> 1]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
}

/**
 * Times each press of the primary mouse/pen button (event timestamps, pointerdown → pointerup).
 * A keyboard-activated click has no pointerdown and a touch tap is not a mouse press, so neither
 * is timed.
 */
export class PressTimer {
  private readonly down = new Map<number, number>();
  private readonly holds: number[] = [];
  private fineClock: boolean | undefined;

  pointerDown(e: PointerEvent): void {
    if (!pointing(e) || e.button !== 0) return;
    this.down.set(e.pointerId, e.timeStamp);
  }

  pointerUp(e: PointerEvent): void {
    const t0 = this.down.get(e.pointerId);
    if (t0 === undefined) return;
    this.down.delete(e.pointerId);
    if (!pointing(e) || this.holds.length >= MAX_HOLDS) return;
    this.holds.push(Math.max(0, Math.min(60_000, e.timeStamp - t0)));
  }

  cancel(e: PointerEvent): void {
    this.down.delete(e.pointerId);
  }

  summary(): Presses | undefined {
    if (this.holds.length === 0) return undefined;
    if (this.fineClock === undefined) {
      const step = clockStep();
      this.fineClock = step !== null && step <= 2;
    }
    if (!this.fineClock) return undefined;
    const sorted = [...this.holds].sort((a, b) => a - b);
    let quick = 0;
    for (const h of sorted) if (h < QUICK_PRESS_MS) quick++;
    return { count: sorted.length, quick, median_ms: Math.round(median(sorted) * 10) / 10 };
  }
}

/**
 * Compares where the first trusted mouse events put the viewport on the screen with the window's
 * own chrome size (outer minus inner). See `PointerFrameEvidence` in @warden/protocol.
 */
export class PointerFrameProbe {
  private readonly dx: number[] = [];
  private readonly dy: number[] = [];
  private chromeX = 0;
  private chromeY = 0;

  observe(e: PointerEvent): void {
    if (this.dx.length >= FRAME_EVENTS || !pointing(e)) return;
    try {
      if (window.top !== window) return;
    } catch {
      return; // A cross-origin parent: framed.
    }
    this.dx.push(e.screenX - e.clientX - window.screenX);
    this.dy.push(e.screenY - e.clientY - window.screenY);
    this.chromeX = window.outerWidth - window.innerWidth;
    this.chromeY = window.outerHeight - window.innerHeight;
  }

  summary(): PointerFrame | undefined {
    if (this.dx.length === 0) return undefined;
    const xs = [...this.dx].sort((a, b) => a - b);
    const ys = [...this.dy].sort((a, b) => a - b);
    const spread = Math.max(xs[xs.length - 1]! - xs[0]!, ys[ys.length - 1]! - ys[0]!);
    return {
      samples: xs.length,
      dx: Math.round(median(xs)),
      dy: Math.round(median(ys)),
      spread: Math.round(spread),
      chrome_x: Math.round(this.chromeX),
      chrome_y: Math.round(this.chromeY),
    };
  }
}
