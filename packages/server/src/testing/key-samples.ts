import { readFileSync } from 'node:fs';
import { behaviorMetrics } from '../scoring/behavior-metrics.ts';
import { baseFeatures } from '../scoring/test-fixtures.ts';
import { normal } from './rng.ts';

/** Key samples as the SDK sends them: [t_down, hold] in ms, rounded to its 0.1 ms. */
export type KeySample = number[];

export const r1 = (v: number) => Math.round(v * 10) / 10;

/**
 * The key samples an xdotool script (keydown / keyup / sleep lines, e.g. HumanScript's) leaves, in
 * the order the SDK records them: at each key's release (keys typed with rollover arrive out of
 * their down order; the service sorts them by down time, `behaviorMetrics`).
 */
export function scriptKeys(lines: readonly string[]): KeySample[] {
  const down = new Map<string, number>();
  const keys: KeySample[] = [];
  let t = 0;
  for (const line of lines) {
    const [cmd, arg] = line.split(' ');
    if (cmd === 'sleep') t += Number(arg) * 1000;
    else if (cmd === 'keydown') down.set(arg!, t);
    else if (cmd === 'keyup' && down.has(arg!)) {
      keys.push([r1(down.get(arg!)!), r1(t - down.get(arg!)!)]);
      down.delete(arg!);
    }
  }
  return keys;
}

/**
 * A person typing `n` keys (seeded by `random`): key-down gaps log-normal around a median of
 * `gap` ms (σ 0.3–0.6, CV 0.3–0.65), holds log-normal around `hold` ms (σ 0.15–0.35), on a clock
 * of `clock` ms (the SDK's 0.1 ms by default).
 */
export function typingPerson(
  random: () => number,
  n: number,
  { gap, hold, clock = 0.1 }: { gap: number; hold: number; clock?: number },
): KeySample[] {
  const gauss = () => normal(random);
  const gapSigma = 0.3 + random() * 0.3;
  const holdSigma = 0.15 + random() * 0.2;
  const tick = (v: number) => r1(Math.round(v / clock) * clock);
  const keys: KeySample[] = [];
  let t = 1000;
  for (let i = 0; i < n; i++) {
    if (i > 0) t += gap * Math.exp(gapSigma * gauss());
    keys.push([tick(t), tick(hold * Math.exp(holdSigma * gauss()))]);
  }
  return keys;
}

/**
 * Key samples of one real `xdotool type --delay 90` visit in chromium on a loaded 2-core machine
 * (`npm run eval:browsers`; the file's `source` says which).
 */
export const LOADED_XDOTOOL = JSON.parse(
  readFileSync(new URL('../scoring/signals/key-floor.fixture.json', import.meta.url), 'utf8'),
) as { source: string; keys: KeySample[] };

/** A desktop browser login whose behaviour evidence holds these key samples (and `evidence`). */
export function keyFeatures(
  keys: KeySample[],
  over: Record<string, unknown> = {},
  evidence: Record<string, unknown> = {},
) {
  return baseFeatures({
    surface: 'browser',
    event_type: 'login',
    behavior: behaviorMetrics({
      v: 1,
      key_samples: keys,
      key_presses: keys.length,
      mouse_moves: 60,
      ...evidence,
    }),
    ...over,
  });
}
