import { randomHex } from '../util/hash.ts';
import { safe } from '../util/safe.ts';

/** The localStorage key of the first-party visitor id. */
export const VISITOR_KEY = 'warden_vid';
const VALID = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * A random id kept in the site's own localStorage: the server links it to the device, so the
 * device id survives a fingerprint change (a browser update re-rendering) while the storage
 * lives. Created on first use; undefined when storage is blocked (private modes, policies).
 */
export function visitorId(storage: () => Storage = () => localStorage): string | undefined {
  return safe(() => {
    const s = storage();
    const kept = s.getItem(VISITOR_KEY);
    if (kept && VALID.test(kept)) return kept;
    const fresh = randomHex(16);
    s.setItem(VISITOR_KEY, fresh);
    return s.getItem(VISITOR_KEY) === fresh ? fresh : undefined;
  });
}
