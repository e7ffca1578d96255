import { type HotState, isPromise, type MaybePromise } from '../state/hot-state.ts';

/** Windows, thresholds and key helpers shared by the history counters and their rebuild. */
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const DEVICE_WINDOW = 30 * DAY;
export const REBUILD_LIMIT = 200_000;

/** Recent (evidence) risk is remembered this long per token and device. */
export const RECENT_RISK_MS = 30 * MINUTE;
/** A site that sent a valid token from its backend within this window integrates the SDK. */
export const SDK_SEEN_MS = 7 * DAY;

/**
 * The hot-state key of the "backend sends tokens" marker: of the site (any event type), or of the
 * site's events of one type (`token_missing` is judged per event type: a site may protect its
 * checkout with the SDK and its sign-up with the ALTCHA widget alone).
 */
export function sdkMarkerKey(siteId: string, eventType?: string): string {
  return eventType ? `sdk:${siteId}:${eventType}` : `sdk:${siteId}`;
}
/** Amounts below this are "small" (card-testing probes); in the site's currency units. */
export const SMALL_AMOUNT = 5;

/**
 * Hardware-profile counters (device ids, payment hashes and small payments per profile) use this
 * short window: profiles collide across customers (identical machines), so only a burst counts.
 */
export const HARDWARE_WINDOW = HOUR;

export type Pair = 'da' | 'ia' | 'ap' | 'dp' | 'ea' | 'ta' | 'sf' | 'fu' | 'pi' | 'ps' | 'hd' | 'hp';

/** The window of a distinct count: 24 h, except the hardware-profile pairs. */
export function pairWindow(pair: Pair): number {
  return pair === 'hd' || pair === 'hp' ? HARDWARE_WINDOW : DAY;
}

/** The hot-state key of a distinct count (HotState.distinct). */
export const distinctKey = (siteId: string, pair: Pair, owner: string) => `dist:${siteId}:${pair}:${owner}`;

/** The fingerprint token id recorded in a decision's features. */
export const TOKEN_ID = /"token_id":"([^"]+)"/;
/** The hardware profile recorded in a decision's features. */
export const HARDWARE_PROFILE = /"hardware_profile":"([^"]+)"/;
/** environment.nonce as recorded in a decision's features (a JSON string literal). */
export const NONCE_VALUE = /"nonce_value":("(?:[^"\\]|\\.)+")/;

/** How long an environment.nonce is remembered: a repeat within it is a replay. */
export const NONCE_TTL_MS = 24 * 60 * 60 * 1000;
export const nonceKey = (siteId: string, nonce: string) => `nonce:${siteId}:${nonce}`;

/**
 * A payment event: a checkout (browser or server) or any event with a payment hash. Only these
 * touch the hardware-profile counters, which keeps them off the hot path of other events.
 */
export function isPaymentEvent(eventType: string, paymentHash: string | null | undefined): boolean {
  return eventType === 'checkout' || !!paymentHash;
}

/**
 * A payment probe: an event with a payment hash (the backend's view of a payment attempt, so a
 * checkout scored in the browser and again on the server counts once) for less than SMALL_AMOUNT.
 */
export function isSmallPayment(
  paymentHash: string | null | undefined,
  amount: number | null | undefined,
): boolean {
  return !!paymentHash && typeof amount === 'number' && amount >= 0 && amount < SMALL_AMOUNT;
}

/** A short key of a user agent string (FNV-1a, 32 bits) for distinct counts. */
export function uaKey(ua: string | null | undefined): string {
  if (!ua) return '';
  let h = 0x811c9dc5;
  for (let i = 0; i < ua.length; i++) {
    h ^= ua.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

/** E-mail key for account fan-out: lower case, +tag removed, dots removed for Gmail. */
export function emailKey(email: string | null | undefined): string {
  if (!email) return '';
  const at = email.lastIndexOf('@');
  if (at <= 0) return '';
  let local = email.slice(0, at).trim().toLowerCase();
  let domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase();
  if (domain === 'googlemail.com') domain = 'gmail.com';
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (domain === 'gmail.com') local = local.replaceAll('.', '');
  return `${local}@${domain}`;
}

/** When the device was first seen (kept for three device windows); `at` may lie in the past (rebuild). */
export function recordFirstSeen(
  h: HotState,
  siteId: string,
  deviceId: string,
  at: number,
): MaybePromise<number> {
  const key = `devfirst:${siteId}:${deviceId}`;
  const decide = (known: string | null): MaybePromise<number> => {
    if (known !== null && Number(known) <= at) return Number(known);
    const stored = h.set(key, String(at), DEVICE_WINDOW * 3);
    return isPromise(stored) ? stored.then(() => at) : at;
  };
  const known = h.get(key);
  return isPromise(known) ? known.then(decide) : decide(known);
}
