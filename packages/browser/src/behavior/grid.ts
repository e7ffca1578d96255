import type { BehaviorEvidence } from '../types.ts';

type PointerGrid = Required<NonNullable<BehaviorEvidence['pointer_grid']>>;

/** Moves judged at most (counts only; nothing per event is kept). */
const MAX_JUDGED = 4096;
/**
 * A position this far (device px) from a whole pixel is off it: Chromium keeps event positions as
 * float32, and scaling by a fractional devicePixelRatio round-trips within 0.001 px.
 */
const WHOLE_TOLERANCE_PX = 0.01;
/** Wayland reports positions in 1/256 px (`wl_fixed`), exact in float32; the tolerance is a fraction of a step. */
const FIXED_STEPS = 256;
const FIXED_TOLERANCE_PX = 0.0002;

/** Whether `v` is further than `tolerance` from the nearest multiple of 1/steps. */
const offGrid = (v: number, steps: number, tolerance: number) =>
  Math.abs(v * steps - Math.round(v * steps)) / steps > tolerance;

/**
 * Where trusted mouse pointermoves put the pointer relative to the screen's pixel grid. A real
 * mouse on Windows and on Linux X11 lands on whole device pixels (the OS keeps the cursor on
 * pixels; Chromium's X11 events are integer points); Wayland gives 1/256 px steps; a driver over
 * CDP (`Input.dispatchMouseEvent`, ghost-cursor's Bezier points) passes fractional CSS positions
 * anywhere. macOS gives fractional positions for people too: the engine judges by platform.
 *
 * `judged`: mouse pointermoves in the top frame at pinch-zoom scale 1. `fractional`: of those,
 * positions (clientX or clientY times devicePixelRatio) off the whole device pixel; `off_fixed`:
 * off the 1/256 px grid as well. `dpr`: devicePixelRatio at the last judged move (3 decimals).
 */
export class PointerGridProbe {
  private judged = 0;
  private fractional = 0;
  private offFixed = 0;
  private dpr = 1;

  observe(e: PointerEvent): void {
    if (this.judged >= MAX_JUDGED || !e.isTrusted || e.pointerType !== 'mouse') return;
    try {
      if (window.top !== window) return;
    } catch {
      return; // A cross-origin parent: framed, client coordinates are the frame's.
    }
    const scale = window.visualViewport?.scale ?? 1;
    if (Math.abs(scale - 1) > 1e-3) return;
    const dpr = window.devicePixelRatio || 1;
    const x = e.clientX * dpr;
    const y = e.clientY * dpr;
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    this.judged++;
    this.dpr = dpr;
    if (offGrid(x, 1, WHOLE_TOLERANCE_PX) || offGrid(y, 1, WHOLE_TOLERANCE_PX)) {
      this.fractional++;
      if (offGrid(x, FIXED_STEPS, FIXED_TOLERANCE_PX) || offGrid(y, FIXED_STEPS, FIXED_TOLERANCE_PX))
        this.offFixed++;
    }
  }

  summary(): PointerGrid | undefined {
    if (this.judged === 0) return undefined;
    return {
      judged: this.judged,
      fractional: this.fractional,
      off_fixed: this.offFixed,
      dpr: Math.round(this.dpr * 1000) / 1000,
    };
  }
}
