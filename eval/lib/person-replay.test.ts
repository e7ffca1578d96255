import { describe, expect, it } from 'vitest';
import { HumanScript, type Trace } from '../../e2e/support/human-input.ts';

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
