import type { StableFingerprint } from '../fingerprint/device-id.ts';
import { eventVariables, isRuleSignal } from '../rules/apply.ts';
import type { RateLimitResult } from '../state/hot-state.ts';
import { admit, type ScoringRateLimit } from '../state/rate-limit.ts';
import type { HotStateWrite } from '../state/writes.ts';
import { type BrowserSession, browserSessionWrite, isCarriedRule } from './browser-session.ts';
import type { ObservedEvent } from './decide-event.ts';
import type { EngineResult, ScoringInput, Signal } from './engine-types.ts';
import { buildFeatures, type FeatureDeps, type Features } from './features.ts';
import { outcomeWrites } from './history.ts';
import type { SharedState } from './shared-state.ts';
import { deviceEvidenceRisk } from './signals/device-carry.ts';
import { CARRIED, evidenceRisk } from './signals/session.ts';

/** Identity clusters are plan-gated: Pro, Enterprise and the demo workspace. */
export function identityAllowed(workspace: ScoringInput['workspace']): boolean {
  return workspace.demo || workspace.plan === 'pro' || workspace.plan === 'enterprise';
}

/** What observe found, and what it keeps for after the decision is recorded. */
export interface Observed extends ObservedEvent {
  /** The stable fingerprint the device id came from (for the recorded evidence). */
  stable: StableFingerprint;
  /** The token's browser session as read (a browser decision updates it after recording). */
  session: BrowserSession | null;
  /** The rate limit's answer, when observe checked one (it let the event through). */
  admitted?: RateLimitResult;
}

/**
 * The only part of scoring that reads and writes shared state (scoring/decide-event.ts has the
 * pure part): the event's features (features.ts), with what the shared state knows of it in one
 * query (shared-state.ts: counters, nonce, identity clusters, the token's browser session); after
 * the decision, what to remember of its outcome (risky devices, recent risk, the browser session),
 * as writes applied with the commit.
 */
export class Observer {
  constructor(
    readonly shared: SharedState,
    private readonly deps: FeatureDeps,
  ) {}

  /**
   * `limit`: a rate limit the event passes first (the single-event routes hand theirs over, so it
   * travels with the query); refused, this throws its 429 and nothing is counted or claimed.
   */
  async observe(input: ScoringInput, limit?: ScoringRateLimit): Promise<Observed> {
    const c = input.request.context;
    const built = await buildFeatures(input, this.deps, this.shared, {
      identity: identityAllowed(input.workspace),
      ...(limit ? { limit: [limit.key, limit.limit, limit.windowMs] as [string, number, number] } : {}),
    });
    const { answer } = built;
    if (limit && answer.admitted) admit(limit, answer.admitted);
    const features = built.features as Features;
    const session = answer.session;
    if (answer.identity) features.identity = answer.identity;
    // Recorded (and carried) on backend calls; a browser call only needs it to update the session.
    if (session && input.surface === 'server') features.browser_session = session;
    const observed: Observed = {
      features,
      stable: built.stable,
      event: eventVariables({ ...c, ip: input.ip, user_agent: input.userAgent, surface: input.surface }),
      ip: input.ip,
      session,
    };
    if (answer.admitted) observed.admitted = answer.admitted;
    return observed;
  }

  /**
   * What to remember once the decision is recorded: its outcome and, for a browser decision, the
   * page session (`session`: as read when it was scored).
   */
  outcome(input: ScoringInput, result: EngineResult, session: BrowserSession | null): HotStateWrite[] {
    const f = result.features as unknown as Features;
    // The evidence risk: this decision's score without what it carried over (no feedback loop).
    const own = result.signals.filter((s) => !isCarriedRule(s.rule, CARRIED));
    const tokenId = f.token_id ?? '';
    const writes = outcomeWrites(input.site.id, result.device_id, result.risk_score, {
      tokenId,
      evidenceRisk: evidenceRisk(result.signals),
      deviceRisk: deviceEvidenceRisk(result.signals),
      previousToken: f.history?.token_recent_risk ?? 0,
      previousDevice: f.history?.device_recent_risk ?? 0,
    });
    // The browser side of a page session, for the backend's /verify to carry.
    if (input.surface === 'browser' && tokenId !== '')
      writes.push(
        browserSessionWrite(input.site.id, tokenId, browserEvidence(input.decisionId, own), session),
      );
    return writes;
  }
}

/**
 * What a browser decision hands to its session's /verify: its default-rule evidence signals (list
 * and custom-rule signals are not carried: the backend's event meets the lists and rules itself)
 * and their sum, clamped to 0–100.
 */
function browserEvidence(
  id: string,
  own: readonly Signal[],
): { id: string; risk: number; signals: Signal[] } {
  const signals = own.filter((s) => !isRuleSignal(s.rule));
  let risk = 0;
  for (const s of signals) risk += s.score;
  return { id, risk: Math.min(100, Math.max(0, risk)), signals };
}
