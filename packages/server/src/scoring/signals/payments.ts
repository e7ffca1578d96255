import type { Signal } from '../engine-types.ts';
import { emit, type SignalFamily } from './types.ts';

type Tiers = ReadonlyArray<readonly [number, number]>;
/** [count, score] tiers, highest first (docs/signals.md). */
export const PAYMENT_TIERS = {
  account: [
    [6, 45],
    [3, 25],
  ],
  device: [
    [8, 50],
    [4, 30],
  ],
  ip: [
    [10, 40],
    [5, 25],
  ],
  subnet: [
    [15, 35],
    [8, 20],
  ],
  smallOwner: [
    [6, 35],
    [3, 20],
  ],
  smallSubnet: [
    [12, 35],
    [6, 20],
  ],
} satisfies Record<string, Tiers>;

function tier(value: number, tiers: Tiers): number {
  for (const [min, score] of tiers) if (value >= min) return score;
  return 0;
}

/**
 * Card testing: many distinct payment hashes per account, device, IP or network (/24, /64) in
 * 24 h, and runs of small-amount payments. Evaluated on checkouts (browser checkouts read the
 * counts of the account and device without a payment hash) and on any event with a payment hash.
 */
export const payments: SignalFamily = {
  name: 'payments',
  rules: {
    payments_per_account: {
      score: 25,
      description: 'Several payment methods tried by this account in 24 h (3+: 25, 6+: 45).',
    },
    payments_per_device: {
      score: 30,
      description: 'Several payment methods tried from this device in 24 h (4+: 30, 8+: 50).',
    },
    payments_per_ip: {
      score: 25,
      description:
        'Many payment methods from this IP (5+: 25, 10+: 40) or its /24 or /64 (8+: 20, 15+: 35) in 24 h.',
    },
    small_amount_run: {
      score: 20,
      description:
        'A run of small payments (under 5) for this account or device (3+: 20, 6+: 35) or network (6+: 20, 12+: 35) in 24 h.',
    },
  },
  evaluate(f) {
    if (!f.has_payment && f.event_type !== 'checkout') return [];
    const out: Signal[] = [];
    const h = f.history;
    const a = h.payments_per_account_24h;
    const d = h.payments_per_device_24h;
    const acct = tier(a, PAYMENT_TIERS.account);
    if (acct > 0) {
      out.push(
        emit(this, 'payments_per_account', {
          score: acct,
          description: `${a} payment methods for this account in 24 h.`,
        }),
      );
    }
    const dev = tier(d, PAYMENT_TIERS.device);
    if (dev > 0) {
      out.push(
        emit(this, 'payments_per_device', {
          score: dev,
          description: `${d} payment methods from this device in 24 h.`,
        }),
      );
    }
    const ip = Math.max(
      tier(h.payments_per_ip_24h, PAYMENT_TIERS.ip),
      tier(h.payments_per_subnet_24h, PAYMENT_TIERS.subnet),
    );
    if (ip > 0) {
      out.push(
        emit(this, 'payments_per_ip', {
          score: ip,
          description: `${h.payments_per_ip_24h} payment methods from this IP, ${h.payments_per_subnet_24h} from ${f.subnet} in 24 h.`,
        }),
      );
    }
    const ownerRun = Math.max(h.small_payments_account_24h, h.small_payments_device_24h);
    const small = Math.max(
      tier(ownerRun, PAYMENT_TIERS.smallOwner),
      tier(h.small_payments_subnet_24h, PAYMENT_TIERS.smallSubnet),
    );
    if (small > 0) {
      out.push(
        emit(this, 'small_amount_run', {
          score: small,
          description: `${ownerRun} small payments for this account or device, ${h.small_payments_subnet_24h} from its network in 24 h.`,
        }),
      );
    }
    return out;
  },
};
