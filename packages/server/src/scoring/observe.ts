import type { AppContext } from '../context.ts';
import type { StableFingerprint } from '../fingerprint/device-id.ts';
import { eventVariables, isRuleSignal } from '../rules/apply.ts';
import {
  type BrowserSession,
  isCarriedRule,
  readBrowserSession,
  rememberBrowserDecision,
} from './browser-session.ts';
import type { ObservedEvent } from './decide-event.ts';
import type { EngineResult, ScoringInput, Signal } from './engine-types.ts';
import { buildFeatures, type Features } from './features.ts';
import { History } from './history.ts';
import type { IdentityService } from './identity.ts';
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
}

/**
 * The only part of scoring that reads and writes hot state (scoring/decide-event.ts has the pure
 * part): counts the event (history.ts, through counter-ops.ts), uses up its nonce and proof of work,
 * updates the identity clusters, reads the token's browser session; after the decision is
 * recorded, remembers its outcome (risky devices, recent risk) and the browser session.
 */
export class Observer {
  readonly history: History;

  constructor(
    private readonly ctx: AppContext,
    private readonly clusters: IdentityService,
  ) {
    this.history = new History(ctx);
  }

  async observe(input: ScoringInput): Promise<Observed> {
    const c = input.request.context;
    const { features, stable } = await buildFeatures(input, this.history);
    const [identity, session] = await Promise.all([
      identityAllowed(input.workspace)
        ? this.clusters.observe(input.site.id, {
            accountId: c.account_id,
            deviceId: features.device_id,
            paymentHash: c.payment_hash ?? '',
            ip: input.ip,
            at: input.now,
          })
        : undefined,
      readBrowserSession(this.ctx.hotState, input.site.id, features.token_id),
    ]);
    if (identity) features.identity = identity;
    // Recorded (and carried) on backend calls; a browser call only needs it to update the session.
    if (session && input.surface === 'server') features.browser_session = session;
    return {
      features,
      stable,
      event: eventVariables({ ...c, ip: input.ip, user_agent: input.userAgent, surface: input.surface }),
      ip: input.ip,
      session,
    };
  }

  /** After the decision is recorded: its outcome and, for a browser decision, the page session. */
  async afterRecord(
    input: ScoringInput,
    result: EngineResult,
    session: BrowserSession | null,
  ): Promise<void> {
    const f = result.features as unknown as Features;
    // The evidence risk: this decision's score without what it carried over (no feedback loop).
    const own = result.signals.filter((s) => !isCarriedRule(s.rule, CARRIED));
    const tokenId = f.token_id ?? '';
    await Promise.all([
      this.history.recordOutcome(input.site.id, result.device_id, result.risk_score, {
        tokenId,
        evidenceRisk: evidenceRisk(result.signals),
        previousToken: f.history?.token_recent_risk ?? 0,
        previousDevice: f.history?.device_recent_risk ?? 0,
      }),
      // The browser side of a page session, for the backend's /verify to carry.
      input.surface === 'browser' && tokenId !== ''
        ? rememberBrowserDecision(
            this.ctx.hotState,
            input.site.id,
            tokenId,
            browserEvidence(input.decisionId, own),
            session,
          )
        : undefined,
    ]);
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
