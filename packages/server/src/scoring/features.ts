import { isbot } from 'isbot';
import { type ChallengeFailure, verifyChallenge } from '../challenge/index.ts';
import {
  deviceIdFromStable,
  isRecord,
  stableAttributeCount,
  stableFingerprint,
} from '../fingerprint/device-id.ts';
import { verifyToken } from '../fingerprint/token.ts';
import { type BehaviorMetrics, behaviorMetrics } from './behavior-metrics.ts';
import { isDisposableDomain } from './email-domains.ts';
import type { EventType, ScoringInput } from './engine-types.ts';
import { emailKey, type History, type HistoryCounts } from './history.ts';

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
  /** Token valid but the fingerprint sent with it names another device. */
  token_device_mismatch: boolean;
  stable_attributes: number;
  user_agent: string;
  ua_is_bot: boolean;
  ua_headless: boolean;
  /** navigator.userAgent differs from the observed User-Agent header. */
  ua_js_mismatch: boolean;
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
  login_succeeded: boolean | null;
  behavior: BehaviorMetrics;
  /** |server time − environment.timestamp| in ms, null when absent. */
  clock_skew_ms: number | null;
  nonce: 'absent' | 'fresh' | 'replayed';
  pow: 'absent' | 'valid' | ChallengeFailure;
  history: HistoryCounts;
}

const NONCE_TTL_MS = 24 * 60 * 60 * 1000;

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

const botCache = new Map<string, boolean>();
/** isbot runs one large regular expression; user agents repeat, so remember the answers. */
function knownBot(ua: string): boolean {
  let answer = botCache.get(ua);
  if (answer === undefined) {
    answer = isbot(ua);
    if (botCache.size >= 10_000) botCache.clear();
    botCache.set(ua, answer);
  }
  return answer;
}

function parseNonce(value: unknown): string | number | undefined {
  return typeof value === 'string' || typeof value === 'number' ? value : undefined;
}

export async function buildFeatures(input: ScoringInput, history: History): Promise<Features> {
  const { ctx, site, request } = input;
  const fp = isRecord(request.fingerprint) ? request.fingerprint : undefined;
  const env = isRecord(request.environment) ? request.environment : undefined;
  const c = request.context;

  // Device: the token names it; otherwise the fingerprint evidence; otherwise "".
  const stable = stableFingerprint(fp);
  const fpDevice = deviceIdFromStable(stable);
  let token: Features['token'] = 'absent';
  let deviceId = '';
  let source: Features['device_source'] = 'none';
  if (request.token !== undefined) {
    const check = verifyToken(ctx.secret, request.token, site.id, input.now);
    token = check.status;
    if (check.status === 'valid') {
      deviceId = check.deviceId;
      source = 'token';
    }
  }
  if (source === 'none' && fpDevice) {
    deviceId = fpDevice;
    source = 'fingerprint';
  }

  const ua = input.userAgent;
  const jsUa = fp ? str(fp.user_agent) : '';
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

  const [counts, nonceFresh, powResult] = await Promise.all([
    history.observe(
      {
        siteId: site.id,
        accountId: c.account_id,
        ip: input.ip,
        deviceId,
        paymentHash: c.payment_hash ?? '',
        email: emailKey(c.email),
        loginFailed: c.event_type === 'login' && c.login_succeeded === false,
      },
      input.now,
    ),
    nonce ? ctx.hotState.claimOnce(`nonce:${site.id}:${nonce}`, NONCE_TTL_MS) : Promise.resolve(true),
    pow && typeof pow.challenge_id === 'string' && powNonce !== undefined
      ? verifyChallenge(ctx, site, { challenge_id: pow.challenge_id, nonce: powNonce })
      : Promise.resolve(undefined),
  ]);

  return {
    event_type: c.event_type,
    now_ms: input.now,
    surface: input.surface,
    has_fingerprint: fp !== undefined && Object.keys(fp).length > 0,
    has_behavior: isRecord(request.behavior) && Object.keys(request.behavior).length > 0,
    has_environment: env !== undefined && Object.keys(env).length > 0,
    device_id: deviceId,
    device_source: source,
    token,
    token_device_mismatch: source === 'token' && fpDevice !== '' && fpDevice !== deviceId,
    stable_attributes: stableAttributeCount(stable),
    user_agent: ua,
    ua_is_bot: ua !== '' && knownBot(ua),
    ua_headless: /headless|phantomjs|slimerjs/i.test(ua) || /headless/i.test(jsUa),
    ua_js_mismatch: jsUa !== '' && ua !== '' && jsUa !== ua,
    webdriver: env && typeof env.webdriver === 'boolean' ? env.webdriver : null,
    webdriver_defined: env ? str(env.webdriver_defined) : '',
    automation_artifacts: strings(env?.automation_artifacts),
    headless_markers: strings(env?.headless_markers),
    cdp: env?.cdp === true,
    tampered_functions: strings(env?.tampered_functions),
    worker_mismatch: workerMismatch(env?.worker, fp),
    email_domain: emailDomain,
    email_disposable: emailDomain !== '' && isDisposableDomain(emailDomain),
    email_plus_alias: c.email !== undefined && /\+[^@]*@/.test(c.email),
    has_payment: (c.payment_hash ?? '') !== '',
    login_succeeded: c.login_succeeded ?? null,
    behavior: behaviorMetrics(request.behavior),
    clock_skew_ms:
      typeof timestamp === 'number' && Number.isFinite(timestamp) ? Math.abs(input.now - timestamp) : null,
    nonce: nonce ? (nonceFresh ? 'fresh' : 'replayed') : 'absent',
    pow:
      powResult === undefined ? 'absent' : powResult.valid ? 'valid' : (powResult.reason ?? 'invalid_proof'),
    history: counts,
  };
}
