import type { Signal } from '../engine-types.ts';
import { emit, type SignalFamily } from './types.ts';

/** The account's e-mail address (from the caller's trusted record). */
export const email: SignalFamily = {
  name: 'email',
  rules: {
    email_disposable: { score: 25, description: 'The e-mail domain is a disposable mailbox service.' },
    email_plus_alias: {
      score: 5,
      description: 'The e-mail uses plus addressing on signup (cheap extra accounts on one mailbox).',
    },
  },
  evaluate(f) {
    const out: Signal[] = [];
    if (f.email_disposable) {
      out.push(
        emit(this, 'email_disposable', { description: `Disposable e-mail domain ${f.email_domain}.` }),
      );
    }
    if (f.email_plus_alias && f.event_type === 'signup') out.push(emit(this, 'email_plus_alias'));
    return out;
  },
};
