import type { BehaviorEvidence } from '../types.ts';
import { clockStep } from './press.ts';

type PointerSteps = Required<NonNullable<BehaviorEvidence['pointer_steps']>>;

/** Pointer events further apart than this (event timestamps) end a movement: the next one starts another. */
export const MOVING_GAP_MS = 200;
/** A step this long… */
export const SPARSE_GAP_MS = 40;
/** …that moved the pointer this far (CSS px) in one event is a sparse step (see `PointerStepCounter`). */
export const SPARSE_STEP_PX = 8;

/**
 * Counts how the pointer's position updates arrive while it moves. A mouse, trackpad or pen
 * reports at 60–1000 Hz while moving and the browser dispatches a pointermove each frame, so
 * consecutive moves are a frame apart (~16 ms at 60 Hz); when the page is busy, the reports that
 * piled up arrive together as one event's coalesced events. A program that sets the pointer's
 * absolute position and sleeps between steps (xdotool, pynput, SendInput loops) leaves single
 * events 40+ ms apart that each moved the pointer several pixels.
 *
 * `moving`: intervals between consecutive trusted mouse/pen pointermoves at most 200 ms apart
 * (event timestamps) that moved the pointer. `sparse`: of those, intervals of 40 ms or more that
 * moved it 8 px or more in a single event (`getCoalescedEvents()` holds at most one). Nothing is
 * sent when the browser has no `getCoalescedEvents` (jank could not be told apart) or its clock
 * is coarser than 2 ms.
 */
export class PointerStepCounter {
  private last: { t: number; x: number; y: number } | undefined;
  private moving = 0;
  private sparse = 0;
  private fineClock: boolean | undefined;

  observe(e: PointerEvent): void {
    if (!e.isTrusted || (e.pointerType !== 'mouse' && e.pointerType !== 'pen')) return;
    if (typeof e.getCoalescedEvents !== 'function') return;
    const now = { t: e.timeStamp, x: e.clientX, y: e.clientY };
    const prev = this.last;
    this.last = now;
    if (!prev) return;
    const gap = now.t - prev.t;
    const moved = Math.hypot(now.x - prev.x, now.y - prev.y);
    if (gap > MOVING_GAP_MS || gap < 0 || moved === 0) return;
    this.moving++;
    if (gap >= SPARSE_GAP_MS && moved >= SPARSE_STEP_PX && e.getCoalescedEvents().length <= 1) this.sparse++;
  }

  summary(): PointerSteps | undefined {
    if (this.moving === 0) return undefined;
    if (this.fineClock === undefined) {
      const step = clockStep();
      this.fineClock = step !== null && step <= 2;
    }
    if (!this.fineClock) return undefined;
    return { moving: this.moving, sparse: this.sparse };
  }
}
