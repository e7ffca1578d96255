import type { Signal } from '../engine-types.ts';
import { emit, type SignalFamily } from './types.ts';

export const SKEW_STALE_MS = 5 * 60 * 1000;
export const SKEW_REPLAY_MS = 24 * 60 * 60 * 1000;

/** environment.timestamp and environment.nonce: replayed or stale evidence. */
export const freshness: SignalFamily = {
  name: 'freshness',
  rules: {
    evidence_stale: {
      score: 15,
      description: 'environment.timestamp is more than 5 minutes from server time (over 24 h: 30).',
    },
    nonce_replayed: { score: 40, description: 'environment.nonce was already used: replayed evidence.' },
  },
  evaluate(f) {
    const out: Signal[] = [];
    if (f.clock_skew_ms !== null && f.clock_skew_ms > SKEW_STALE_MS) {
      const minutes = Math.round(f.clock_skew_ms / 60_000);
      out.push(
        emit(this, 'evidence_stale', {
          score: f.clock_skew_ms > SKEW_REPLAY_MS ? 30 : 15,
          description: `Evidence timestamp is ${minutes} minutes off server time.`,
        }),
      );
    }
    if (f.nonce === 'replayed') out.push(emit(this, 'nonce_replayed'));
    return out;
  },
};
