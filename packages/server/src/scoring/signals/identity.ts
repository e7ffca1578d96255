import type { Signal } from '../engine-types.ts';
import { emit, type SignalFamily } from './types.ts';

/** [linked accounts, score] tiers, highest first: a cluster of 3+ accounts is linked_accounts ≥ 2. */
export const CLUSTER_TIERS = [[2, 20]] as const;
/** Events where many linked accounts are the abuse itself (a one-per-customer offer). */
const CLUSTER_EVENTS = new Set(['promo_claim']);

/**
 * Identity clusters (Pro, Enterprise, demo): accounts linked by a shared device, payment hash or
 * recent low-fan-out IP. Several linked accounts claiming a one-per-customer promotion is
 * multi-accounting. Other events are left alone: households share laptops, and identical phones
 * share a device id, so clusters of honest people grow with traffic.
 */
export const identity: SignalFamily = {
  name: 'identity',
  rules: {
    identity_cluster: {
      score: 20,
      description: 'Promo claim from an account linked to 2+ others by device, payment or IP.',
    },
  },
  evaluate(f) {
    const out: Signal[] = [];
    if (!f.identity || !CLUSTER_EVENTS.has(f.event_type)) return out;
    const linked = f.identity.linked_accounts;
    for (const [min, score] of CLUSTER_TIERS) {
      if (linked >= min) {
        out.push(
          emit(this, 'identity_cluster', {
            score,
            description: `This account is linked to ${linked} other accounts (${f.identity.shared_devices} shared devices, ${f.identity.shared_payments} payments, ${f.identity.shared_ips} IPs).`,
          }),
        );
        break;
      }
    }
    return out;
  },
};
