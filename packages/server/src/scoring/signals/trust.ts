import type { Signal } from '../engine-types.ts';
import { emit, type SignalFamily } from './types.ts';

const DAY = 24 * 60 * 60 * 1000;
export const TRUSTED_DEVICE_AGE_DAYS = 7;
export const TRUSTED_DEVICE_EVENTS = 5;

/** A device seen for a week or more, with several events and no risky outcome in 30 days. */
export const trust: SignalFamily = {
  name: 'trust',
  rules: {
    device_trusted: {
      score: -15,
      description: 'A long-lived device (7+ days, 5+ events) with a clean 30-day history.',
    },
  },
  evaluate(f) {
    const out: Signal[] = [];
    const h = f.history;
    if (
      f.device_id !== '' &&
      h.device_first_seen !== null &&
      h.device_events_30d >= TRUSTED_DEVICE_EVENTS &&
      h.device_risky_events_30d === 0
    ) {
      const days = Math.floor((f.now_ms - h.device_first_seen) / DAY);
      if (days >= TRUSTED_DEVICE_AGE_DAYS) {
        out.push(
          emit(this, 'device_trusted', {
            description: `Device known for ${days} days with a clean history.`,
          }),
        );
      }
    }
    return out;
  },
};
