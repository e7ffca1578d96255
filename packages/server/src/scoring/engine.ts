import { issueChallenge } from '../challenge/index.ts';
import type { AppContext } from '../context.ts';
import { isRecord, type StableFingerprint } from '../fingerprint/device-id.ts';
import { applyCustomRules, eventVariables, isRuleSignal } from '../rules/apply.ts';
import { ruleBudget } from '../rules/budget.ts';
import { EMPTY_RULESET, type Ruleset } from '../rules/ruleset.ts';
import {
  type BrowserSession,
  isCarriedRule,
  readBrowserSession,
  rememberBrowserDecision,
} from './browser-session.ts';
import type { EngineResult, ScoringEngine, ScoringInput, Signal } from './engine-types.ts';
import { buildFeatures, type Features } from './features.ts';
import { History } from './history.ts';
import { IdentityClusters } from './identity.ts';
import { DEFAULT_FAMILIES, hardRules, isHardRule, rulesetVersion } from './ruleset.ts';
import { CARRIED, carryBrowserSession, carryRecentRisk, session } from './signals/session.ts';
import type { SignalFamily } from './signals/types.ts';

export interface EngineOptions {
  families?: readonly SignalFamily[];
  /** The process's identity clusters, shared with the cluster routes (default: a new one). */
  identity?: IdentityClusters;
}

/** Identity clusters are plan-gated: Pro, Enterprise and the demo workspace. */
export function identityAllowed(workspace: ScoringInput['workspace']): boolean {
  return workspace.demo || workspace.plan === 'pro' || workspace.plan === 'enterprise';
}

/**
 * The scoring engine (SPEC §2): features from the request and hot-state counters, signals from
 * each rule family (a throwing family fails open and is logged), the score as the clamped sum,
 * then level, classification and action. No database query on the hot path except the one-time
 * rebuild per site and process.
 */
export function createEngine(ctx: AppContext, options: EngineOptions = {}): ScoringEngine {
  const families = options.families ?? DEFAULT_FAMILIES;
  const hard = hardRules(families);
  const versions = new Map<string, string>();
  const versionOf = (custom: Ruleset): string => {
    let v = versions.get(custom.version);
    if (!v) {
      v = rulesetVersion(families, custom === EMPTY_RULESET ? '' : custom.version);
      if (versions.size > 1000) versions.clear();
      versions.set(custom.version, v);
    }
    return v;
  };
  // Load the offline ASN database in the background now, with this instance's settings.
  void ctx.services.ipIntel.ready();
  const history = new History(ctx);
  /** A browser decision's session as read when it was scored, for afterRecord (not recorded). */
  const previousSession = new WeakMap<EngineResult, BrowserSession>();
  const clusters = options.identity ?? new IdentityClusters(ctx);

  function evaluate(features: Features): Signal[] {
    const signals: Signal[] = [];
    for (const family of families) {
      try {
        for (const s of family.evaluate(features)) if (s.score !== 0) signals.push(s);
      } catch (err) {
        ctx.logger.error({ err, family: family.name }, 'signal family failed; skipped');
      }
    }
    if (families.includes(session)) {
      signals.push(...carryBrowserSession(features, signals));
      const carried = carryRecentRisk(features, signals);
      if (carried) signals.push(carried);
    }
    return signals;
  }

  return {
    async score(input: ScoringInput): Promise<EngineResult> {
      const c = input.request.context;
      const [{ features, stable }, custom] = await Promise.all([
        buildFeatures(input, history),
        ctx.services.rules.load(input.site.id),
      ]);
      const [identity, browserSession] = await Promise.all([
        identityAllowed(input.workspace)
          ? clusters.observe(input.site.id, {
              accountId: c.account_id,
              deviceId: features.device_id,
              paymentHash: c.payment_hash ?? '',
              ip: input.ip,
              at: input.now,
            })
          : undefined,
        readBrowserSession(ctx.hotState, input.site.id, features.token_id),
      ]);
      if (identity) features.identity = identity;
      // Recorded (and carried) on backend calls; a browser call only needs it to update the session.
      if (browserSession && input.surface === 'server') features.browser_session = browserSession;
      const defaults = evaluate(features);
      // Hard evidence carried from the browser session is hard here too (`carried_automation_webdriver`).
      const hardAutomation = defaults.some((s) => s.score > 0 && isHardRule(hard, s.rule));
      const featureRecord = features as unknown as Record<string, unknown>;
      const { custom: matches, ...decided } = applyCustomRules(
        custom,
        {
          eventType: c.event_type,
          event: eventVariables({ ...c, ip: input.ip, user_agent: input.userAgent, surface: input.surface }),
          features: featureRecord,
          signals: defaults,
          identity: identity as Record<string, unknown> | undefined,
          deviceId: features.device_id,
          ip: input.ip,
          hardAutomation,
        },
        ruleBudget(ctx.config.ruleTimeBudgetMs),
      );
      if (custom !== EMPTY_RULESET) featureRecord.custom_rules = matches;
      const result: EngineResult = {
        ...decided,
        device_id: features.device_id,
        ruleset_version: versionOf(custom),
        features: featureRecord,
        evidence: evidenceSummary(input, features, stable),
      };
      if (identity) result.identity = identity;
      if (browserSession && input.surface === 'browser') previousSession.set(result, browserSession);
      if (result.action === 'challenge') {
        result.challenge = {
          ...(await issueChallenge(ctx, input.site, {
            ip: input.ip,
            deviceId: features.device_id,
            risk: result.risk_score,
          })),
        };
      }
      return result;
    },

    /** Load the IP database and rebuild every site's velocity history now, not on first use. */
    async prepare(): Promise<void> {
      const sites = await ctx.database.db.selectFrom('sites').select('id').execute();
      const rebuilt = (async () => {
        for (const site of sites) await history.ensureRebuilt(site.id);
      })();
      await Promise.all([ctx.services.ipIntel.ready(), rebuilt]);
    },

    async afterRecord(input: ScoringInput, result: EngineResult): Promise<void> {
      try {
        const f = result.features as unknown as Features;
        // The evidence risk: this decision's score without what it carried over (no feedback loop).
        const own = result.signals.filter((s) => !isCarriedRule(s.rule, CARRIED));
        let evidence = 0;
        for (const s of own) evidence += s.score;
        const evidenceRisk = Math.min(100, Math.max(0, evidence));
        const tokenId = f.token_id ?? '';
        await Promise.all([
          history.recordOutcome(input.site.id, result.device_id, result.risk_score, {
            tokenId,
            evidenceRisk,
            previousToken: f.history?.token_recent_risk ?? 0,
            previousDevice: f.history?.device_recent_risk ?? 0,
          }),
          // The browser side of a page session, for the backend's /verify to carry.
          input.surface === 'browser' && tokenId !== ''
            ? rememberBrowserDecision(
                ctx.hotState,
                input.site.id,
                tokenId,
                browserEvidence(input.decisionId, own),
                previousSession.get(result) ?? null,
              )
            : undefined,
        ]);
      } catch (err) {
        ctx.logger.warn({ err }, 'engine afterRecord failed');
      }
    },
  };
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

/** The normalised evidence recorded with the decision (no raw samples). */
function evidenceSummary(
  input: ScoringInput,
  f: Features,
  stable: StableFingerprint,
): Record<string, unknown> {
  const env = isRecord(input.request.environment) ? input.request.environment : {};
  return {
    device: {
      id: f.device_id,
      source: f.device_source,
      token: f.token,
      stable_attributes: f.stable_attributes,
    },
    fingerprint: stable,
    environment: {
      sdk_version: typeof env.sdk_version === 'string' ? env.sdk_version : null,
      webdriver: f.webdriver,
      webdriver_defined: f.webdriver_defined,
      automation_artifacts: f.automation_artifacts,
      headless_markers: f.headless_markers,
      cdp: f.cdp,
      tampered_functions: f.tampered_functions,
      worker_mismatch: f.worker_mismatch,
      clock_skew_ms: f.clock_skew_ms,
      nonce: f.nonce,
      pow: f.pow,
    },
    behavior: f.behavior,
  };
}
