import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTrace } from '../../e2e/support/human-input.ts';
import { heldOutSetups } from '../browsers/held-out.ts';
import { writeHeldOutFolders } from '../browsers/held-out-folders.ts';

/** `npm run eval:held-out-folders -- <dir>`: the synthetic held-out people eval/README.md measures. */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-held-out-folders-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const dirs = writeHeldOutFolders(root);

function read(name: string) {
  const dir = path.join(root, name);
  return fs
    .readdirSync(dir)
    .sort()
    .map((f) => ({
      text: fs.readFileSync(path.join(dir, f), 'utf8'),
      trace: parseTrace(fs.readFileSync(path.join(dir, f), 'utf8')),
    }));
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
const intervals = (moves: ReadonlyArray<readonly number[]>) =>
  moves.slice(1).map((m, i) => m[0]! - moves[i]![0]!);

describe('held-out folders', () => {
  it('writes four folders of 40 traces that eval:browsers --people accepts', () => {
    expect(dirs.map((d) => path.basename(d))).toEqual([
      'vm-fast30',
      'remote-irregular',
      'portrait',
      'phone-lifts',
    ]);
    for (const d of dirs) expect(fs.readdirSync(d).filter((f) => f.endsWith('.txt'))).toHaveLength(40);
    expect(heldOutSetups(dirs, []).map((s) => s.id)).toEqual([
      'person-vm-fast30',
      'person-remote-irregular',
      'person-portrait',
      'person-phone-lifts',
    ]);
  });

  it('is deterministic', () => {
    const again = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-held-out-folders-'));
    try {
      writeHeldOutFolders(again);
      for (const d of dirs)
        for (const f of fs.readdirSync(d))
          expect(fs.readFileSync(path.join(again, path.basename(d), f), 'utf8')).toBe(
            fs.readFileSync(path.join(d, f), 'utf8'),
          );
    } finally {
      fs.rmSync(again, { recursive: true, force: true });
    }
  });

  it('vm-fast30: the recorded screen, moves 33 ms apart, presses kept', () => {
    for (const { text, trace } of read('vm-fast30')) {
      expect([trace.width, trace.height]).toEqual([1920, 1080]);
      expect(text).toMatch(/,Pressed,/);
      const gaps = intervals(trace.moves).slice(1);
      expect(median(gaps)).toBeCloseTo(1000 / 30, 0);
    }
  });

  it('remote-irregular: reports 8–120 ms apart, not on a clock', () => {
    const gaps = read('remote-irregular').flatMap(({ trace }) => intervals(trace.moves).slice(1));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(8 - 1e-6);
    expect(new Set(gaps.map((g) => Math.round(g / 5))).size).toBeGreaterThan(10);
  });

  it('portrait and phone-lifts: a 412 × 915 screen, every position and press on it', () => {
    for (const name of ['portrait', 'phone-lifts'])
      for (const { text, trace } of read(name)) {
        expect([trace.width, trace.height]).toEqual([412, 915]);
        for (const line of text.trim().split('\n').slice(1)) {
          const [, , x, y] = line.split(',').map(Number);
          expect(x).toBeGreaterThanOrEqual(0);
          expect(x).toBeLessThan(412);
          expect(y).toBeGreaterThanOrEqual(0);
          expect(y).toBeLessThan(915);
        }
      }
  });

  it('phone-lifts: the finger lifts (a gap of 100 ms+, then 10 px+ away); portrait does not', () => {
    const jumps = (name: string) =>
      read(name).map(
        ({ trace }) =>
          trace.moves.filter((m, i) => {
            const p = trace.moves[i - 1];
            return p && m[0] - p[0] >= 100 && Math.hypot(m[1] - p[1], m[2] - p[2]) >= 10;
          }).length,
      );
    const phone = jumps('phone-lifts');
    expect(phone.filter((n) => n >= 1).length).toBeGreaterThanOrEqual(36);
    expect(phone.reduce((a, b) => a + b, 0)).toBeGreaterThan(80);
    expect(jumps('portrait').reduce((a, b) => a + b, 0)).toBeLessThan(10);
  });
});
