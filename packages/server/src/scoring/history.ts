import type { AppContext } from '../context.ts';
import { hardwareProfileOf } from '../fingerprint/hardware.ts';
import { allOf, isPromise, type MaybePromise } from '../state/hot-state.ts';
import {
  DAY,
  DEVICE_WINDOW,
  distinctKey,
  HARDWARE_WINDOW,
  HOUR,
  MINUTE,
  NONCE_TTL_MS,
  nonceKey,
  type Pair,
  pairWindow,
  RECENT_RISK_MS,
  recordFirstSeen,
  SDK_SEEN_MS,
} from './history-keys.ts';
import { COUNTED_REFRESH_MS, markCounted, rebuildHistory } from './history-rebuild.ts';

/**
 * Velocity, fan-out and device history counters in hot state (shared by every process in scale
 * mode). They survive a restart: on first use per site in a process, unless hot state already
 * carries the site's counted marker (Redis kept the counters), the counters are rebuilt from the
 * `decisions` table of the last 24 h (device history: 30 days). Counts are approximate
 * (two-bucket sliding windows) and consistent after a restart within that approximation.
 */
export interface Observation {
  siteId: string;
  accountId: string;
  ip: string;
  deviceId: string;
  paymentHash: string;
  /** Normalised e-mail ("" when none). */
  email: string;
  loginFailed: boolean;
  /** A login event (failed, succeeded or unknown). */
  login: boolean;
  /** Id of the signed fingerprint token (valid or expired), "" when none. */
  tokenId: string;
  /** subnetKey(ip): /24 or /64. */
  subnet: string;
  /** Short key of the user agent ("" when none). */
  userAgent: string;
  /** A payment (with a payment hash) for a small amount: isSmallPayment (card-testing runs). */
  smallPayment: boolean;
  /** A server-side call that carried a valid token: the site integrates the browser SDK. */
  sdkServerCall: boolean;
  /**
   * The device's hardware profile (fingerprint/hardware.ts), "" when none; a promise when it is
   * being looked up for a token's device. Counted on payment events only.
   */
  hardwareProfile: string | Promise<string>;
  /** A checkout or an event with a payment hash (isPaymentEvent). */
  paymentEvent: boolean;
}

export interface HistoryCounts {
  ip_1m: number;
  ip_1h: number;
  account_1m: number;
  account_1h: number;
  device_1m: number;
  device_1h: number;
  failed_logins_account_1h: number;
  failed_logins_ip_1h: number;
  accounts_per_device_24h: number;
  accounts_per_ip_24h: number;
  payments_per_account_24h: number;
  payments_per_device_24h: number;
  accounts_per_email_24h: number;
  device_first_seen: number | null;
  device_events_30d: number;
  device_risky_events_30d: number;
  /** Events and distinct accounts that carried this very token (valid or expired). */
  token_events_1h: number;
  token_accounts_24h: number;
  /** Highest evidence risk of this token's / this device's decisions in the last 30 min. */
  token_recent_risk: number;
  device_recent_risk: number;
  /** Failed logins and distinct failing accounts from the IP's /24 (IPv6 /64). */
  failed_logins_subnet_1h: number;
  failed_logins_subnet_24h: number;
  failed_accounts_subnet_24h: number;
  /** Login events (failed or not) from the /24 (/64) in 24 h: the base for a failure ratio. */
  logins_subnet_24h: number;
  /** Distinct user agents among failed logins from the IP in 24 h (UA rotation). */
  failed_login_uas_ip_24h: number;
  /** Distinct payment hashes from the IP and from its /24 (/64) in 24 h. */
  payments_per_ip_24h: number;
  payments_per_subnet_24h: number;
  /** Small-amount payments per account, device and subnet in 24 h (card-testing runs). */
  small_payments_account_24h: number;
  small_payments_device_24h: number;
  small_payments_subnet_24h: number;
  /** The site's backend sent valid tokens recently (it integrates the browser SDK). */
  site_uses_sdk: boolean;
  /**
   * Payment events (checkouts, events with a payment hash) of this hardware profile in 1 h:
   * distinct device ids, distinct payment hashes, small payments. Present on payment events with
   * a hardware profile (absent elsewhere and in decisions recorded before they existed).
   */
  hw_devices_1h?: number;
  hw_payments_1h?: number;
  hw_small_payments_1h?: number;
}

/**
 * How long a process trusts the SDK marker it read: SPEC §10's 1 s, the most two processes of one
 * cluster may disagree about a site (a tokenless login scores as on an SDK site on both, or on neither).
 */
const SDK_READ_MS = 1_000;

export class History {
  /** Per site: the rebuild in progress, or null once it is done. */
  private readonly rebuilt = new Map<string, Promise<void> | null>();
  /** Per site: when this process last refreshed the counted marker. */
  private readonly markedCounted = new Map<string, number>();
  /**
   * Per site: the SDK marker as last read (remembered SDK_READ_MS, so processes disagree for at
   * most that long) and when this process last refreshed it.
   */
  private readonly sdkCache = new Map<string, { seen: boolean; checked: number; marked: number }>();

  constructor(private readonly ctx: AppContext) {}

  /**
   * Count this event and answer the counters including it. With the in-process hot state every
   * operation answers at once and no promise is made (this runs ~30 counter operations per event).
   */
  observe(o: Observation, now: number): MaybePromise<HistoryCounts> {
    const rebuilding = this.ensureRebuilt(o.siteId);
    return rebuilding ? rebuilding.then(() => this.count(o, now)) : this.count(o, now);
  }

  private count(o: Observation, now: number): MaybePromise<HistoryCounts> {
    const h = this.ctx.hotState;
    const s = o.siteId;
    const vel = (kind: string, id: string, w: number) => (id ? h.hit(`vel:${s}:${kind}:${id}`, w) : 0);
    // Counted when `add`, else read.
    const tally = (add: boolean, key: string, w: number) => (add ? h.hit(key, w) : h.count(key, w));
    const fail = (kind: string, id: string) =>
      id ? tally(o.loginFailed, `fail:${s}:${kind}:${id}`, HOUR) : 0;
    const small = (kind: string, id: string) =>
      id ? tally(o.smallPayment, `small:${s}:${kind}:${id}`, DAY) : 0;
    // Hardware-profile counters: payment events only (a lookup for a token's device, then 5 ops).
    const hwOf = (p: string) =>
      p
        ? allOf([
            this.distinct(s, 'hd', p, o.deviceId),
            this.distinct(s, 'hp', p, o.paymentHash),
            tally(o.smallPayment, `small:${s}:hw:${p}`, HARDWARE_WINDOW),
          ] as const)
        : null;
    const profile = o.paymentEvent ? o.hardwareProfile : '';
    const hwCounts = isPromise(profile) ? profile.then(hwOf) : hwOf(profile);
    const results = allOf([
      vel('ip', o.ip, MINUTE),
      vel('ip', o.ip, HOUR),
      vel('acct', o.accountId, MINUTE),
      vel('acct', o.accountId, HOUR),
      vel('dev', o.deviceId, MINUTE),
      vel('dev', o.deviceId, HOUR),
      fail('acct', o.accountId),
      fail('ip', o.ip),
      this.distinct(s, 'da', o.deviceId, o.accountId),
      this.distinct(s, 'ia', o.ip, o.accountId),
      this.distinct(s, 'ap', o.accountId, o.paymentHash),
      this.distinct(s, 'dp', o.deviceId, o.paymentHash),
      this.distinct(s, 'ea', o.email, o.accountId),
      o.deviceId ? recordFirstSeen(this.ctx.hotState, s, o.deviceId, now) : null,
      o.deviceId ? h.hit(`devn:${s}:${o.deviceId}`, DEVICE_WINDOW) : 0,
      o.deviceId ? h.count(`devbad:${s}:${o.deviceId}`, DEVICE_WINDOW) : 0,
      vel('tok', o.tokenId, HOUR),
      this.distinct(s, 'ta', o.tokenId, o.accountId),
      o.tokenId ? h.get(`rrisk:${s}:tok:${o.tokenId}`) : null,
      o.deviceId ? h.get(`rrisk:${s}:dev:${o.deviceId}`) : null,
      fail('net', o.subnet),
      o.subnet ? tally(o.loginFailed, `fail24:${s}:net:${o.subnet}`, DAY) : 0,
      o.loginFailed ? this.distinct(s, 'sf', o.subnet, o.accountId) : this.distinctCount(s, 'sf', o.subnet),
      o.loginFailed ? this.distinct(s, 'fu', o.ip, o.userAgent) : this.distinctCount(s, 'fu', o.ip),
      this.distinct(s, 'pi', o.ip, o.paymentHash),
      this.distinct(s, 'ps', o.subnet, o.paymentHash),
      small('acct', o.accountId),
      small('dev', o.deviceId),
      small('net', o.subnet),
      this.sdkSeen(s, o.sdkServerCall),
      o.subnet ? tally(o.login, `login24:${s}:net:${o.subnet}`, DAY) : 0,
      hwCounts,
    ] as const);
    return isPromise(results) ? results.then(countsOf) : countsOf(results);
  }

  /**
   * The hardware profile remembered for a token's device when the token was issued (after the
   * site's rebuild, which restores it from recorded decisions), "" when unknown.
   */
  async hardwareProfile(siteId: string, deviceId: string): Promise<string> {
    await this.ensureRebuilt(siteId);
    return hardwareProfileOf(this.ctx.hotState, siteId, deviceId);
  }

  /** Whether the site's backend sent a valid token within SDK_SEEN_MS (marking it when it does now). */
  private sdkSeen(siteId: string, now: boolean): MaybePromise<boolean> {
    const key = `sdk:${siteId}`;
    const at = this.ctx.now();
    const c = this.sdkCache.get(siteId);
    if (now) {
      // Refresh the shared marker at most every 10 minutes per process.
      if (!c?.seen || at - c.marked > 10 * MINUTE) {
        this.sdkCache.set(siteId, { seen: true, checked: at, marked: at });
        const marked = this.ctx.hotState.set(key, '1', SDK_SEEN_MS);
        if (isPromise(marked)) return marked.then(() => true);
      }
      return true;
    }
    if (c && at - c.checked < SDK_READ_MS) return c.seen;
    const remember = (value: string | null) => {
      const seen = value !== null;
      this.sdkCache.set(siteId, { seen, checked: at, marked: c?.marked ?? 0 });
      return seen;
    };
    const value = this.ctx.hotState.get(key);
    return isPromise(value) ? value.then(remember) : remember(value);
  }

  /**
   * After the decision is recorded: remember risky outcomes against the device, and the
   * evidence risk (the score without what was carried over from earlier decisions) of the token
   * and the device for RECENT_RISK_MS.
   */
  async recordOutcome(
    siteId: string,
    deviceId: string,
    riskScore: number,
    recent?: { tokenId: string; evidenceRisk: number; previousToken: number; previousDevice: number },
  ): Promise<void> {
    const h = this.ctx.hotState;
    const work: unknown[] = [];
    if (deviceId && riskScore >= 60) work.push(h.hit(`devbad:${siteId}:${deviceId}`, DEVICE_WINDOW));
    if (recent && recent.evidenceRisk > 0) {
      const r = Math.round(recent.evidenceRisk);
      if (recent.tokenId && r > recent.previousToken)
        work.push(h.set(`rrisk:${siteId}:tok:${recent.tokenId}`, String(r), RECENT_RISK_MS));
      if (deviceId && r > recent.previousDevice)
        work.push(h.set(`rrisk:${siteId}:dev:${deviceId}`, String(r), RECENT_RISK_MS));
    }
    await Promise.all(work);
  }

  /** Distinct members of `owner` so far, without adding one. */
  private distinctCount(siteId: string, pair: Pair, owner: string): MaybePromise<number> {
    return this.distinct(siteId, pair, owner, '');
  }

  /**
   * Distinct `member`s seen with `owner` in the pair's window (24 h; hardware pairs 1 h; a
   * sliding window over two buckets, approximate beyond small counts: HotState.distinct). An
   * event without a member (a browser checkout without the payment hash) reads the count.
   */
  private distinct(siteId: string, pair: Pair, owner: string, member: string): MaybePromise<number> {
    if (!owner) return 0;
    return this.ctx.hotState.distinct(distinctKey(siteId, pair, owner), member || null, pairWindow(pair));
  }

  /**
   * True when `nonce` (environment.nonce) is new on the site within 24 h, remembering it. Asked
   * after the site's rebuild, which restores the nonces of recorded decisions after a restart.
   */
  claimNonce(siteId: string, nonce: string): MaybePromise<boolean> {
    const claim = () => this.ctx.hotState.claimOnce(nonceKey(siteId, nonce), NONCE_TTL_MS);
    const rebuilding = this.ensureRebuilt(siteId);
    return rebuilding ? rebuilding.then(claim) : claim();
  }

  /**
   * Rebuild the site's counters once per process; null once done (no promise to wait for). While
   * the process counts for the site it keeps the site's counted marker alive (history-rebuild.ts),
   * so that no process started later rebuilds on top of the live counters.
   */
  ensureRebuilt(siteId: string): Promise<void> | null {
    let p = this.rebuilt.get(siteId);
    if (p === null) {
      const at = this.ctx.now();
      if (at - (this.markedCounted.get(siteId) ?? Number.NEGATIVE_INFINITY) >= COUNTED_REFRESH_MS) {
        this.markedCounted.set(siteId, at);
        const marked = markCounted(this.ctx, siteId);
        if (isPromise(marked))
          marked.catch((err: unknown) =>
            this.ctx.logger.warn({ err, siteId }, 'counted marker not refreshed'),
          );
      }
    }
    if (p === undefined) {
      p = rebuildHistory(this.ctx, siteId)
        .catch((err: unknown) => {
          this.ctx.logger.warn({ err, siteId }, 'velocity rebuild failed; counting from now');
        })
        .then(() => {
          this.rebuilt.set(siteId, null);
        });
      this.rebuilt.set(siteId, p);
    }
    return p;
  }
}

/** The counters of observe(), in its order of operations. */
function countsOf(results: readonly unknown[]): HistoryCounts {
  const hwc = results[31] as readonly [number, number, number] | null;
  const n = (i: number) => (results[i] as number | null) ?? 0;
  return {
    ip_1m: n(0),
    ip_1h: n(1),
    account_1m: n(2),
    account_1h: n(3),
    device_1m: n(4),
    device_1h: n(5),
    failed_logins_account_1h: n(6),
    failed_logins_ip_1h: n(7),
    accounts_per_device_24h: n(8),
    accounts_per_ip_24h: n(9),
    payments_per_account_24h: n(10),
    payments_per_device_24h: n(11),
    accounts_per_email_24h: n(12),
    device_first_seen: results[13] as number | null,
    device_events_30d: n(14),
    device_risky_events_30d: n(15),
    token_events_1h: n(16),
    token_accounts_24h: n(17),
    token_recent_risk: Number(results[18] ?? 0) || 0,
    device_recent_risk: Number(results[19] ?? 0) || 0,
    failed_logins_subnet_1h: n(20),
    failed_logins_subnet_24h: n(21),
    failed_accounts_subnet_24h: n(22),
    failed_login_uas_ip_24h: n(23),
    payments_per_ip_24h: n(24),
    payments_per_subnet_24h: n(25),
    small_payments_account_24h: n(26),
    small_payments_device_24h: n(27),
    small_payments_subnet_24h: n(28),
    site_uses_sdk: results[29] === true,
    logins_subnet_24h: n(30),
    ...(hwc ? { hw_devices_1h: hwc[0], hw_payments_1h: hwc[1], hw_small_payments_1h: hwc[2] } : {}),
  };
}
