import type { HotState, MaybePromise } from '../state/hot-state.ts';
import { isPromise } from '../state/hot-state.ts';
import type { HotStateWrite } from '../state/writes.ts';
import type { Signal } from './engine-types.ts';
import { RECENT_RISK_MS } from './history-keys.ts';

/**
 * What the browser side of one page session (one fingerprint token) found, for the backend's
 * `/verify` to carry: the riskiest browser decision of the token in the last RECENT_RISK_MS (its
 * id, evidence risk and signals) and the id of the latest one (the submit the backend verifies).
 * One hot-state value per token (`bsess:{site}:{token id}`), bounded: at most MAX_SIGNALS signals
 * with descriptions cut to DESCRIPTION_CHARS, so under 2 KB, and it expires with RECENT_RISK_MS.
 */
export interface BrowserSession {
  /** The riskiest browser decision: its id, evidence risk and signals `[rule, score, description]`. */
  id: string;
  risk: number;
  signals: Array<[string, number, string]>;
  /** The latest browser decision of the token (the one the submit produced). */
  latest: string;
}

export const MAX_SIGNALS = 16;
export const DESCRIPTION_CHARS = 120;
/** Rule name prefix of a signal carried from the browser session (`carried_automation_cdp`). */
export const CARRIED_PREFIX = 'carried_';

const key = (siteId: string, tokenId: string) => `bsess:${siteId}:${tokenId}`;

function parse(raw: string | null): BrowserSession | null {
  if (raw === null) return null;
  try {
    const v = JSON.parse(raw) as BrowserSession;
    if (typeof v?.id !== 'string' || typeof v.risk !== 'number' || !Array.isArray(v.signals)) return null;
    return {
      id: v.id,
      risk: v.risk,
      signals: v.signals,
      latest: typeof v.latest === 'string' ? v.latest : v.id,
    };
  } catch {
    return null;
  }
}

/** The token's browser session, or null (none recorded in the last RECENT_RISK_MS, or unreadable). */
export function readBrowserSession(
  h: HotState,
  siteId: string,
  tokenId: string,
): MaybePromise<BrowserSession | null> {
  if (tokenId === '') return null;
  const raw = h.get(key(siteId, tokenId));
  return isPromise(raw) ? raw.then(parse) : parse(raw);
}

/**
 * What to write once a browser decision is recorded: it becomes the session's latest, and its
 * riskiest when its evidence risk is at least the earlier riskiest's (`previous`, read when it
 * was scored).
 * `signals` are its evidence signals (nothing carried). Best effort: two decisions of one token
 * recorded at the same instant may overwrite each other's `latest` (the riskiest is re-read on
 * the next decision).
 */
export function browserSessionWrite(
  siteId: string,
  tokenId: string,
  decision: { id: string; risk: number; signals: readonly Signal[] },
  previous: BrowserSession | null,
): HotStateWrite {
  const riskiest =
    previous && previous.risk > decision.risk
      ? previous
      : {
          id: decision.id,
          risk: decision.risk,
          // The strongest first, so the cut (rare: more than MAX_SIGNALS signals) drops the weakest.
          signals: decision.signals
            .filter((s) => s.score !== 0)
            .sort((a, b) => Math.abs(b.score) - Math.abs(a.score))
            .slice(0, MAX_SIGNALS)
            .map((s): [string, number, string] => [
              s.rule,
              s.score,
              s.description.slice(0, DESCRIPTION_CHARS),
            ]),
        };
  const value: BrowserSession = { ...riskiest, latest: decision.id };
  return ['set', key(siteId, tokenId), JSON.stringify(value), RECENT_RISK_MS];
}

/**
 * The browser decision a backend decision verified: the latest browser decision of its token
 * (`features.browser_session.latest`), which `/verify` features hold; null for any other decision.
 * Stored as `decisions.browser_decision_id`, so a protected submit counts once in statistics.
 */
export function linkedBrowserDecision(features: Record<string, unknown>): string | null {
  const session = features.browser_session;
  if (typeof session !== 'object' || session === null) return null;
  const latest = (session as { latest?: unknown }).latest;
  return typeof latest === 'string' && latest !== '' ? latest : null;
}

/** Rules whose score was carried over from earlier decisions (not this event's own evidence). */
export function isCarriedRule(rule: string, carried: ReadonlySet<string>): boolean {
  return carried.has(rule) || rule.startsWith(CARRIED_PREFIX);
}
