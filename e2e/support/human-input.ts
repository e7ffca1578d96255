import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32, normal } from '../../packages/server/src/testing/rng.ts';

/**
 * xdotool scripts that replay recorded human mouse movement (DELBOT-Mouse traces in the
 * repository's fixtures/mouse-dev, MIT licence) and type with human key timing. Positions are
 * screen pixels; times keep the recording's own intervals.
 */
export const HUMAN_TRACES =
  process.env.WARDEN_MOUSE_TRACES ??
  fileURLToPath(new URL('../../fixtures/mouse-dev/circles_human_pc1', import.meta.url));

export interface Trace {
  width: number;
  height: number;
  /** Move events only: [ms from the first move, x, y]. */
  moves: Array<[number, number, number]>;
}

/** `resolution:W,H`, then `<ms>,<Move|Pressed|Released>,<x>,<y>` a line. */
export function parseTrace(text: string): Trace {
  const lines = text.trim().split('\n');
  const res = /^resolution:(\d+),(\d+)/.exec(lines[0] ?? '');
  const moves: Trace['moves'] = [];
  for (const line of lines.slice(1)) {
    const [t, kind, x, y] = line.split(',');
    if (kind !== 'Move') continue;
    moves.push([Number(t), Number(x), Number(y)]);
  }
  const t0 = moves[0]?.[0] ?? 0;
  for (const m of moves) m[0] -= t0;
  return { width: Number(res?.[1] ?? 1920), height: Number(res?.[2] ?? 1080), moves };
}

/** A gap in a recording after which the pointer is elsewhere (JUMP_PX or more) is a jump, not movement. */
const JUMP_GAP_MS = 100;
const JUMP_PX = 10;

/**
 * The trace as a desktop pointer would make it: every jump (a gap of JUMP_GAP_MS or more after
 * which the pointer is JUMP_PX or more away) closed by shifting the rest of the trace back by it.
 * A hand that pauses comes back where it stopped; a touchscreen finger lifted and put down
 * elsewhere, or a recorder that lost samples, jumps, which no mouse or touchpad does: on those the
 * pointer stays where the lift left it, as here.
 */
export function withoutJumps(trace: Trace): Trace {
  let dx = 0;
  let dy = 0;
  const moves = trace.moves.map(([t, x, y], i): [number, number, number] => {
    const prev = trace.moves[i - 1];
    if (prev && t - prev[0] >= JUMP_GAP_MS && Math.hypot(x - prev[1], y - prev[2]) >= JUMP_PX) {
      dx += x - prev[1];
      dy += y - prev[2];
    }
    return [t, x - dx, y - dy];
  });
  return { ...trace, moves };
}

export function loadTraces(dir = HUMAN_TRACES, count = 24): Trace[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .slice(0, count)
    .map((f) => parseTrace(fs.readFileSync(path.join(dir, f), 'utf8')));
}

export interface Point {
  x: number;
  y: number;
}
export interface Box extends Point {
  width: number;
  height: number;
}

/** Keysyms for the characters the tests type (US layout). */
const KEYSYM: Record<string, string> = {
  '.': 'period',
  '@': '2', // with shift
  '-': 'minus',
  _: 'minus', // with shift
  ' ': 'space',
};
const SHIFTED = new Set(['@', '_']);

/** Builds one xdotool script: moves with recorded timing, clicks and keys with human dwell. */
export class HumanScript {
  readonly lines: string[] = [];
  private at: Point | undefined;
  private readonly random: () => number;
  /** The typist `type` types as, drawn at its first call. */
  private typist: { gap: number; gapSigma: number; hold: number; holdSigma: number } | undefined;

  constructor(seed = 7) {
    this.random = mulberry32(seed);
  }

  private between(lo: number, hi: number): number {
    return lo + (hi - lo) * this.random();
  }

  cmd(line: string): this {
    this.lines.push(line);
    return this;
  }

  sleep(ms: number): this {
    if (ms > 0) this.lines.push(`sleep ${(ms / 1000).toFixed(4)}`);
    return this;
  }

  private moveTo(x: number, y: number, afterMs: number): void {
    const p = { x: Math.round(x), y: Math.round(y) };
    this.sleep(afterMs);
    // X sends no motion event for a move to the same pixel; skip it rather than record a gap.
    if (this.at && this.at.x === p.x && this.at.y === p.y) return;
    this.lines.push(`mousemove ${p.x} ${p.y}`);
    this.at = p;
  }

  /**
   * Replays a whole trace scaled into `box` (screen pixels), keeping its timing. `keepAspect`: one
   * scale for both axes, centred in the box, so a recording from a screen of another shape (a
   * phone held upright) keeps its angles and curvature instead of being stretched on one axis.
   */
  replay(trace: Trace, box: Box, keepAspect = false): this {
    let sx = box.width / trace.width;
    let sy = box.height / trace.height;
    let ox = box.x;
    let oy = box.y;
    if (keepAspect) {
      sx = sy = Math.min(sx, sy);
      ox += (box.width - trace.width * sx) / 2;
      oy += (box.height - trace.height * sy) / 2;
    }
    let prev = 0;
    for (const [t, x, y] of trace.moves) {
      this.moveTo(ox + x * sx, oy + y * sy, t - prev);
      prev = t;
    }
    return this;
  }

  /**
   * Moves from the current position to `to` along a piece of a recorded human stroke, mapped onto
   * the segment by rotation, scale and translation (its curvature and timing are kept).
   */
  strokeTo(to: Point, trace: Trace, pieceMs?: readonly [number, number]): this {
    const from = this.at ?? to;
    const moves = trace.moves;
    let piece: Trace['moves'];
    if (pieceMs) {
      piece = this.timedPiece(moves, this.between(pieceMs[0], pieceMs[1]));
    } else {
      // A piece of about 22 samples (~350 ms at 60 Hz) from a random place in the trace.
      const len = Math.min(moves.length, 18 + Math.floor(this.between(0, 8)));
      const start = Math.floor(this.between(0, Math.max(1, moves.length - len)));
      piece = moves.slice(start, start + len);
    }
    const a = piece[0]!;
    const b = piece[piece.length - 1]!;
    const src = Math.hypot(b[1] - a[1], b[2] - a[2]);
    const dst = Math.hypot(to.x - from.x, to.y - from.y);
    if (src < 20 || dst < 2) {
      this.moveTo(to.x, to.y, 120);
      return this;
    }
    const scale = dst / src;
    const rot = Math.atan2(to.y - from.y, to.x - from.x) - Math.atan2(b[2] - a[2], b[1] - a[1]);
    const cos = Math.cos(rot) * scale;
    const sin = Math.sin(rot) * scale;
    let prev = a[0];
    for (const [t, x, y] of piece.slice(1)) {
      const dx = x - a[1];
      const dy = y - a[2];
      this.moveTo(from.x + dx * cos - dy * sin, from.y + dx * sin + dy * cos, t - prev);
      prev = t;
    }
    return this;
  }

  /**
   * A piece of the trace lasting about `ms` (at least half of it) whose ends are 20 px or more apart, whatever the
   * recording's report rate (a sample count would cover a whole out-and-back excursion of a 30 Hz
   * or a fast recording, whose ends meet: the stroke would collapse into a jump). Up to 8 random
   * starts, then the trace's first movement (from its start to the point farthest from it).
   */
  private timedPiece(moves: Trace['moves'], ms: number): Trace['moves'] {
    const apart = (p: Trace['moves']) =>
      p.length >= 2 && Math.hypot(p[p.length - 1]![1] - p[0]![1], p[p.length - 1]![2] - p[0]![2]) >= 20;
    for (let attempt = 0; attempt < 8 && moves.length >= 2; attempt++) {
      const start = Math.floor(this.between(0, moves.length - 1));
      let end = start + 1;
      while (end < moves.length - 1 && moves[end]![0] - moves[start]![0] < ms) end++;
      const piece = moves.slice(start, end + 1);
      if (apart(piece) && piece[piece.length - 1]![0] - piece[0]![0] >= ms / 2) return piece;
    }
    let far = 0;
    for (const [i, m] of moves.entries())
      if (
        Math.hypot(m[1] - moves[0]![1], m[2] - moves[0]![2]) >
        Math.hypot(moves[far]![1] - moves[0]![1], moves[far]![2] - moves[0]![2])
      )
        far = i;
    return moves.slice(0, far + 1);
  }

  click(): this {
    this.sleep(this.between(80, 220));
    this.lines.push('mousedown 1');
    this.sleep(this.between(70, 140));
    this.lines.push('mouseup 1');
    return this.sleep(this.between(150, 400));
  }

  /** A key held for a human dwell time (60–150 ms). */
  key(keysym: string, shift = false): this {
    if (shift) this.cmd('keydown Shift_L').sleep(this.between(40, 90));
    this.cmd(`keydown ${keysym}`).sleep(this.between(60, 150)).cmd(`keyup ${keysym}`);
    if (shift) this.sleep(this.between(20, 60)).cmd('keyup Shift_L');
    return this.sleep(this.between(40, 220));
  }

  selectAll(): this {
    this.lines.push('keydown Control_L');
    this.sleep(this.between(90, 160));
    this.key('a');
    this.lines.push('keyup Control_L');
    return this.sleep(this.between(150, 300));
  }

  /**
   * Types `text` as a person does (Dhakal et al., "Observations on typing from 136 million
   * keystrokes", CHI 2018, and the CMU keystroke benchmark, as measured by `npm run eval:typists`,
   * eval/README.md "Real typists"): key-down to key-down gaps log-normal (real pages: log-σ
   * 0.27–1.21, median 0.66–0.70; a person's median gap 104 ms or more, typically 150–300 ms),
   * holds log-normal (CV mostly 0.15–0.5; a person's median hold 43–130 ms), and keys rolled over
   * (the next key pressed before the previous one is released; on sentences up to 74 % of a
   * page's keys, median 15 %), which follows from a gap shorter than the previous hold.
   *
   * The typist is drawn once per instance (its first `type`): median gap U(150, 300) ms, gap log-σ
   * U(0.45, 0.8), median hold U(70, 120) ms, hold log-σ U(0.15, 0.3). Every key's down and up is
   * scheduled, then the events are emitted in time order with sleeps between them. Constraints: a
   * gap is never under 35 ms (gaps and holds are redrawn below their minimum, never clamped: a
   * clamp would pile them on a floor); a key still down is never pressed again (a double letter
   * goes down 10 ms or more after its release); a shifted character (upper case, SHIFTED) holds
   * Shift_L from 40–90 ms before its key to 20–60 ms after it and overlaps no other key. A pause of
   * 200–500 ms follows the text.
   */
  type(text: string): this {
    this.typist ??= {
      gap: this.between(150, 300),
      gapSigma: this.between(0.45, 0.8),
      hold: this.between(70, 120),
      holdSigma: this.between(0.15, 0.3),
    };
    const typist = this.typist;
    const lognormal = (median: number, sigma: number, min: number) => {
      for (;;) {
        const v = median * Math.exp(sigma * normal(this.random));
        if (v >= min) return v;
      }
    };
    const events: Array<{ t: number; line: string }> = [];
    const lastUp = new Map<string, number>();
    let prevDown = Number.NaN;
    let allUp = Number.NEGATIVE_INFINITY; // when every key scheduled so far is up (Shift too)
    let afterShift = Number.NEGATIVE_INFINITY; // the earliest press after a shifted character
    for (const ch of text) {
      const keysym = KEYSYM[ch] ?? ch.toLowerCase();
      const shifted = /[A-Z]/.test(ch) || SHIFTED.has(ch);
      const hold = lognormal(typist.hold, typist.holdSigma, 25);
      let down = Number.isNaN(prevDown) ? 0 : prevDown + lognormal(typist.gap, typist.gapSigma, 35);
      down = Math.max(down, (lastUp.get(keysym) ?? Number.NEGATIVE_INFINITY) + 10, afterShift);
      if (shifted) {
        const lead = this.between(40, 90);
        // Shift goes down after every other key is up.
        down = Math.max(down, allUp + this.between(10, 40) + lead, lead);
        const up = down + hold;
        const shiftUp = up + this.between(20, 60);
        events.push(
          { t: down - lead, line: 'keydown Shift_L' },
          { t: down, line: `keydown ${keysym}` },
          { t: up, line: `keyup ${keysym}` },
          { t: shiftUp, line: 'keyup Shift_L' },
        );
        lastUp.set(keysym, up);
        allUp = Math.max(allUp, shiftUp);
        afterShift = shiftUp + this.between(10, 40);
      } else {
        const up = down + hold;
        events.push({ t: down, line: `keydown ${keysym}` }, { t: up, line: `keyup ${keysym}` });
        lastUp.set(keysym, up);
        allUp = Math.max(allUp, up);
      }
      prevDown = down;
    }
    // Time order (a stable sort: a key's own down stays before its up).
    events.sort((a, b) => a.t - b.t);
    const t0 = events[0]?.t ?? 0;
    let slept = 0; // in 0.1 ms, so the rounding of each sleep does not add up
    for (const e of events) {
      const at = Math.round((e.t - t0) * 10);
      if (at > slept) this.sleep((at - slept) / 10);
      slept = Math.max(slept, at);
      this.lines.push(e.line);
    }
    return this.sleep(this.between(200, 500));
  }
}
