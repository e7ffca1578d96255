import type { Signal } from '../engine-types.ts';
import { emit, type SignalFamily } from './types.ts';

/** Added to accounts_per_email on promo claims (a second account on one mailbox claiming again). */
export const PROMO_EMAIL_BONUS = 20;

/** Many accounts behind one device, IP or e-mail mailbox in 24 h (multi-accounting, promo abuse). */
export const fanout: SignalFamily = {
  name: 'fanout',
  rules: {
    accounts_per_device: {
      score: 20,
      description: 'Several accounts used this device in 24 h (3+: 20, 6+: 40).',
    },
    accounts_per_ip: {
      score: 15,
      description: 'Many accounts used this IP in 24 h (8+: 15, 25+: 30); shared networks make this weak.',
    },
    accounts_per_email: {
      score: 20,
      description:
        'Several accounts share one mailbox via plus or dot aliases in 24 h (2: 20, 3+: 35; +20 on promo claims).',
    },
    promo_multi_account: {
      score: 25,
      description: 'A promo claim from a device that other accounts used in 24 h.',
    },
  },
  evaluate(f) {
    const out: Signal[] = [];
    const h = f.history;
    const d = h.accounts_per_device_24h;
    if (d >= 3) {
      out.push(
        emit(this, 'accounts_per_device', {
          score: d >= 6 ? 40 : 20,
          description: `${d} accounts used this device in 24 h.`,
        }),
      );
    }
    if (f.event_type === 'promo_claim' && d >= 2) {
      out.push(
        emit(this, 'promo_multi_account', {
          description: `Promo claim from a device shared by ${d} accounts.`,
        }),
      );
    }
    const i = h.accounts_per_ip_24h;
    if (i >= 8) {
      out.push(
        emit(this, 'accounts_per_ip', {
          score: i >= 25 ? 30 : 15,
          description: `${i} accounts used this IP in 24 h.`,
        }),
      );
    }
    if (h.accounts_per_email_24h >= 2) {
      // A second account on one mailbox matters most where it pays: claiming a promotion again.
      out.push(
        emit(this, 'accounts_per_email', {
          score:
            (h.accounts_per_email_24h >= 3 ? 35 : 20) +
            (f.event_type === 'promo_claim' ? PROMO_EMAIL_BONUS : 0),
          description: `${h.accounts_per_email_24h} accounts share this mailbox in 24 h.`,
        }),
      );
    }
    return out;
  },
};
