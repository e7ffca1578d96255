import type { Signal } from '../engine-types.ts';
import { emit, type SignalFamily } from './types.ts';

/** [threshold, score] tiers, highest first. */
type Tiers = ReadonlyArray<readonly [number, number]>;
export const VELOCITY_TIERS: Record<string, { tiers: Tiers; what: string }> = {
  velocity_ip_1m: {
    tiers: [
      [60, 35],
      [20, 20],
    ],
    what: 'events from this IP in the last minute',
  },
  velocity_ip_1h: {
    tiers: [
      [1000, 30],
      [300, 15],
    ],
    what: 'events from this IP in the last hour',
  },
  velocity_account_1m: {
    tiers: [
      [30, 30],
      [10, 15],
    ],
    what: 'events for this account in the last minute',
  },
  velocity_account_1h: {
    tiers: [
      [300, 25],
      [100, 10],
    ],
    what: 'events for this account in the last hour',
  },
  velocity_device_1m: {
    tiers: [
      [60, 35],
      [20, 20],
    ],
    what: 'events from this device in the last minute',
  },
  velocity_device_1h: {
    tiers: [
      [1000, 30],
      [300, 15],
    ],
    what: 'events from this device in the last hour',
  },
};

const COUNTS = {
  velocity_ip_1m: 'ip_1m',
  velocity_ip_1h: 'ip_1h',
  velocity_account_1m: 'account_1m',
  velocity_account_1h: 'account_1h',
  velocity_device_1m: 'device_1m',
  velocity_device_1h: 'device_1h',
} as const;

function tier(value: number, tiers: Tiers): number {
  for (const [threshold, score] of tiers) if (value >= threshold) return score;
  return 0;
}

/** Event rate per IP, account and device over 1 minute and 1 hour (hot-state counters). */
export const velocity: SignalFamily = {
  name: 'velocity',
  rules: Object.fromEntries(
    Object.entries(VELOCITY_TIERS).map(([rule, t]) => [
      rule,
      { score: t.tiers[t.tiers.length - 1]![1], description: `Many ${t.what}.` },
    ]),
  ),
  evaluate(f) {
    const out: Signal[] = [];
    for (const [rule, key] of Object.entries(COUNTS) as Array<
      [keyof typeof COUNTS, keyof typeof f.history]
    >) {
      const value = f.history[key] ?? 0;
      const t = VELOCITY_TIERS[rule]!;
      const score = tier(value as number, t.tiers);
      if (score > 0) out.push(emit(this, rule, { score, description: `${value} ${t.what}.` }));
    }
    return out;
  },
};
