/**
 * Where the pointer was, and when, for one pointermove: its coalesced events (every position the
 * browser received since the previous dispatch) at their own event times, or the event itself.
 *
 * Why event times: a busy page (or a busy machine) dispatches moves late and in bursts. Read at
 * `performance.now()` in the handler, a move that happened 40 ms ago looks current and the next
 * one, dispatched 3 ms later, is dropped by the recorder's 16 ms throttle; the reach then seems to
 * stall and jump. `timeStamp` is when the browser received the input (the same clock as
 * `performance.now()`), and the coalesced events keep the positions that one late dispatch
 * folded together, so the recorded path keeps the pointer's own pace whatever the page's load.
 */
export type MoveSample = [t: number, x: number, y: number];

/** An event time further back than this from the handler is not trusted (another clock, a stale event). */
const MAX_EVENT_AGE_MS = 1_000;

/**
 * The event's time on the `performance.now()` clock, or `now` when it is not on that clock (old
 * engines stamped events in epoch ms or 0) or lies in the future.
 */
export function eventTime(e: Event, now: number): number {
  const t = e.timeStamp;
  return Number.isFinite(t) && t > 0 && t <= now + 1 && now - t <= MAX_EVENT_AGE_MS ? t : now;
}

/** The positions one pointermove carries, in time order, each at its event time (see above). */
export function moveSamples(e: PointerEvent, now: number): MoveSample[] {
  const coalesced = typeof e.getCoalescedEvents === 'function' ? e.getCoalescedEvents() : [];
  const events = coalesced.length > 0 ? coalesced : [e];
  const out: MoveSample[] = [];
  let before = Number.NEGATIVE_INFINITY;
  for (const c of events) {
    const t = Math.max(before, eventTime(c, now));
    out.push([t, c.clientX, c.clientY]);
    before = t;
  }
  return out;
}
