import { describe, expect, it } from 'vitest';
import { HumanScript } from '../../e2e/support/human-input.ts';
import { scriptKeys } from '../../packages/server/src/testing/key-samples.ts';

/**
 * HumanScript.type, the typing of the e2e tests' and `npm run eval:browsers`' person: log-normal
 * gaps and holds with rollover, and the constraints that keep its xdotool script well-formed.
 */
describe('HumanScript.type', () => {
  const text = 'jane.doe@example.com';
  const password = 'Tr0mbone-sunset';

  it('never presses a key that is down, keeps Shift to its own key, leaves no key down', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const s = new HumanScript(seed).type(text).type(password);
      const down = new Map<string, number>();
      const released = new Map<string, number>();
      const typed: string[] = [];
      let t = 0;
      for (const line of s.lines) {
        const [cmd, arg] = line.split(' ') as [string, string];
        if (cmd === 'sleep') t += Number(arg) * 1000;
        else if (cmd === 'keydown') {
          expect(down.has(arg), `seed ${seed}: ${arg} pressed while down`).toBe(false);
          expect(t - (released.get(arg) ?? Number.NEGATIVE_INFINITY)).toBeGreaterThanOrEqual(9.9);
          // Shift goes down alone, and nothing else goes down while it is held but its own key.
          if (arg === 'Shift_L') expect(down.size, `seed ${seed}`).toBe(0);
          else if (down.has('Shift_L')) expect(down.size, `seed ${seed}`).toBe(1);
          down.set(arg, t);
          if (arg !== 'Shift_L') typed.push(down.has('Shift_L') ? `S${arg}` : arg);
        } else if (cmd === 'keyup') {
          expect(down.has(arg), `seed ${seed}: ${arg} released while up`).toBe(true);
          down.delete(arg);
          released.set(arg, t);
        }
      }
      expect(down.size).toBe(0);
      expect(typed.join(' ')).toBe(
        'j a n e period d o e S2 e x a m p l e period c o m St r 0 m b o n e minus s u n s e t',
      );
    }
  });

  it('types with rollover, log-normal gaps of 35 ms or more, in the SDK’s release order', () => {
    let pairs = 0;
    let rolled = 0;
    let outOfDownOrder = 0;
    const sigmas: number[] = [];
    for (let seed = 1; seed <= 300; seed++) {
      const keys = scriptKeys(new HumanScript(seed).type(text).type(password).lines);
      // Samples come in release order, as the SDK records them (at keyup).
      for (let i = 1; i < keys.length; i++) {
        expect(keys[i]![0]! + keys[i]![1]!).toBeGreaterThanOrEqual(keys[i - 1]![0]! + keys[i - 1]![1]!);
        if (keys[i]![0]! < keys[i - 1]![0]!) outOfDownOrder++;
      }
      const byDown = [...keys].sort((a, b) => a[0]! - b[0]!);
      const logs: number[] = [];
      for (let i = 1; i < byDown.length; i++) {
        const gap = byDown[i]![0]! - byDown[i - 1]![0]!;
        expect(gap).toBeGreaterThanOrEqual(35);
        logs.push(Math.log(gap));
        pairs++;
        if (byDown[i]![0]! < byDown[i - 1]![0]! + byDown[i - 1]![1]!) rolled++;
      }
      const m = logs.reduce((a, b) => a + b, 0) / logs.length;
      sigmas.push(Math.sqrt(logs.reduce((a, b) => a + (b - m) ** 2, 0) / logs.length));
    }
    // Real typists roll over 3–73 % of keys (median 16 %); log-σ of gaps 0.30–1.04.
    expect(rolled / pairs).toBeGreaterThan(0.05);
    expect(rolled / pairs).toBeLessThan(0.4);
    expect(outOfDownOrder).toBeGreaterThan(0);
    sigmas.sort((a, b) => a - b);
    const median = sigmas[sigmas.length >> 1]!;
    expect(median).toBeGreaterThan(0.4);
    expect(median).toBeLessThan(0.9);
  });
});
