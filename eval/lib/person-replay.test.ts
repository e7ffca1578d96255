import { describe, expect, it } from 'vitest';
import { HumanScript, type Trace, withoutJumps } from '../../e2e/support/human-input.ts';

/**
 * How `npm run eval:browsers` replays a person's recording onto a form (HumanScript.strokeTo): the
 * piece of movement it maps onto each segment must stay a movement for recordings of any report
 * rate (held-out people: VMs, remote desktops, fast hands), never a jump to the target.
 */
function outAndBack(hz: number, ms = 900): Trace {
  const moves: Trace['moves'] = [];
  const n = Math.round((ms * hz) / 1000);
  for (let i = 0; i <= n; i++) {
    const u = i / n;
    const reach = 400 * Math.sin(Math.PI * u); // out to 400 px and back, as a DELBOT excursion
    moves.push([(i * 1000) / hz, Math.round(reach), Math.round(30 * Math.sin(2 * Math.PI * u))]);
  }
  return { width: 1920, height: 1080, moves };
}

const moveLines = (s: HumanScript) => s.lines.filter((l) => l.startsWith('mousemove'));

describe('person replay: stroke pieces by time', () => {
  it('a short 30 Hz out-and-back recording (a fast hand on a VM) gives a movement of several moves, not a jump', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const s = new HumanScript(seed);
      s.cmd('mousemove 100 100');
      (s as unknown as { at: { x: number; y: number } }).at = { x: 100, y: 100 };
      s.strokeTo({ x: 600, y: 300 }, outAndBack(30, 500), [300, 420]);
      expect(moveLines(s).length, `seed ${seed}`).toBeGreaterThanOrEqual(5);
    }
  });

  it('by sample count (how bot recordings are replayed), the same recording often collapses into one jump', () => {
    let jumps = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const s = new HumanScript(seed);
      (s as unknown as { at: { x: number; y: number } }).at = { x: 100, y: 100 };
      s.strokeTo({ x: 600, y: 300 }, outAndBack(30, 500));
      if (moveLines(s).length === 1) jumps++;
    }
    expect(jumps).toBeGreaterThan(10);
  });

  it('a 60 Hz recording keeps pieces of 18–25 samples, as before', () => {
    const s = new HumanScript(3);
    (s as unknown as { at: { x: number; y: number } }).at = { x: 100, y: 100 };
    s.strokeTo({ x: 600, y: 300 }, outAndBack(60, 1800), [300, 420]);
    expect(moveLines(s).length).toBeGreaterThanOrEqual(15);
    expect(moveLines(s).length).toBeLessThanOrEqual(26);
  });
});

describe('person replay: a touchscreen recording moves a desktop pointer without jumps', () => {
  /** A touchscreen recording: the finger lifts for 150–300 ms and lands 25–40 px away, eight times. */
  function lifted(): Trace {
    const moves: Trace['moves'] = [];
    let t = 0;
    let off = 0;
    for (let segment = 0; segment < 8; segment++) {
      for (let i = 0; i < 14; i++) {
        moves.push([t, 100 + segment * 120 + i * 8 + off, 300 + off]);
        t += 16;
      }
      t += 150 + (segment % 3) * 75;
      off += segment % 2 === 0 ? 40 : -25;
    }
    return { width: 1920, height: 1080, moves };
  }

  /**
   * How much larger the largest move made after a pause of 100 ms or more is than the largest made
   * without one, in the script's mousemoves (a jump: well over 1; a paused hand: 1 or less).
   */
  function jumpRatio(lines: readonly string[]): number {
    let t = 0;
    let last: [number, number, number] | undefined;
    let afterPause = 0;
    let moving = 0;
    for (const line of lines) {
      const [cmd, a, b] = line.split(' ');
      if (cmd === 'sleep') t += Number(a) * 1000;
      if (cmd !== 'mousemove') continue;
      const p: [number, number, number] = [t, Number(a), Number(b)];
      if (last) {
        const d = Math.hypot(p[1] - last[1], p[2] - last[2]);
        if (p[0] - last[0] >= 100) afterPause = Math.max(afterPause, d);
        else moving = Math.max(moving, d);
      }
      last = p;
    }
    return afterPause / Math.max(1, moving);
  }

  it('withoutJumps closes every lift, leaves a continuous recording as it is', () => {
    const closed = withoutJumps(lifted()).moves;
    for (let i = 1; i < closed.length; i++)
      if (closed[i]![0] - closed[i - 1]![0] >= 100)
        expect(Math.hypot(closed[i]![1] - closed[i - 1]![1], closed[i]![2] - closed[i - 1]![2])).toBeLessThan(
          10,
        );
    const continuous = outAndBack(60, 1800);
    expect(withoutJumps(continuous).moves).toEqual(continuous.moves);
  });

  it('replayed whole (looking around) and in pieces (to a field): no jump after a pause', () => {
    const box = { x: 0, y: 0, width: 1280, height: 900 };
    const raw = new HumanScript(1).replay(lifted(), box, true);
    expect(jumpRatio(raw.lines)).toBeGreaterThan(3); // the recording as it was: it jumps
    expect(jumpRatio(new HumanScript(1).replay(withoutJumps(lifted()), box, true).lines)).toBeLessThanOrEqual(
      1.5,
    );
    for (let seed = 1; seed <= 40; seed++) {
      const s = new HumanScript(seed);
      (s as unknown as { at: { x: number; y: number } }).at = { x: 100, y: 100 };
      s.strokeTo({ x: 600, y: 300 }, withoutJumps(lifted()), [300, 420]);
      expect(jumpRatio(s.lines), `seed ${seed}`).toBeLessThanOrEqual(1.5);
    }
  });
});
