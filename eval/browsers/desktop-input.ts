import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { path as ghostPath } from 'ghost-cursor';
import { XVFB } from '../../e2e/support/desktop.ts';
import { type Box, HumanScript, type Point, type Trace } from '../../e2e/support/human-input.ts';
import { mulberry32 } from '../../packages/server/src/testing/rng.ts';
import type { Reach } from '../aiming/reaches.ts';
import { aimingScript } from '../aiming/script.ts';
import { humanizePath } from './paths/humanize.ts';
import { naturalMotionPath } from './paths/natural-motion.ts';
import { type TimedPoint, withSeededMath } from './paths/timed-path.ts';
import { windMousePath } from './paths/windmouse.ts';
import { type ScreenLayout, screenLayout } from './screen-layout.ts';

/**
 * OS-level input for a plain chromium on Xvfb (no CDP): xdotool scripts that move like each
 * adversary does — straight constant-speed lines, ghost-cursor's Bezier paths, a teleport to the
 * field, a recorded bot trace — or like a recorded person. Keys: uniform intervals for the bots
 * (what `xdotool type --delay` does), randomised uniform ranges for ghost-cursor users, a
 * typist's log-normal gaps and holds with rollover for the person (HumanScript.type).
 */

export interface Display {
  display: string;
  width: number;
  height: number;
  stop(): Promise<void>;
}

/** Xvfb on the first free display number of `numbers` (the lock file tells which are taken). */
export async function startXvfbIn(numbers: readonly number[], width = 1280, height = 1024): Promise<Display> {
  for (const n of numbers) {
    if (fs.existsSync(`/tmp/.X${n}-lock`)) continue;
    const child: ChildProcess = spawn(
      XVFB,
      [`:${n}`, '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp', '-noreset'],
      { stdio: 'ignore', detached: true },
    );
    const up = await new Promise<boolean>((resolve) => {
      const started = Date.now();
      const poll = () => {
        if (child.exitCode !== null) return resolve(false);
        if (fs.existsSync(`/tmp/.X11-unix/X${n}`)) return resolve(true);
        if (Date.now() - started > 10_000) return resolve(false);
        setTimeout(poll, 100);
      };
      poll();
    });
    if (!up) {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
      continue;
    }
    return {
      display: `:${n}`,
      width,
      height,
      async stop() {
        try {
          process.kill(-child.pid!, 'SIGTERM');
        } catch {
          return;
        }
        for (let i = 0; i < 30 && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 100));
        if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
      },
    };
  }
  throw new Error(`no free X display in :${numbers[0]}–:${numbers[numbers.length - 1]}`);
}

export { type ScreenLayout, screenLayout };

/** How long a replayed person's stroke piece lasts (18–25 samples of the 60 Hz DELBOT recording). */
const PERSON_PIECE_MS = [300, 420] as const;

export type DesktopStyle =
  | 'straight'
  | 'ghost'
  | 'windmouse'
  | 'humanize'
  | 'nmm'
  | 'teleport'
  | 'replay_bot'
  | 'human'
  | 'aiming';

/** Styles that move along a human-like path library's points and type like a "humanised" script. */
const LIBRARY_STYLES: ReadonlySet<DesktopStyle> = new Set(['ghost', 'windmouse', 'humanize', 'nmm']);

/** An xdotool script that logs in on the shop page with the given input style. */
export async function desktopScript(
  style: DesktopStyle,
  layout: ScreenLayout,
  creds: { email: string; password: string },
  seed: number,
  traces: { human: Trace[]; bot: Trace[]; reaches?: readonly Reach[] },
): Promise<string[]> {
  if (style === 'aiming') {
    // A person's own aimed reaches carried onto the form (eval/aiming/script.ts), Fitts-timed.
    if (!traces.reaches || traces.reaches.length === 0) throw new Error('the aiming style needs reaches');
    return aimingScript(traces.reaches, layout, creds, seed, 'fitts');
  }
  const random = mulberry32(seed);
  const library = LIBRARY_STYLES.has(style);
  /**
   * @extra/humanize's points replayed at one interval per step, fixed for the run (8–16 ms), drawn
   * from a generator of its own so the other styles' draws stay as they were.
   */
  const humanizeStepMs = 8 + Math.round(8 * mulberry32(seed + 7919)());
  const between = (lo: number, hi: number) => lo + (hi - lo) * random();
  const aim = (b: Box, spread = 0.3): Point => ({
    x: b.x + b.width * (0.5 + between(-spread, spread) / 2),
    y: b.y + b.height * (0.5 + between(-spread, spread) / 2),
  });
  const start: Point = {
    x: Math.round(layout.content.x + between(100, 600)),
    y: Math.round(layout.content.y + between(300, 600)),
  };
  const lines: string[] = [`mousemove ${start.x} ${start.y}`, 'sleep 0.4'];
  let at = start;
  const sleep = (ms: number) => {
    if (ms > 0) lines.push(`sleep ${(ms / 1000).toFixed(4)}`);
  };
  const move = (p: Point) => {
    const q = { x: Math.round(p.x), y: Math.round(p.y) };
    if (q.x !== at.x || q.y !== at.y) lines.push(`mousemove ${q.x} ${q.y}`);
    at = q;
  };
  /** Constant speed (1 px/ms), a sample every 10 ms, on the straight line. */
  const straightTo = (to: Point) => {
    const d = Math.hypot(to.x - at.x, to.y - at.y);
    const steps = Math.max(1, Math.round(d / 10));
    const from = at;
    for (let i = 1; i <= steps; i++) {
      move({ x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps });
      sleep(10);
    }
  };
  /** ghost-cursor's `path`, drawn with this script's seeded random numbers (it calls Math.random). */
  const ghostPathSeeded = (...args: Parameters<typeof ghostPath>) =>
    withSeededMath(random, () => ghostPath(...args) as Array<{ x: number; y: number; timestamp: number }>);
  /** ghost-cursor's own path (Bezier, Fitts's-law step count, its timestamps), with its overshoot. */
  const ghostTo = (to: Point, box: Box) => {
    const tracePath = (pts: Array<{ x: number; y: number; timestamp?: number }>) => {
      let prev = pts[0]?.timestamp ?? 0;
      for (const p of pts) {
        sleep(Math.min(60, (p.timestamp ?? prev) - prev));
        prev = p.timestamp ?? prev;
        move(p);
      }
    };
    const far = Math.hypot(to.x - at.x, to.y - at.y) > 500; // ghost-cursor's default overshootThreshold
    if (far) {
      const r = 120 * Math.sqrt(random());
      const theta = random() * 2 * Math.PI;
      const over = { x: to.x + r * Math.cos(theta), y: to.y + r * Math.sin(theta) };
      tracePath(ghostPathSeeded(at, over, { useTimestamps: true }));
      sleep(between(20, 80));
      tracePath(
        ghostPathSeeded(
          at,
          { ...to, width: box.width, height: box.height },
          { spreadOverride: 10, useTimestamps: true },
        ),
      );
    } else {
      tracePath(ghostPathSeeded(at, to, { useTimestamps: true }));
    }
    move(to);
  };
  /** A library's timed points, each slept to its timestamp (at most 60 ms at a time). */
  const followTimed = (pts: TimedPoint[], to: Point) => {
    let prev = 0;
    for (const p of pts) {
      sleep(Math.min(60, p.t - prev));
      prev = p.t;
      move(p);
    }
    move(to);
  };
  const human = new HumanScript(seed);
  const botTrace = () => traces.bot[Math.floor(random() * traces.bot.length)]!;

  const goTo = async (box: Box) => {
    const to = aim(box, style === 'teleport' ? 0 : 0.3);
    if (style === 'straight') straightTo(to);
    else if (style === 'ghost') ghostTo(to, box);
    else if (style === 'windmouse') followTimed(await windMousePath(at, to, random), to);
    else if (style === 'humanize') followTimed(humanizePath(at, to, box, random, humanizeStepMs), to);
    else if (style === 'nmm') followTimed(naturalMotionPath(at, to, random), to);
    else if (style === 'teleport') move(to);
    else {
      // A piece of a recorded trace mapped onto the segment (HumanScript.strokeTo) — a bot's or a person's.
      const trace =
        style === 'human' ? traces.human[Math.floor(random() * traces.human.length)]! : botTrace();
      human.lines.length = 0;
      (human as unknown as { at: Point }).at = at;
      // People: a piece of their movement lasting what ~22 samples of a 60 Hz recording last, whatever
      // their device's report rate; bots: ~22 samples, as their replays always were.
      human.strokeTo(to, trace, style === 'human' ? PERSON_PIECE_MS : undefined);
      lines.push(...human.lines);
      at = { x: Math.round(to.x), y: Math.round(to.y) };
      const last = [...human.lines].reverse().find((l) => l.startsWith('mousemove'));
      if (last) {
        const [, x, y] = last.split(' ');
        at = { x: Number(x), y: Number(y) };
      }
    }
  };
  const click = () => {
    if (style === 'human' || library) {
      sleep(between(80, 220));
      lines.push('mousedown 1');
      sleep(between(70, 140));
      lines.push('mouseup 1');
      sleep(between(150, 400));
    } else {
      lines.push('click 1');
      sleep(200);
    }
  };
  const type = (text: string) => {
    if (style === 'human') {
      human.lines.length = 0;
      human.type(text);
      lines.push(...human.lines);
    } else if (library) {
      // What a "humanised" script does: each key held 30–90 ms, 50–180 ms between keys (uniform).
      for (const ch of text) {
        const shift = ch === '@' || /[A-Z]/.test(ch);
        const keysym = ch === '@' ? '2' : ch === '.' ? 'period' : ch.toLowerCase();
        if (shift) lines.push('keydown Shift_L');
        lines.push(`keydown ${keysym}`);
        sleep(between(30, 90));
        lines.push(`keyup ${keysym}`);
        if (shift) lines.push('keyup Shift_L');
        sleep(between(50, 180));
      }
    } else {
      lines.push(`type --delay 90 ${text}`);
      sleep(150);
    }
  };

  if (style === 'human') {
    // Look around the page first, as the recorded person did.
    const look = traces.human.slice(0, 2);
    human.lines.length = 0;
    for (const t of look) human.replay(t, layout.content, true).sleep(between(250, 600));
    lines.push(...human.lines);
    const last = [...human.lines].reverse().find((l) => l.startsWith('mousemove'));
    if (last) {
      const [, x, y] = last.split(' ');
      at = { x: Number(x), y: Number(y) };
    }
  }
  await goTo(layout.email);
  click();
  type(creds.email);
  await goTo(layout.password);
  click();
  type(creds.password);
  await goTo(layout.submit);
  click();
  return lines;
}
