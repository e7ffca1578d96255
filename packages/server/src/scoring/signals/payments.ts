import type { Signal } from '../engine-types.ts';
import type { Features } from '../features.ts';
import { scriptedInput } from './behavior-tells.ts';
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
  /**
   * Small payments with distinct payment methods from one rotating hardware profile in 1 h. At
   * most a challenge alone: identical machines of many customers can share a profile.
   */
  hardware: [
    [6, 75],
    [4, 60],
  ],
} satisfies Record<string, Tiers>;

/**
 * A hardware profile counts only while it shows this many device ids on payment events in 1 h: the
 * fingerprint is being rotated on one machine (people with identical machines mostly share one
 * device id; canvas-blocking extensions rotate it too, but do not try many cards).
 */
export const HARDWARE_MIN_DEVICES = 3;

/** Card testing's shape: this many distinct payment methods and small payments on one account or device in 24 h. */
export const CARD_TESTING_RUN = 3;

function tier(value: number, tiers: Tiers): number {
  for (const [min, score] of tiers) if (value >= min) return score;
  return 0;
}

/**
 * The length of a card-testing run on one rotating hardware profile: distinct payment methods and
 * small payments (the lower) in 1 h, or 0 when it does not qualify. Phones are left out: identical
 * phones of one model render alike, and a popular model's profile is shared by many customers.
 */
function hardwareRun(f: Features): number {
  const h = f.history;
  if (f.ua_mobile || (h.hw_devices_1h ?? 0) < HARDWARE_MIN_DEVICES) return 0;
  const run = Math.min(h.hw_payments_1h ?? 0, h.hw_small_payments_1h ?? 0);
  return tier(run, PAYMENT_TIERS.hardware) > 0 ? run : 0;
}

/**
 * Card testing: many distinct payment hashes per account, device, IP or network (/24, /64) in
 * 24 h, runs of small-amount payments, and bursts of small payments with many cards from one
 * hardware profile whose device id keeps changing (an anti-detect browser, 1 h). Evaluated on
 * checkouts (browser checkouts read the counts without a payment hash) and on any event with a
 * payment hash.
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
    card_testing_run: {
      score: 20,
      description: `${CARD_TESTING_RUN}+ distinct payment methods and ${CARD_TESTING_RUN}+ small payments on one account or device in 24 h: cards being tried.`,
    },
    hardware_card_testing: {
      score: 60,
      description: `One hardware profile (the fingerprint without canvas, audio and WebGL image hashes) seen as ${HARDWARE_MIN_DEVICES}+ device ids paid with several cards in small amounts within 1 h (4+: 60, 6+: 75): a fingerprint-rotating browser testing cards.`,
    },
    scripted_payment: {
      score: 25,
      description:
        'A checkout whose form was driven by a script (no interaction, scripted mouse or keys, clicks without pointer approach).',
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
    const methods = Math.max(a, d);
    if (methods >= CARD_TESTING_RUN && ownerRun >= CARD_TESTING_RUN) {
      out.push(
        emit(this, 'card_testing_run', {
          description: `${methods} payment methods and ${ownerRun} small payments on this account or device in 24 h.`,
        }),
      );
    }
    const hw = hardwareRun(f);
    if (hw > 0) {
      out.push(
        emit(this, 'hardware_card_testing', {
          score: tier(hw, PAYMENT_TIERS.hardware),
          description: `${h.hw_payments_1h} payment methods and ${h.hw_small_payments_1h} small payments from one hardware profile seen as ${h.hw_devices_1h} devices in 1 h.`,
        }),
      );
    }
    if (f.event_type === 'checkout' && scriptedInput(f)) out.push(emit(this, 'scripted_payment'));
    return out;
  },
};
