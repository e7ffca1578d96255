import type { Signal } from '../engine-types.ts';
import { emit, type SignalFamily } from './types.ts';

/** Failed logins (login_succeeded=false from the trusted server) per account and per IP, 1 h. */
export const logins: SignalFamily = {
  name: 'logins',
  rules: {
    failed_logins_account: {
      score: 25,
      description: 'Many failed logins for this account in the last hour (5+: 25, 20+: 40).',
    },
    failed_logins_ip: {
      score: 25,
      description:
        'Many failed logins from this IP in the last hour (10+: 25, 50+: 40), credential stuffing.',
    },
  },
  evaluate(f) {
    if (f.event_type !== 'login') return [];
    const out: Signal[] = [];
    const a = f.history.failed_logins_account_1h;
    const i = f.history.failed_logins_ip_1h;
    if (a >= 5) {
      out.push(
        emit(this, 'failed_logins_account', {
          score: a >= 20 ? 40 : 25,
          description: `${a} failed logins for this account in the last hour.`,
        }),
      );
    }
    if (i >= 10) {
      out.push(
        emit(this, 'failed_logins_ip', {
          score: i >= 50 ? 40 : 25,
          description: `${i} failed logins from this IP in the last hour.`,
        }),
      );
    }
    return out;
  },
};
