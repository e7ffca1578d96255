import type { Signal } from '../engine-types.ts';
import { emit, type SignalFamily } from './types.ts';

/** Card testing: many distinct payment hashes per account or per device in 24 h. */
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
  },
  evaluate(f) {
    if (!f.has_payment && f.event_type !== 'checkout') return [];
    const out: Signal[] = [];
    const a = f.history.payments_per_account_24h;
    const d = f.history.payments_per_device_24h;
    if (a >= 3) {
      out.push(
        emit(this, 'payments_per_account', {
          score: a >= 6 ? 45 : 25,
          description: `${a} payment methods for this account in 24 h.`,
        }),
      );
    }
    if (d >= 4) {
      out.push(
        emit(this, 'payments_per_device', {
          score: d >= 8 ? 50 : 30,
          description: `${d} payment methods from this device in 24 h.`,
        }),
      );
    }
    return out;
  },
};
