import { countedAccount } from './account-key.ts';
import {
  DAY,
  DEVICE_WINDOW,
  distinctKey,
  emailKey,
  HARDWARE_PROFILE,
  HARDWARE_WINDOW,
  HOUR,
  isPaymentEvent,
  isSmallPayment,
  MINUTE,
  type Pair,
  pairWindow,
  sdkMarkerKey,
  TOKEN_ID,
  uaKey,
} from './history-keys.ts';
import { subnetKey } from './subnet.ts';

/** The counters one event reads (features.ts's `history`), as counted by the ops below. */
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
   * The site's backend sent valid tokens with events of this event's type recently (that form runs
   * the SDK). Absent in decisions recorded before it existed.
   */
  event_type_uses_sdk?: boolean;
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
 * What one event contributes to the hot-state counters, derived the same way whether the event is
 * scored now (counterEventOfRequest) or rebuilt from its recorded decision (counterEventOfRecord).
 * Plain data: it crosses a thread or process boundary as it is.
 */
export interface CounterEvent {
  eventType: string;
  accountId: string;
  ip: string;
  deviceId: string;
  paymentHash: string;
  /** Normalised e-mail (emailKey), "" when none. */
  email: string;
  /** A login that failed (login_succeeded === false). */
  loginFailed: boolean;
  /** A login event (failed, succeeded or unknown). */
  login: boolean;
  /** Id of the signed fingerprint token (valid or expired), "" when none. */
  tokenId: string;
  /** subnetKey(ip): /24 or /64. */
  subnet: string;
  /** Short key of the user agent (uaKey), "" when none. */
  userAgent: string;
  /** A payment (with a payment hash) for a small amount (card-testing runs). */
  smallPayment: boolean;
  /** A server-side call that carried a valid token: the site integrates the browser SDK. */
  sdkServerCall: boolean;
  /** A checkout or an event with a payment hash: the only events that count hardware profiles. */
  paymentEvent: boolean;
  /** The device's hardware profile, "" when none. */
  hardwareProfile: string;
}

/**
 * One hot-state operation of an event. `field` names the HistoryCounts value it answers.
 * - `hit`: add one to a windowed counter (`add`) or read it;
 * - `distinct`: add `member` to a distinct count, or read it when `member` is null;
 * - `get`: read a value (recent risk);
 * - `firstSeen`: when the device was first seen (recorded now when unknown);
 * - `sdk`: a "backend sends tokens" marker (`key`: sdkMarkerKey), set when `mark`.
 */
export type CounterOp =
  | { kind: 'hit'; field: CountField; key: string; window: number; add: boolean }
  | { kind: 'distinct'; field: CountField; key: string; window: number; member: string | null }
  | { kind: 'get'; field: CountField; key: string }
  | { kind: 'firstSeen'; field: CountField; deviceId: string }
  | { kind: 'sdk'; field: CountField; key: string; mark: boolean };

export type CountField = keyof HistoryCounts;

/** The inputs of the live derivation (buildFeatures), before the hardware profile is known. */
export interface RequestCounterFacts {
  eventType: string;
  accountId: string;
  ip: string;
  deviceId: string;
  paymentHash: string | null | undefined;
  email: string | null | undefined;
  loginSucceeded: boolean | null | undefined;
  orderAmount: number | null | undefined;
  tokenId: string;
  userAgent: string;
  /** A server-side call with a valid token. */
  sdkServerCall: boolean;
  hardwareProfile: string;
}

export function counterEventOfRequest(f: RequestCounterFacts): CounterEvent {
  return {
    eventType: f.eventType,
    accountId: f.accountId,
    ip: f.ip,
    deviceId: f.deviceId,
    paymentHash: f.paymentHash ?? '',
    email: emailKey(f.email),
    loginFailed: f.eventType === 'login' && f.loginSucceeded === false,
    login: f.eventType === 'login',
    tokenId: f.tokenId,
    subnet: subnetKey(f.ip),
    userAgent: uaKey(f.userAgent),
    smallPayment: isSmallPayment(f.paymentHash, f.orderAmount),
    sdkServerCall: f.sdkServerCall,
    paymentEvent: isPaymentEvent(f.eventType, f.paymentHash),
    hardwareProfile: f.hardwareProfile,
  };
}

/** The columns of a recorded decision the rebuild reads. */
export interface RecordedCounterFacts {
  account_id: string;
  ip_address: string;
  device_id: string;
  payment_hash: string | null;
  email: string | null;
  event_type: string;
  features: string;
  user_agent: string;
  order_amount: number | null;
}

/**
 * The counter event of a recorded decision: the same facts the live request had, read from the
 * decision's columns and its features JSON (token id, hardware profile, login outcome, surface
 * and token status), so that counterOps gives the rebuild exactly the live operations.
 */
export function counterEventOfRecord(r: RecordedCounterFacts): CounterEvent {
  const tokenId = TOKEN_ID.exec(r.features)?.[1] ?? '';
  const loginSucceeded = r.features.includes('"login_succeeded":false')
    ? false
    : r.features.includes('"login_succeeded":true')
      ? true
      : null;
  return counterEventOfRequest({
    eventType: r.event_type,
    accountId: r.account_id,
    ip: r.ip_address,
    deviceId: r.device_id,
    paymentHash: r.payment_hash,
    email: r.email,
    loginSucceeded,
    orderAmount: r.order_amount,
    tokenId,
    userAgent: r.user_agent,
    sdkServerCall:
      tokenId !== '' && r.features.includes('"surface":"server"') && r.features.includes('"token":"valid"'),
    hardwareProfile: HARDWARE_PROFILE.exec(r.features)?.[1] ?? '',
  });
}

/** Every counter operation of one event, in order: baseCounterOps, then hardwareCounterOps. */
export function counterOps(siteId: string, e: CounterEvent): CounterOp[] {
  const ops = baseCounterOps(siteId, e);
  for (const op of hardwareCounterOps(siteId, e)) ops.push(op);
  return ops;
}

/**
 * The operations of every event (velocity, failures, fan-out, device history, token, recent risk,
 * subnet, payments, SDK marker). An id that is "" skips its operations (its counts answer 0), and
 * so does a placeholder account (countedAccount).
 */
export function baseCounterOps(s: string, e: CounterEvent): CounterOp[] {
  const account = countedAccount(e.accountId);
  const ops: CounterOp[] = [];
  const hit = (field: CountField, id: string, key: string, window: number, add = true) => {
    if (id) ops.push({ kind: 'hit', field, key, window, add });
  };
  const distinct = (field: CountField, pair: Pair, owner: string, member: string | null) => {
    if (owner)
      ops.push({
        kind: 'distinct',
        field,
        key: distinctKey(s, pair, owner),
        window: pairWindow(pair),
        member: member || null,
      });
  };
  const get = (field: CountField, id: string, key: string) => {
    if (id) ops.push({ kind: 'get', field, key });
  };
  // One string per key, shared by its windows (the in-process store hashes it once flattened).
  const ipVelocity = `vel:${s}:ip:${e.ip}`;
  const accountVelocity = `vel:${s}:acct:${account}`;
  const deviceVelocity = `vel:${s}:dev:${e.deviceId}`;
  hit('ip_1m', e.ip, ipVelocity, MINUTE);
  hit('ip_1h', e.ip, ipVelocity, HOUR);
  hit('account_1m', account, accountVelocity, MINUTE);
  hit('account_1h', account, accountVelocity, HOUR);
  hit('device_1m', e.deviceId, deviceVelocity, MINUTE);
  hit('device_1h', e.deviceId, deviceVelocity, HOUR);
  hit('failed_logins_account_1h', account, `fail:${s}:acct:${account}`, HOUR, e.loginFailed);
  hit('failed_logins_ip_1h', e.ip, `fail:${s}:ip:${e.ip}`, HOUR, e.loginFailed);
  distinct('accounts_per_device_24h', 'da', e.deviceId, account);
  distinct('accounts_per_ip_24h', 'ia', e.ip, account);
  distinct('payments_per_account_24h', 'ap', account, e.paymentHash);
  distinct('payments_per_device_24h', 'dp', e.deviceId, e.paymentHash);
  distinct('accounts_per_email_24h', 'ea', e.email, account);
  if (e.deviceId) ops.push({ kind: 'firstSeen', field: 'device_first_seen', deviceId: e.deviceId });
  hit('device_events_30d', e.deviceId, `devn:${s}:${e.deviceId}`, DEVICE_WINDOW);
  hit('device_risky_events_30d', e.deviceId, `devbad:${s}:${e.deviceId}`, DEVICE_WINDOW, false);
  hit('token_events_1h', e.tokenId, `vel:${s}:tok:${e.tokenId}`, HOUR);
  distinct('token_accounts_24h', 'ta', e.tokenId, account);
  get('token_recent_risk', e.tokenId, `rrisk:${s}:tok:${e.tokenId}`);
  get('device_recent_risk', e.deviceId, `rrisk:${s}:dev:${e.deviceId}`);
  hit('failed_logins_subnet_1h', e.subnet, `fail:${s}:net:${e.subnet}`, HOUR, e.loginFailed);
  hit('failed_logins_subnet_24h', e.subnet, `fail24:${s}:net:${e.subnet}`, DAY, e.loginFailed);
  distinct('failed_accounts_subnet_24h', 'sf', e.subnet, e.loginFailed ? account : null);
  distinct('failed_login_uas_ip_24h', 'fu', e.ip, e.loginFailed ? e.userAgent : null);
  distinct('payments_per_ip_24h', 'pi', e.ip, e.paymentHash);
  distinct('payments_per_subnet_24h', 'ps', e.subnet, e.paymentHash);
  hit('small_payments_account_24h', account, `small:${s}:acct:${account}`, DAY, e.smallPayment);
  hit('small_payments_device_24h', e.deviceId, `small:${s}:dev:${e.deviceId}`, DAY, e.smallPayment);
  hit('small_payments_subnet_24h', e.subnet, `small:${s}:net:${e.subnet}`, DAY, e.smallPayment);
  ops.push({ kind: 'sdk', field: 'site_uses_sdk', key: sdkMarkerKey(s), mark: e.sdkServerCall });
  ops.push({
    kind: 'sdk',
    field: 'event_type_uses_sdk',
    key: sdkMarkerKey(s, e.eventType),
    mark: e.sdkServerCall,
  });
  hit('logins_subnet_24h', e.subnet, `login24:${s}:net:${e.subnet}`, DAY, e.login);
  return ops;
}

/**
 * The hardware-profile operations: payment events with a profile only (distinct devices, distinct
 * payment hashes and small payments of the profile in HARDWARE_WINDOW). Live scoring may learn the
 * profile of a token's device only after a lookup, so it asks for these separately.
 */
export function hardwareCounterOps(s: string, e: CounterEvent): CounterOp[] {
  const p = e.hardwareProfile;
  if (!e.paymentEvent || !p) return [];
  return [
    {
      kind: 'distinct',
      field: 'hw_devices_1h',
      key: distinctKey(s, 'hd', p),
      window: HARDWARE_WINDOW,
      member: e.deviceId || null,
    },
    {
      kind: 'distinct',
      field: 'hw_payments_1h',
      key: distinctKey(s, 'hp', p),
      window: HARDWARE_WINDOW,
      member: e.paymentHash || null,
    },
    {
      kind: 'hit',
      field: 'hw_small_payments_1h',
      key: `small:${s}:hw:${p}`,
      window: HARDWARE_WINDOW,
      add: e.smallPayment,
    },
  ];
}

/** The counts of a live event with nothing counted: every answer 0 (key order as recorded). */
export function emptyCounts(): HistoryCounts {
  return {
    ip_1m: 0,
    ip_1h: 0,
    account_1m: 0,
    account_1h: 0,
    device_1m: 0,
    device_1h: 0,
    failed_logins_account_1h: 0,
    failed_logins_ip_1h: 0,
    accounts_per_device_24h: 0,
    accounts_per_ip_24h: 0,
    payments_per_account_24h: 0,
    payments_per_device_24h: 0,
    accounts_per_email_24h: 0,
    device_first_seen: null,
    device_events_30d: 0,
    device_risky_events_30d: 0,
    token_events_1h: 0,
    token_accounts_24h: 0,
    token_recent_risk: 0,
    device_recent_risk: 0,
    failed_logins_subnet_1h: 0,
    failed_logins_subnet_24h: 0,
    failed_accounts_subnet_24h: 0,
    failed_login_uas_ip_24h: 0,
    payments_per_ip_24h: 0,
    payments_per_subnet_24h: 0,
    small_payments_account_24h: 0,
    small_payments_device_24h: 0,
    small_payments_subnet_24h: 0,
    site_uses_sdk: false,
    event_type_uses_sdk: false,
    logins_subnet_24h: 0,
  };
}

/** Put the answers of `ops` (in order) into `counts`. */
export function fillCounts(
  counts: HistoryCounts,
  ops: readonly CounterOp[],
  answers: readonly unknown[],
): void {
  const c = counts as unknown as Record<string, unknown>;
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i] as CounterOp;
    const v = answers[i];
    if (op.kind === 'get') c[op.field] = Number(v ?? 0) || 0;
    else if (op.kind === 'sdk') c[op.field] = v === true;
    else if (op.kind === 'firstSeen') c[op.field] = (v as number | null) ?? null;
    else c[op.field] = (v as number | null) ?? 0;
  }
}

/**
 * What the rebuild adds for one recorded event `ageMs` old: the writes among its operations whose
 * window still covers it. Reads, and the device-history operations (30-day windows, restored from
 * an aggregate over the device window instead: rebuildDevices), add nothing here.
 */
export function rebuildWrites(
  ops: readonly CounterOp[],
  ageMs: number,
): Array<Extract<CounterOp, { kind: 'hit' | 'distinct' | 'sdk' }>> {
  const out: Array<Extract<CounterOp, { kind: 'hit' | 'distinct' | 'sdk' }>> = [];
  for (const op of ops) {
    if (op.kind === 'sdk') {
      if (op.mark) out.push(op);
    } else if (op.kind === 'hit') {
      if (op.add && ageMs < op.window && op.window <= DAY) out.push(op);
    } else if (op.kind === 'distinct') {
      if (op.member !== null && ageMs < op.window && op.window <= DAY) out.push(op);
    }
  }
  return out;
}
