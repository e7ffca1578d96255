import { isbot } from 'isbot';
import type { BoundedMemo } from '../bounded-memo.ts';
import type { ChallengeFailure, ChallengeVerification, PowProofInput } from '../challenge/types.ts';
import {
  deviceIdFromStable,
  isRecord,
  type StableFingerprint,
  stableAttributeCount,
  stableFingerprint,
} from '../fingerprint/device-id.ts';
import type { DeviceLinkKind } from '../fingerprint/device-link.ts';
import { hardwareProfileFromStable } from '../fingerprint/hardware.ts';
import { type TokenBinding, verifyToken } from '../fingerprint/token.ts';
import { volatileFacts } from '../fingerprint/volatile.ts';
import type { SitesTable } from '../storage/schema.ts';
import { type BehaviorMetrics, behaviorMetrics } from './behavior-metrics.ts';
import type { BrowserSession } from './browser-session.ts';
import { counterEventOfRequest, type HistoryCounts } from './counter-ops.ts';
import { isDisposableDomain } from './email-domains.ts';
import type { EventType, IdentitySummary, ScoringInput } from './engine-types.ts';
import { isPaymentEvent } from './history-keys.ts';
import type { IpInfo, IpIntel } from './ip-intel.ts';
import type { SharedState, StateAnswer, StateQuery } from './shared-state.ts';
import { subnetKey } from './subnet.ts';
import { type Os, uaInconsistencies, uaOs } from './ua-consistency.ts';

/** Everything the signals look at; recorded with the decision (`features`) for replay. */
export interface Features {
  event_type: EventType;
  now_ms: number;
  surface: 'browser' | 'server';
  has_fingerprint: boolean;
  has_behavior: boolean;
  has_environment: boolean;
  device_id: string;
  device_source: 'token' | 'fingerprint' | 'none';
  token: 'absent' | 'valid' | 'invalid' | 'expired' | 'site_mismatch';
  /** Token valid but the fingerprint (or visitor id) sent with it is not the one it was issued for. */
  token_device_mismatch: boolean;
  /** Id of a signed token (valid or expired): 16 characters of its MAC; "" otherwise. */
  token_id: string;
  stable_attributes: number;
  user_agent: string;
  ua_is_bot: boolean;
  ua_headless: boolean;
  /** navigator.userAgent differs from the observed User-Agent header. */
  ua_js_mismatch: boolean;
  /** The observed UA claims a browser (Mozilla/5.0 …) and is no known bot. */
  ua_browser: boolean;
  /** Phone or tablet user agent (Android, iPhone, iPad, Mobile). */
  ua_mobile: boolean;
  /** Operating system the observed UA claims. */
  ua_os: Os;
  /** Where navigator.platform and Client Hints contradict the observed UA (ua-consistency.ts). */
  ua_inconsistencies: string[];
  /** The observed UA claims Chrome (or Edge/Opera on Chromium). */
  ua_chromium: boolean;
  /** The Web Worker's user agent says HeadlessChrome while the page does not. */
  worker_headless: boolean;
  /** The page or the worker renders WebGL in software (SwiftShader, llvmpipe, Basic Render). */
  software_renderer: 'none' | 'page' | 'worker';
  webdriver: boolean | null;
  webdriver_defined: string;
  automation_artifacts: string[];
  headless_markers: string[];
  cdp: boolean;
  tampered_functions: string[];
  worker_mismatch: string[];
  email_domain: string;
  email_disposable: boolean;
  email_plus_alias: boolean;
  has_payment: boolean;
  order_amount: number | null;
  login_succeeded: boolean | null;
  behavior: BehaviorMetrics;
  /** |server time − environment.timestamp| in ms, null when absent. */
  clock_skew_ms: number | null;
  nonce: 'absent' | 'fresh' | 'replayed';
  /** environment.nonce as sent ("" when absent): recorded, so a restart still knows it was used. */
  nonce_value: string;
  pow: 'absent' | 'valid' | ChallengeFailure;
  history: HistoryCounts;
  /** The IP's /24 (IPv6 /64). */
  subnet: string;
  /** Offline IP intelligence (ip-intel.ts): ASN, organisation, country, hosting/cloud network. */
  ip: IpInfo;
  /** The browser's IANA time zone from the fingerprint evidence ("" when absent). */
  timezone: string;
  /**
   * Volatile facts of the event (fingerprint/volatile.ts): what a person changes without changing
   * device — `navigator.languages` joined by commas ("" when absent) and the page zoom (1 when
   * unknown). Absent in decisions recorded before they existed.
   */
  languages?: string;
  page_zoom?: number;
  /**
   * How the token's registration named the device (fingerprint/device-link.ts): `exact`, `visitor`,
   * `fuzzy` or `new`, with its confidence (0–1), and whether the first-party visitor id named another
   * device than the fingerprint. Present with a valid token that names a device.
   */
  device_link?: DeviceLinkKind;
  device_link_confidence?: number;
  device_visitor_conflict?: boolean;
  /** The account's identity cluster (Pro, Enterprise, demo); null when not computed. */
  identity: IdentitySummary | null;
  /**
   * The device's hardware profile (fingerprint/hardware.ts: the stable fingerprint without canvas,
   * audio and WebGL image hashes), "" when unknown. From the fingerprint evidence; on payment events
   * that only carry a token, as remembered when the token was issued. Absent in decisions recorded
   * before it existed.
   */
  hardware_profile?: string;
  /**
   * The token's browser session (browser-session.ts): its riskiest browser decision in the last
   * 30 minutes (id, evidence risk, signals) and its latest decision id. Set by the engine on events
   * with an authentic token when one was recorded; a backend `/verify` carries it (session.ts
   * carryBrowserSession), so the recorded decision names the browser decisions it is linked to.
   */
  browser_session?: BrowserSession;
}

function strings(value: unknown, max = 32): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is string => typeof v === 'string').slice(0, max);
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function workerMismatch(worker: unknown, fp: Record<string, unknown> | undefined): string[] {
  if (!isRecord(worker) || !fp) return [];
  const out: string[] = [];
  for (const key of ['user_agent', 'platform', 'hardware_concurrency', 'timezone'] as const) {
    const a = worker[key];
    const b = fp[key];
    if (a !== undefined && b !== undefined && a !== b) out.push(key);
  }
  const wl = strings(worker.languages);
  const fl = strings(fp.languages);
  if (wl.length > 0 && fl.length > 0 && wl.join(',') !== fl.join(',')) out.push('languages');
  const webgl = isRecord(fp.webgl) ? fp.webgl : undefined;
  const renderer = webgl ? (webgl.unmasked_renderer ?? webgl.renderer) : undefined;
  if (
    typeof worker.webgl_renderer === 'string' &&
    typeof renderer === 'string' &&
    worker.webgl_renderer !== renderer
  ) {
    out.push('webgl_renderer');
  }
  return out;
}

/** isbot runs one large regular expression; user agents repeat, so services.ts remembers the answers. */
export function knownBot(ua: string): boolean {
  return isbot(ua);
}

const SOFTWARE_RENDERER = /swiftshader|llvmpipe|softpipe|microsoft basic render|mesa offscreen/i;
const MOBILE_UA = /Android|iPhone|iPad|iPod|Mobile/;

function softwareRenderer(
  worker: unknown,
  fp: Record<string, unknown> | undefined,
): Features['software_renderer'] {
  const webgl = fp && isRecord(fp.webgl) ? fp.webgl : undefined;
  const page = webgl ? `${str(webgl.unmasked_renderer)} ${str(webgl.renderer)}` : '';
  if (SOFTWARE_RENDERER.test(page)) return 'page';
  if (isRecord(worker) && SOFTWARE_RENDERER.test(str(worker.webgl_renderer))) return 'worker';
  return 'none';
}

/**
 * Headless markers as sent, minus `no_plugins` on phones and tablets: mobile browsers have no
 * plugins (older SDKs still send the marker there).
 */
function markers(value: unknown, mobile: boolean): string[] {
  const m = strings(value);
  return mobile ? m.filter((x) => x !== 'no_plugins') : m;
}

function parseNonce(value: unknown): string | number | undefined {
  return typeof value === 'string' || typeof value === 'number' ? value : undefined;
}

/** What building features uses beyond the request and the shared state (the composition root: services.ts). */
export interface FeatureDeps {
  /** The HMAC key of fingerprint tokens (services.ts `SigningKeys.fingerprintToken`). */
  readonly tokenKey: Buffer;
  /** isbot's answer per user agent, remembered (`knownBot` below). */
  readonly knownBot: Pick<BoundedMemo<string, boolean>, 'get'>;
  /** Offline IP intelligence (ip-intel.ts). */
  readonly ipIntel: Pick<IpIntel, 'ready' | 'lookup'>;
  /** Check and consume a proof of work in either form (challenge/proof.ts). */
  verifyPow(site: SitesTable, proof: PowProofInput): Promise<ChallengeVerification>;
}

/** The features of one event, and the stable fingerprint they were derived from (for the evidence). */
export type BuiltFeatures =
  | { features: Features; stable: StableFingerprint; answer: StateAnswer }
  /** Refused by the rate limit (`answer.admitted`): nothing was counted or claimed. */
  | { features: null; stable: StableFingerprint; answer: StateAnswer };

/**
 * Build an event's features: the stateless work here (token, fingerprint, user agent, behaviour
 * metrics, e-mail, IP intelligence, proof of work), the shared state in one query (`shared`: this
 * process's, or in a `serve --workers` worker the primary's, one message per event).
 */
export async function buildFeatures(
  input: ScoringInput,
  deps: FeatureDeps,
  shared: SharedState,
  ask: Pick<StateQuery, 'identity' | 'limit'>,
): Promise<BuiltFeatures> {
  const { site, request } = input;
  const fp = isRecord(request.fingerprint) ? request.fingerprint : undefined;
  const env = isRecord(request.environment) ? request.environment : undefined;
  const c = request.context;

  // Device: the token names it; otherwise the fingerprint evidence; otherwise "".
  const stable = stableFingerprint(fp);
  const fpDevice = deviceIdFromStable(stable);
  let token: Features['token'] = 'absent';
  let deviceId = '';
  let source: Features['device_source'] = 'none';
  let tokenId = '';
  let binding: TokenBinding | undefined;
  if (request.token !== undefined) {
    const check = verifyToken(deps.tokenKey, request.token, site.id, input.now);
    token = check.status;
    // A valid token that names no device (registered from evidence without a stable attribute)
    // leaves the device to this request's own evidence.
    if (check.status === 'valid' && check.deviceId !== '') {
      deviceId = check.deviceId;
      source = 'token';
      binding = check.binding;
    }
    if (check.status === 'valid' || check.status === 'expired')
      tokenId = String(request.token).slice(String(request.token).lastIndexOf('.') + 1, -27);
  }
  if (source === 'none' && fpDevice) {
    deviceId = fpDevice;
    source = 'fingerprint';
  }
  // Hardware profile: from the evidence when it names this device; else, on payment events (the
  // only ones that count profiles), the one remembered for the token's device (one lookup).
  const paymentEvent = isPaymentEvent(c.event_type, c.payment_hash);
  const registered = binding?.fingerprintId ?? deviceId;
  const fpProfile = fpDevice === registered ? hardwareProfileFromStable(stable) : '';
  const visitor = fp ? str(fp.visitor_id).toLowerCase() : '';
  const lookUpProfile = fpProfile === '' && source === 'token' && paymentEvent;

  const ua = input.userAgent;
  const jsUa = fp ? str(fp.user_agent) : '';
  const mobile = MOBILE_UA.test(ua);
  const workerUa = env && isRecord(env.worker) ? str(env.worker.user_agent) : '';
  const os = uaOs(ua);
  const subnet = subnetKey(input.ip);
  const uaBot = ua !== '' && deps.knownBot.get(ua);
  const emailDomain = c.email
    ? c.email
        .slice(c.email.lastIndexOf('@') + 1)
        .trim()
        .toLowerCase()
    : '';
  const timestamp = env?.timestamp;
  const nonce = env ? str(env.nonce) : '';
  const pow = env && isRecord(env.pow) ? env.pow : undefined;
  const powNonce = pow ? parseNonce(pow.nonce) : undefined;

  const query: StateQuery = {
    siteId: site.id,
    now: input.now,
    counters: counterEventOfRequest({
      eventType: c.event_type,
      accountId: c.account_id,
      ip: input.ip,
      deviceId,
      paymentHash: c.payment_hash,
      email: c.email,
      loginSucceeded: c.login_succeeded,
      orderAmount: c.order_amount,
      tokenId,
      userAgent: ua,
      sdkServerCall: input.surface === 'server' && token === 'valid',
      hardwareProfile: lookUpProfile ? '' : fpProfile,
    }),
    profileOf: lookUpProfile ? deviceId : '',
    nonce,
    identity: ask.identity,
    ...(ask.limit ? { limit: ask.limit } : {}),
  };
  const powProof =
    pow && typeof pow.challenge_id === 'string' && powNonce !== undefined
      ? { challenge_id: pow.challenge_id, nonce: powNonce }
      : pow && typeof pow.altcha === 'string'
        ? { altcha: pow.altcha }
        : undefined;
  // A proof is used up only once the rate limit let the event through.
  const answer = powProof && query.limit ? await shared.observe(query) : undefined;
  if (answer?.admitted && !answer.admitted.allowed) return { features: null, stable, answer };
  const [, state, powResult] = await Promise.all([
    deps.ipIntel.ready(),
    answer ?? shared.observe(query),
    powProof ? deps.verifyPow(site, powProof) : undefined,
  ]);
  if (state.admitted && !state.admitted.allowed) return { features: null, stable, answer: state };
  const { counts, nonceFresh, profile } = state;

  const features: Features = {
    event_type: c.event_type,
    now_ms: input.now,
    surface: input.surface,
    has_fingerprint: fp !== undefined && Object.keys(fp).length > 0,
    has_behavior: isRecord(request.behavior) && Object.keys(request.behavior).length > 0,
    has_environment: env !== undefined && Object.keys(env).length > 0,
    device_id: deviceId,
    device_source: source,
    token,
    token_device_mismatch:
      binding !== undefined &&
      ((fpDevice !== '' && fpDevice !== registered) ||
        (visitor !== '' && binding.visitorId !== '' && visitor !== binding.visitorId)),
    token_id: tokenId,
    stable_attributes: stableAttributeCount(stable),
    user_agent: ua,
    ua_is_bot: uaBot,
    ua_headless: /headless|phantomjs|slimerjs/i.test(ua) || /headless/i.test(jsUa),
    ua_js_mismatch: jsUa !== '' && ua !== '' && jsUa !== ua,
    ua_browser: !uaBot && /^Mozilla\/5\.0 \(/.test(ua),
    ua_mobile: mobile,
    ua_os: os,
    ua_inconsistencies: uaInconsistencies(ua, fp, os),
    ua_chromium: /Chrome\/|CriOS\//.test(ua),
    worker_headless: /HeadlessChrome/.test(workerUa) && !/HeadlessChrome/.test(ua),
    software_renderer: softwareRenderer(env?.worker, fp),
    webdriver: env && typeof env.webdriver === 'boolean' ? env.webdriver : null,
    webdriver_defined: env ? str(env.webdriver_defined) : '',
    automation_artifacts: strings(env?.automation_artifacts),
    headless_markers: markers(env?.headless_markers, mobile),
    cdp: env?.cdp === true,
    tampered_functions: strings(env?.tampered_functions),
    worker_mismatch: workerMismatch(env?.worker, fp),
    email_domain: emailDomain,
    email_disposable: emailDomain !== '' && isDisposableDomain(emailDomain),
    email_plus_alias: c.email !== undefined && /\+[^@]*@/.test(c.email),
    has_payment: (c.payment_hash ?? '') !== '',
    order_amount:
      typeof c.order_amount === 'number' && Number.isFinite(c.order_amount) ? c.order_amount : null,
    login_succeeded: c.login_succeeded ?? null,
    behavior: behaviorMetrics(request.behavior),
    clock_skew_ms:
      typeof timestamp === 'number' && Number.isFinite(timestamp) ? Math.abs(input.now - timestamp) : null,
    nonce: nonce ? (nonceFresh ? 'fresh' : 'replayed') : 'absent',
    nonce_value: nonce,
    pow:
      powResult === undefined ? 'absent' : powResult.valid ? 'valid' : (powResult.reason ?? 'invalid_proof'),
    history: counts,
    subnet,
    ip: deps.ipIntel.lookup(input.ip),
    timezone: fp ? str(fp.timezone) : '',
    ...(fp ? volatileFacts(fp) : {}),
    ...(binding
      ? {
          device_link: binding.link,
          device_link_confidence: binding.confidence,
          device_visitor_conflict: binding.visitorConflict,
        }
      : {}),
    identity: null,
    hardware_profile: profile,
  };
  return { features, stable, answer: state };
}
