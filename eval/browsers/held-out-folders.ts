import fs from 'node:fs';
import path from 'node:path';
import { mulberry32 } from '../../packages/server/src/testing/rng.ts';
import {
  combine,
  DEVICE_TRANSFORMS,
  type DeviceTransform,
  touchscreenLifts,
} from '../lib/device-transforms.ts';
import { MOUSE_DATA_DIR, type Sample } from '../lib/traces.ts';

/**
 * `npm run eval:held-out-folders -- <out-dir>`: synthetic stand-ins for held-out people, for
 * `npm run eval:browsers -- --people <out-dir>/<folder>` (eval/README.md). Each folder is the first
 * 40 traces of fixtures/mouse-dev/circles_human_pc1 as another device would deliver them, in the
 * DELBOT format; Pressed/Released lines are kept, retimed with the moves and placed where the
 * pointer then is. Deterministic (mulberry32 seeds). Not recordings of other people.
 */
const TRACES = 40;
const PHONE = { width: 412, height: 915 };

const byId = (id: string): DeviceTransform => DEVICE_TRANSFORMS.find((d) => d.id === id)!;

export interface HeldOutFolder {
  name: string;
  /** The moves' time scale (presses are retimed by it too). */
  timeScale: number;
  /** The screen, when not the recording's. */
  screen?: { width: number; height: number };
  apply(moves: readonly Sample[], seed: number): Sample[];
}

export const HELD_OUT_FOLDERS: readonly HeldOutFolder[] = [
  { name: 'vm-fast30', timeScale: 0.5, apply: combine(byId('fast-x0.5'), byId('30hz')).apply },
  { name: 'remote-irregular', timeScale: 1, apply: byId('irregular').apply },
  { name: 'portrait', timeScale: 1, screen: PHONE, apply: (m) => [...m] },
  { name: 'phone-lifts', timeScale: 1, screen: PHONE, apply: touchscreenLifts },
];

interface Event {
  t: number;
  kind: string;
  x: number;
  y: number;
}

function readEvents(text: string): { width: number; height: number; events: Event[] } {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const head = /^resolution:(\d+),(\d+)/.exec(lines[0] ?? '');
  const events = lines.slice(head ? 1 : 0).map((l) => {
    const [t, kind, x, y] = l.split(',');
    return { t: Number(t), kind: kind ?? '', x: Number(x), y: Number(y) };
  });
  return { width: Number(head?.[1] ?? 1920), height: Number(head?.[2] ?? 1080), events };
}

/** One trace as `folder` delivers it: the DELBOT text. */
export function transformTrace(text: string, folder: HeldOutFolder, seed: number): string {
  const { width, height, events } = readEvents(text);
  const screen = folder.screen ?? { width, height };
  // Shrunk (never stretched) around the top-left corner to fit the screen, whole pixels.
  const k = Math.min(1, screen.width / width, screen.height / height);
  const on = (v: number, max: number) => Math.min(max - 1, Math.max(0, Math.round(v)));
  const moves = events
    .filter((e) => e.kind === 'Move')
    .map((e): Sample => [e.t, on(e.x * k, screen.width), on(e.y * k, screen.height)]);
  const t0 = moves[0]?.[0] ?? 0;
  const out = folder
    .apply(moves, seed)
    .map(([t, x, y]) => ({ t, kind: 'Move', x: on(x, screen.width), y: on(y, screen.height) }))
    // A move to the same pixel is no move (the shrunk screen's pixels are coarser).
    .filter((m, i, all) => i === 0 || m.x !== all[i - 1]!.x || m.y !== all[i - 1]!.y);
  for (const e of events) {
    if (e.kind === 'Move') continue;
    const t = t0 + (e.t - t0) * folder.timeScale;
    const at = out.filter((m) => m.kind === 'Move' && m.t <= t).pop();
    out.push({
      t,
      kind: e.kind,
      x: at?.x ?? on(e.x * k, screen.width),
      y: at?.y ?? on(e.y * k, screen.height),
    });
  }
  out.sort((a, b) => a.t - b.t);
  const lines = out.map((e) => `${Number(e.t.toFixed(3))},${e.kind},${e.x},${e.y}`);
  return `resolution:${screen.width},${screen.height}\n${lines.join('\n')}\n`;
}

/** Writes every folder under `outDir`; returns the folders' paths. */
export function writeHeldOutFolders(
  outDir: string,
  source = path.join(MOUSE_DATA_DIR, 'circles_human_pc1'),
): string[] {
  const files = fs
    .readdirSync(source)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .slice(0, TRACES);
  return HELD_OUT_FOLDERS.map((folder, n) => {
    const dir = path.join(outDir, folder.name);
    fs.mkdirSync(dir, { recursive: true });
    const seed = mulberry32(0x5eed + n);
    for (const f of files) {
      const text = fs.readFileSync(path.join(source, f), 'utf8');
      fs.writeFileSync(path.join(dir, f), transformTrace(text, folder, Math.floor(seed() * 2 ** 32)));
    }
    return dir;
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = process.argv[2];
  if (!out) {
    console.error('usage: npm run eval:held-out-folders -- <out-dir>');
    process.exit(2);
  }
  for (const dir of writeHeldOutFolders(out)) console.log(`${dir}: ${fs.readdirSync(dir).length} traces`);
}
