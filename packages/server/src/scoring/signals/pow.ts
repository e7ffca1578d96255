import type { Signal } from '../engine-types.ts';
import { emit, type SignalFamily } from './types.ts';

/** A proof-of-work in environment.pow: valid and unused is trust evidence, and is consumed. */
export const pow: SignalFamily = {
  name: 'pow',
  rules: {
    pow_verified: { score: -20, description: 'A valid, unused proof-of-work for this site was presented.' },
    pow_invalid: { score: 15, description: 'The proof-of-work is wrong, expired or not from this site.' },
    pow_replayed: { score: 25, description: 'The proof-of-work was already used.' },
  },
  evaluate(f) {
    const out: Signal[] = [];
    if (f.pow === 'valid') out.push(emit(this, 'pow_verified'));
    else if (f.pow === 'already_used') out.push(emit(this, 'pow_replayed'));
    else if (f.pow !== 'absent')
      out.push(emit(this, 'pow_invalid', { description: `Proof-of-work rejected: ${f.pow}.` }));
    return out;
  },
};
