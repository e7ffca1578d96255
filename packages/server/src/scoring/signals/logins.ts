import type { Signal } from '../engine-types.ts';
import { emit, type SignalFamily } from './types.ts';

/** Failed logins from one network: [count, score] tiers, highest first (docs/signals.md). */
export const SUBNET_FAILED_1H = [
  [20, 40],
  [6, 25],
] as const;
export const SUBNET_FAILED_ACCOUNTS_24H = [
  [30, 40],
  [8, 25],
] as const;
/** A network counts only while at least this share of its logins fail (shared NAT has successes). */
export const SUBNET_FAILURE_RATIO = 0.5;
export const UA_ROTATION = [
  [8, 30],
  [4, 20],
] as const;

function tier(value: number, tiers: ReadonlyArray<readonly [number, number]>): number {
  for (const [min, score] of tiers) if (value >= min) return score;
  return 0;
}

/**
 * Failed logins (login_succeeded=false from the trusted server) per account, per IP and per
 * network (/24, IPv6 /64): credential stuffing rotates hosts inside rented blocks and user agents
 * per request, one account per attempt.
 */
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
    failed_logins_subnet: {
      score: 25,
      description:
        'Many failed logins from this /24 (IPv6 /64), most of its logins failing: 6+ in 1 h or 8+ accounts in 24 h: 25; 20+ or 30+: 40.',
    },
    login_ua_rotation: {
      score: 20,
      description:
        'Failed logins from this IP came with many different user agents in 24 h (4+: 20, 8+: 30).',
    },
  },
  evaluate(f) {
    if (f.event_type !== 'login') return [];
    const out: Signal[] = [];
    const h = f.history;
    const a = h.failed_logins_account_1h;
    const i = h.failed_logins_ip_1h;
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
    const ratio = h.logins_subnet_24h > 0 ? h.failed_logins_subnet_24h / h.logins_subnet_24h : 0;
    const net = Math.max(
      tier(h.failed_logins_subnet_1h, SUBNET_FAILED_1H),
      tier(h.failed_accounts_subnet_24h, SUBNET_FAILED_ACCOUNTS_24H),
    );
    if (net > 0 && ratio >= SUBNET_FAILURE_RATIO) {
      out.push(
        emit(this, 'failed_logins_subnet', {
          score: net,
          description: `${h.failed_logins_subnet_1h} failed logins in 1 h, ${h.failed_accounts_subnet_24h} accounts in 24 h from ${f.subnet} (${Math.round(ratio * 100)}% of its logins fail).`,
        }),
      );
    }
    const uas = h.failed_login_uas_ip_24h;
    const rot = tier(uas, UA_ROTATION);
    if (rot > 0) {
      out.push(
        emit(this, 'login_ua_rotation', {
          score: rot,
          description: `Failed logins from this IP used ${uas} different user agents in 24 h.`,
        }),
      );
    }
    return out;
  },
};
