import { Rng } from './rng.ts';
import type { Sample } from './traces.ts';

/**
 * How other devices and people would deliver one recorded movement (raw pointermoves [t, x, y],
 * screen pixels, as DELBOT-Mouse recorded them on one desktop at ~60 Hz). Each transform changes
 * one thing a device or a person changes, and keeps the rest of the recorded hand:
 *
 * - time: a faster or slower person draws the same path in less or more time (`fast`/`slow`
 *   scale the recorded times, so reports come 8 or 33 ms apart; `fast … at 60 Hz` re-reports the
 *   fast path on a 60 Hz clock, as a display frame would). A slow path is not re-reported at
 *   60 Hz: that needs positions the recording does not have, and interpolating them draws
 *   straight pieces no hand draws.
 * - report clock: a VM, a remote desktop or a Bluetooth mouse delivers the position on its own
 *   schedule. The position is sampled and held (the newest position at each report, never
 *   interpolated), a report that would not move the pointer is dropped (X and Windows send no
 *   move for the same pixel), and a Bluetooth dropout delivers the motion it held as one jump.
 * - space: pointer acceleration (a touchpad's, or a mouse's own sensitivity) and high-DPI
 *   screens scale the path around where it starts; positions stay on whole pixels, which is what
 *   X11 and Windows at 100 % deliver (a smaller scale makes the pixel grid coarser for the hand).
 * - pauses: a touchpad user lifts the finger mid-movement and puts it back: the pointer stops
 *   for 250–700 ms and goes on from where it stopped.
 * - fractional positions: at 125 % scaling Windows reports whole device pixels, 0.8 CSS px
 *   apart; macOS and Wayland report positions between pixels.
 *
 * Deterministic: every random choice comes from `seed`.
 */
export interface DeviceTransform {
  id: string;
  /** What device or person it stands for. */
  label: string;
  apply(moves: readonly Sample[], seed: number): Sample[];
}

/** Drops moves that land on the previous position (no device sends a move that does not move). */
function moving(out: Sample[]): Sample[] {
  const kept: Sample[] = [];
  for (const s of out) {
    const last = kept[kept.length - 1];
    if (last && last[1] === s[1] && last[2] === s[2]) continue;
    kept.push(s);
  }
  return kept;
}

const scaleTime =
  (k: number) =>
  (moves: readonly Sample[]): Sample[] => {
    const t0 = moves[0]?.[0] ?? 0;
    return moves.map(([t, x, y]) => [t0 + (t - t0) * k, x, y] as Sample);
  };

/**
 * The newest recorded position at each report time (sample and hold). `gap(rng)` is the time to
 * the next report; reports start at a random phase of the first gap.
 */
function reportOn(moves: readonly Sample[], seed: number, gap: (rng: Rng) => number): Sample[] {
  if (moves.length === 0) return [];
  const rng = new Rng(seed);
  const out: Sample[] = [];
  const end = moves[moves.length - 1]![0];
  let i = 0;
  let at = moves[0]![0] + rng.uniform(0, gap(rng));
  out.push(moves[0]!);
  for (;;) {
    while (i + 1 < moves.length && moves[i + 1]![0] <= at) i++;
    const [, x, y] = moves[i]!;
    out.push([at, x, y]);
    if (at >= end) break;
    at += gap(rng);
  }
  return moving(out);
}

/** Scaled by `k` around the first sample; whole pixels unless `fractional`. */
const scaleSpace =
  (k: number, fractional = false) =>
  (moves: readonly Sample[]): Sample[] => {
    const first = moves[0];
    if (!first) return [];
    const place = (v: number, o: number) => (fractional ? o + (v - o) * k : Math.round(o + (v - o) * k));
    return moving(moves.map(([t, x, y]) => [t, place(x, first[1]), place(y, first[2])] as Sample));
  };

/**
 * A Bluetooth mouse on a busy radio: now and then (3 % of reports) the link drops for 40–120 ms
 * and the motion made meanwhile arrives as one move at the end of the dropout.
 */
function bluetoothDropouts(moves: readonly Sample[], seed: number): Sample[] {
  const rng = new Rng(seed);
  const out: Sample[] = [];
  let until = Number.NEGATIVE_INFINITY;
  let held: Sample | undefined;
  for (const s of moves) {
    if (s[0] < until) {
      held = s;
      continue;
    }
    if (held) {
      out.push([until, held[1], held[2]]);
      held = undefined;
    }
    out.push(s);
    if (rng.chance(0.03)) until = s[0] + rng.uniform(40, 120);
  }
  if (held) out.push([until, held[1], held[2]]);
  return moving(out);
}

/**
 * A touchpad user lifting the finger: one or two stops of 250–700 ms at random points inside the
 * movement (not its first or last fifth); the pointer goes on from where it stopped.
 */
function fingerLifts(moves: readonly Sample[], seed: number): Sample[] {
  const rng = new Rng(seed);
  const n = moves.length;
  if (n < 10) return [...moves];
  const lifts = new Map<number, number>();
  const count = rng.int(1, 2);
  for (let k = 0; k < count; k++)
    lifts.set(rng.int(Math.floor(n / 5), Math.floor((4 * n) / 5)), rng.uniform(250, 700));
  let shift = 0;
  return moves.map(([t, x, y], i) => {
    shift += lifts.get(i) ?? 0;
    return [t + shift, x, y] as Sample;
  });
}

/**
 * A touchscreen: the finger draws for 150–300 ms, lifts for 150–300 ms (no report meanwhile) and
 * lands 20–60 px from where it lifted, towards where the hand went meanwhile (±45°; any way when it
 * stayed). The recorded hand goes on from there. Not in DEVICE_TRANSFORMS (eval:people is desktop
 * pointers); eval/browsers/held-out-folders.ts writes a folder of it.
 */
export function touchscreenLifts(moves: readonly Sample[], seed: number): Sample[] {
  const rng = new Rng(seed);
  const out: Sample[] = [];
  let dx = 0;
  let dy = 0;
  let downUntil = (moves[0]?.[0] ?? 0) + rng.uniform(150, 300);
  for (let i = 0; i < moves.length; i++) {
    const [t, x, y] = moves[i]!;
    if (t < downUntil) {
      out.push([t, x + dx, y + dy]);
      continue;
    }
    const lift = moves[i - 1] ?? moves[i]!;
    const [, px, py] = out[out.length - 1] ?? [t, x + dx, y + dy];
    const landAt = t + rng.uniform(150, 300);
    while (i + 1 < moves.length && moves[i]![0] < landAt) i++;
    const [tl, xl, yl] = moves[i]!;
    const went =
      Math.hypot(xl - lift[1], yl - lift[2]) >= 1 ? Math.atan2(yl - lift[2], xl - lift[1]) : undefined;
    const angle =
      went === undefined ? rng.uniform(-Math.PI, Math.PI) : went + rng.uniform(-Math.PI / 4, Math.PI / 4);
    const d = rng.uniform(20, 60);
    const land: Sample = [tl, Math.round(px + d * Math.cos(angle)), Math.round(py + d * Math.sin(angle))];
    dx = land[1] - xl;
    dy = land[2] - yl;
    out.push(land);
    downUntil = tl + rng.uniform(150, 300);
  }
  return moving(out);
}

export const DEVICE_TRANSFORMS: readonly DeviceTransform[] = [
  { id: 'recorded', label: 'as recorded (one desktop, ~60 Hz, whole pixels)', apply: (m) => [...m] },
  { id: 'fast-x0.5', label: 'a fast person: time ×0.5 (reports 8 ms apart)', apply: scaleTime(0.5) },
  { id: 'slow-x2', label: 'a slow person: time ×2 (reports 33 ms apart)', apply: scaleTime(2) },
  {
    id: 'fast-x0.5-60hz',
    label: 'a fast person at 60 Hz: time ×0.5, newest position each frame',
    apply: (m, seed) => reportOn(scaleTime(0.5)(m), seed, () => 1000 / 60),
  },
  {
    id: '60hz',
    label: 'reported at 60 Hz (another phase)',
    apply: (m, seed) => reportOn(m, seed, () => 1000 / 60),
  },
  {
    id: '30hz',
    label: 'reported at 30 Hz (a VM or a remote desktop)',
    apply: (m, seed) => reportOn(m, seed, () => 1000 / 30),
  },
  {
    id: 'irregular',
    label: 'reported irregularly, 8–120 ms apart (a remote desktop over a network)',
    apply: (m, seed) => reportOn(m, seed, (rng) => Math.min(120, Math.max(8, rng.logNormal(25, 0.5)))),
  },
  {
    id: 'windows-15.6ms',
    label: 'reported every 15.6 ms (the Windows timer: a remote desktop client on a fast link)',
    apply: (m, seed) => reportOn(m, seed, () => 15.625),
  },
  {
    id: 'remote-94ms',
    label: 'reported every ~94 ms, 25–45 px apart at speed (a remote desktop client on a slow link)',
    apply: (m, seed) => reportOn(m, seed, (rng) => rng.uniform(85, 103)),
  },
  { id: 'bluetooth', label: 'Bluetooth dropouts: 3 % of reports held 40–120 ms', apply: bluetoothDropouts },
  {
    id: 'space-x0.5',
    label: 'space ×0.5, whole pixels (slow acceleration, a small touchpad)',
    apply: scaleSpace(0.5),
  },
  {
    id: 'space-x2',
    label: 'space ×2, whole pixels (fast acceleration, a large screen)',
    apply: scaleSpace(2),
  },
  {
    id: 'finger-lifts',
    label: 'a touchpad: 1–2 finger lifts of 250–700 ms mid-movement',
    apply: fingerLifts,
  },
  {
    id: 'dpr-1.25',
    label: 'Windows at 125 %: whole device pixels, 0.8 CSS px apart',
    apply: scaleSpace(0.8, true),
  },
  {
    id: 'fractional',
    label: 'positions between pixels (macOS, Wayland): space ×1.37, not rounded',
    apply: scaleSpace(1.37, true),
  },
];

/** `second` applied to what `first` delivers (e.g. a fast person on a 30 Hz remote desktop). */
export function combine(first: DeviceTransform, second: DeviceTransform): DeviceTransform {
  return {
    id: `${first.id}+${second.id}`,
    label: `${first.label}; ${second.label}`,
    apply: (moves, seed) => second.apply(first.apply(moves, seed), seed + 7919),
  };
}

const byId = (id: string) => {
  const t = DEVICE_TRANSFORMS.find((d) => d.id === id);
  if (!t) throw new Error(`no transform ${id}`);
  return t;
};

/** Pairs where two causes add up: speed and report rate, acceleration and report rate, speed and acceleration. */
export const COMBINED_TRANSFORMS: readonly DeviceTransform[] = [
  combine(byId('fast-x0.5'), byId('30hz')),
  combine(byId('fast-x0.5'), byId('irregular')),
  combine(byId('slow-x2'), byId('irregular')),
  combine(byId('space-x0.5'), byId('60hz')),
  combine(byId('slow-x2'), byId('space-x0.5')),
  combine(byId('fast-x0.5'), byId('space-x0.5')),
  combine(byId('space-x0.5'), byId('finger-lifts')),
];
