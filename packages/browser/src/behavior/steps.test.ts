import { path as ghostPath } from 'ghost-cursor';
import { afterEach, describe, expect, it, vi } from 'vitest';
// The repository's one seeded PRNG (tests only: the SDK itself does not depend on the server).
import { mulberry32 } from '../../../server/src/testing/rng.ts';
import { PointerStepCounter } from './steps.ts';
import { humanTraces } from './test-traces.ts';

type Fake = Omit<Partial<PointerEvent>, 'getCoalescedEvents'> & {
  coalesced?: number;
  getCoalescedEvents?: (() => PointerEvent[]) | undefined;
};
const move = ({ coalesced = 1, ...over }: Fake): PointerEvent =>
  ({
    isTrusted: true,
    pointerType: 'mouse',
    timeStamp: 0,
    clientX: 0,
    clientY: 0,
    getCoalescedEvents: () => Array.from({ length: coalesced }, () => ({}) as PointerEvent),
    ...over,
  }) as PointerEvent;

/** Moves [t, x, y] (with a coalesced-event count) through a fresh counter. */
function count(moves: ReadonlyArray<readonly [number, number, number, number?]>) {
  const c = new PointerStepCounter();
  for (const [t, x, y, n] of moves)
    c.observe(move({ timeStamp: t, clientX: x, clientY: y, coalesced: n ?? 1 }));
  return c.summary();
}

/** Seeded so the generated sessions are the same on every run. */
const rng = mulberry32;

/**
 * A login the way the eval's `xdotool-ghost` drives it: ghost-cursor's own `path()` (Bezier,
 * Fitts's-law steps, overshoot past 500 px) with its timestamps, each step slept for (at most
 * 60 ms) before `xdotool mousemove`; clicks and typing between the moves.
 */
function ghostLogin(random: () => number): Array<[number, number, number]> {
  const out: Array<[number, number, number]> = [];
  let t = 1000;
  // The eval shop's geometry (CSS px): the pointer starts left of the form, the fields ~90 px apart.
  let at = { x: 200 + random() * 300, y: 300 + random() * 60 };
  const trace = (pts: Array<{ x: number; y: number; timestamp?: number }>) => {
    let prev = pts[0]?.timestamp ?? 0;
    for (const p of pts) {
      t += Math.min(60, (p.timestamp ?? prev) - prev);
      prev = p.timestamp ?? prev;
      const q: [number, number, number] = [t, Math.round(p.x), Math.round(p.y)];
      const last = out[out.length - 1];
      if (!last || last[1] !== q[1] || last[2] !== q[2]) out.push(q);
    }
    at = { x: Math.round(pts[pts.length - 1]!.x), y: Math.round(pts[pts.length - 1]!.y) };
  };
  const targets = [
    { x: 980 + random() * 100, y: 265 + random() * 10, width: 200, height: 30 },
    { x: 980 + random() * 100, y: 355 + random() * 10, width: 200, height: 30 },
    { x: 980 + random() * 80, y: 455 + random() * 10, width: 100, height: 30 },
  ];
  for (const to of targets) {
    if (Math.hypot(to.x - at.x, to.y - at.y) > 500) {
      const r = 120 * Math.sqrt(random());
      const a = random() * 2 * Math.PI;
      trace(ghostPath(at, { x: to.x + r * Math.cos(a), y: to.y + r * Math.sin(a) }, { useTimestamps: true }));
      t += 20 + random() * 60;
      trace(ghostPath(at, to, { spreadOverride: 10, useTimestamps: true }));
    } else {
      trace(ghostPath(at, to, { useTimestamps: true }));
    }
    t += 2000 + random() * 2000; // click, then type
  }
  return out;
}

/**
 * How a browser delivers them: pointermove is dispatched once per display frame (60 Hz here), the
 * moves that arrived since the last frame coalesced into one event (timestamp and position of the
 * newest).
 */
function onFrames(
  moves: ReadonlyArray<readonly [number, number, number]>,
): Array<[number, number, number, number]> {
  const frame = 1000 / 60;
  const out: Array<[number, number, number, number]> = [];
  for (const [t, x, y] of moves) {
    const at = Math.ceil(t / frame) * frame;
    const last = out[out.length - 1];
    if (last && last[0] === at) out[out.length - 1] = [at, x, y, last[3] + 1];
    else out.push([at, x, y, 1]);
  }
  return out;
}

describe('PointerStepCounter', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('counts single events 40+ ms apart that jumped 8+ px while moving', () => {
    const moves: Array<[number, number, number]> = [];
    for (let i = 0; i < 20; i++) moves.push([1000 + i * 50, 100 + i * 15, 200]);
    expect(count(moves)).toEqual({ moving: 19, sparse: 19 });
  });

  it('a device reporting every frame leaves none, however fast it moves', () => {
    const moves: Array<[number, number, number]> = [];
    for (let i = 0; i < 60; i++) moves.push([1000 + i * 16.7, 100 + i * 30, 200]);
    expect(count(moves)).toEqual({ moving: 59, sparse: 0 });
  });

  it('a busy page: late moves carrying the reports that piled up (coalesced) are not sparse', () => {
    const moves: Array<[number, number, number, number]> = [];
    for (let i = 0; i < 20; i++) moves.push([1000 + i * 60, 100 + i * 20, 200, 7]);
    expect(count(moves)).toEqual({ moving: 19, sparse: 0 });
  });

  it('slow drifts (under 8 px a step) and the first move after a rest are not sparse', () => {
    expect(
      count([
        [1000, 100, 100],
        [1050, 102, 101],
        [1100, 104, 101],
        [1500, 160, 140], // after a 400 ms rest: a new movement
        [1516, 170, 145],
      ]),
    ).toEqual({ moving: 3, sparse: 0 });
  });

  it('ignores touch and script-dispatched moves, and sends nothing without getCoalescedEvents', () => {
    const c = new PointerStepCounter();
    for (let i = 0; i < 10; i++) {
      c.observe(move({ timeStamp: i * 50, clientX: i * 20, pointerType: 'touch' }));
      c.observe(move({ timeStamp: i * 50, clientX: i * 20, isTrusted: false }));
      c.observe(move({ timeStamp: i * 50, clientX: i * 20, getCoalescedEvents: undefined }));
    }
    expect(c.summary()).toBeUndefined();
  });

  it('recorded people (DELBOT, every trace, raw browser moves) leave at most 2 sparse steps in a trace', () => {
    const traces = humanTraces();
    expect(traces.length).toBe(187);
    let worst = 0;
    let sessions = 0;
    // Sessions of 4 consecutive traces of the person, like a login's few strokes.
    for (let i = 0; i + 4 <= traces.length; i += 4) {
      let offset = 0;
      const session: Array<[number, number, number]> = [];
      for (const tr of traces.slice(i, i + 4)) {
        const t0 = tr[0]![0];
        for (const [t, x, y] of tr) session.push([t - t0 + offset, x, y]);
        offset = session[session.length - 1]![0] + 1500;
      }
      const s = count(session)!;
      sessions++;
      // The signal needs 10 sparse steps and 15 % of the moving intervals.
      expect(s.sparse).toBeLessThanOrEqual(2);
      worst = Math.max(worst, s.sparse / s.moving);
    }
    expect(sessions).toBe(46);
    expect(worst).toBeLessThan(0.01);
    for (const tr of traces) expect(count(tr)!.sparse).toBeLessThanOrEqual(2);
  });

  it("ghost-cursor's timed paths stepped by xdotool: three in four logins reach 10 sparse steps and 15 % of the moves", () => {
    const random = rng(11);
    // ghost-cursor draws its curves, step counts and speeds from Math.random: seeded here.
    vi.spyOn(Math, 'random').mockImplementation(random);
    let caught = 0;
    const shares: number[] = [];
    for (let k = 0; k < 30; k++) {
      const s = count(onFrames(ghostLogin(random)))!;
      shares.push(s.sparse / s.moving);
      // The server's thresholds (BEHAVIOR.sparseSteps, sparseShare): 10 steps and 15 % of the moves.
      if (s.sparse >= 10 && s.sparse >= 0.15 * s.moving) caught++;
    }
    // 23 of 30 without xdotool's own per-command delay (real chromium: 9 of 10 runs, 11–66 %): when
    // ghost-cursor draws many short steps, most of them stay under 40 ms.
    expect(caught).toBeGreaterThanOrEqual(22);
    shares.sort((a, b) => a - b);
    expect(shares[Math.floor(shares.length / 2)]).toBeGreaterThan(0.25);
  });
});
