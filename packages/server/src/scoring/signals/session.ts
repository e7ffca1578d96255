import { CARRIED_PREFIX, isCarriedRule } from '../browser-session.ts';
import type { Signal } from '../engine-types.ts';
import type { Features } from '../features.ts';
import { emit, type SignalFamily } from './types.ts';

/** A token naming this many distinct accounts (24 h) is a replayed capture (3+: 50, 5+: 70). */
export const TOKEN_ACCOUNTS = [
  [5, 70],
  [3, 50],
] as const;
/** Events carrying one token in an hour: an SDK page refreshes its token every ~9 minutes. */
export const TOKEN_EVENTS_1H = 40;
/** Carry-over starts at this recent risk (a challenge-worthy decision). */
export const RECENT_RISK_MIN = 60;
/**
 * A device id can collide (identical phones, imaged laptops): through the device id alone (a new
 * page session of the same device) at most this is carried, and only for desktop user agents
 * (identical phones of one model share a device id).
 */
export const DEVICE_CARRY_CAP = 60;

/**
 * Rules whose score is carried over from earlier decisions (excluded from the evidence risk), with
 * every `carried_<rule>` signal (browser-session.ts isCarriedRule).
 */
export const CARRIED = new Set(['device_recent_risk', 'browser_session']);

/**
 * A decision's evidence risk: its signals without what it carried over from earlier decisions
 * (no feedback loop), summed and clamped to 0–100. Remembered as the token's and device's recent
 * risk after the decision is recorded, and by the history rebuild from the recorded signals.
 */
export function evidenceRisk(signals: readonly Signal[]): number {
  let sum = 0;
  for (const s of signals) if (!isCarriedRule(s.rule, CARRIED)) sum += s.score;
  return Math.min(100, Math.max(0, sum));
}

/**
 * The browser session behind a fingerprint token: a token is minted per page session by
 * POST /fingerprint, so one token on many accounts is a replay, and the backend's /verify for a
 * session inherits what its own browser evidence (/collect) showed minutes earlier.
 */
export const session: SignalFamily = {
  name: 'session',
  rules: {
    token_reused: {
      score: 50,
      description: 'One fingerprint token was used for many accounts or events (a replayed capture).',
    },
    browser_session: {
      score: 0,
      description:
        "Raises the backend's score to the evidence risk of the browser decision it carries (when the carried_* signals and this decision's own do not reach it).",
    },
    device_recent_risk: {
      score: 0,
      description:
        'Raises the score to the highest evidence risk of the same fingerprint token (browser session) in the last 30 minutes, or of the same desktop device capped at 60.',
    },
  },
  evaluate(f) {
    const out: Signal[] = [];
    if (f.token_id === '') return out;
    const h = f.history;
    for (const [min, score] of TOKEN_ACCOUNTS) {
      if (h.token_accounts_24h >= min) {
        out.push(
          emit(this, 'token_reused', {
            score,
            description: `One fingerprint token was used for ${h.token_accounts_24h} accounts.`,
          }),
        );
        return out;
      }
    }
    if (h.token_events_1h >= TOKEN_EVENTS_1H) {
      out.push(
        emit(this, 'token_reused', {
          score: 35,
          description: `One fingerprint token was used for ${h.token_events_1h} events in an hour.`,
        }),
      );
    }
    return out;
  },
};

/**
 * `device_recent_risk`: runs after every family (it needs their sum). When the token's (same
 * browser session) recent evidence risk, or the device's capped at DEVICE_CARRY_CAP, is at least
 * RECENT_RISK_MIN and above this event's own sum, add the difference: the score becomes
 * max(own, recent), so repeated evidence is never counted twice.
 */
export function carryRecentRisk(f: Features, signals: readonly Signal[]): Signal | null {
  if (f.device_id === '' && f.token_id === '') return null;
  const h = f.history;
  const byToken = f.token_id !== '' ? h.token_recent_risk : 0;
  const byDevice = f.device_id !== '' && !f.ua_mobile ? Math.min(DEVICE_CARRY_CAP, h.device_recent_risk) : 0;
  const recent = Math.max(byToken, byDevice);
  if (recent < RECENT_RISK_MIN) return null;
  let own = 0;
  for (const s of signals) own += s.score;
  if (own >= recent) return null;
  const via = byToken >= byDevice ? 'this fingerprint token' : 'this device';
  return emit(session, 'device_recent_risk', {
    score: recent - own,
    description: `Evidence from ${via} scored ${recent} in the last 30 minutes.`,
  });
}

/**
 * The browser session a backend call carries (server surface, authentic token): every signal of
 * the token's riskiest browser decision in the last 30 minutes becomes `carried_<rule>` with the
 * browser's score, except rules this decision already has (its own evidence counts once). If the
 * sum is still below that browser decision's evidence risk (this decision's own trust evidence
 * outweighs), `browser_session` adds the difference: the enforced score is never below the
 * browser's. Carried signals name the browser decision in their description.
 */
export function carryBrowserSession(f: Features, signals: readonly Signal[]): Signal[] {
  const b = f.browser_session;
  if (!b || f.surface !== 'server' || f.token_id === '') return [];
  const own = new Set<string>();
  let total = 0;
  for (const s of signals) {
    own.add(s.rule);
    total += s.score;
  }
  const out: Signal[] = [];
  for (const [rule, score, description] of b.signals) {
    if (score === 0 || own.has(rule) || rule.startsWith(CARRIED_PREFIX)) continue;
    out.push({
      rule: `${CARRIED_PREFIX}${rule}`,
      score,
      description: `Browser decision ${b.id}: ${description}`,
    });
    total += score;
  }
  if (total < b.risk) {
    out.push(
      emit(session, 'browser_session', {
        score: b.risk - total,
        description: `Raised to the evidence risk ${b.risk} of browser decision ${b.id}.`,
      }),
    );
  }
  return out;
}
