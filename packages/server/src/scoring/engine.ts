import type { Logger } from 'pino';
import type { ChallengeDescriptor } from '../challenge/types.ts';
import { isRecord, type StableFingerprint } from '../fingerprint/device-id.ts';
import { ruleBudget } from '../rules/budget.ts';
import { EMPTY_RULESET, type Ruleset } from '../rules/ruleset.ts';
import { type HotState, isPromise } from '../state/hot-state.ts';
import { applyWrites, type HotStateWrite } from '../state/writes.ts';
import type { SitesTable } from '../storage/schema.ts';
import type { BrowserSession } from './browser-session.ts';
import { decide } from './decide-event.ts';
import type { EngineResult, ScoringEngine, ScoringInput } from './engine-types.ts';
import type { FeatureDeps, Features } from './features.ts';
import { Observer } from './observe.ts';
import { storedRuleInput } from './rule-input.ts';
import { DEFAULT_FAMILIES, hardRules, rulesetVersion } from './ruleset.ts';
import type { SharedState } from './shared-state.ts';
import type { SignalFamily } from './signals/types.ts';

export { identityAllowed } from './observe.ts';

export interface EngineOptions {
  families?: readonly SignalFamily[];
}

/** A site's custom rules and lists (rules/store.ts): at once, no promise, when they are cached. */
export interface RuleSource {
  load(siteId: string): Ruleset | Promise<Ruleset>;
}

/** A proof-of-work challenge for an event the engine decided to challenge (challenge/index.ts). */
export interface ChallengeIssuer {
  issue(
    site: SitesTable,
    options: { ip: string; deviceId: string; risk: number },
  ): Promise<ChallengeDescriptor>;
}

/**
 * Everything the engine is built from, and all it reaches: assembled by the composition root
 * (services.ts `engineDeps`) from the process's services. With the request (`ScoringInput`) this is
 * the engine's whole world: no context, no database.
 */
export interface EngineDeps extends FeatureDeps {
  /** The site's custom rules and lists. */
  readonly rules: RuleSource;
  /** Where observe counts and claims: this process's (LocalSharedState) or the primary's. */
  readonly shared: SharedState;
  /** Where `afterRecord` applies the outcome's writes: the hot state `shared` reads in one process. */
  readonly hotState: Pick<HotState, 'hit' | 'set'>;
  readonly challenges: ChallengeIssuer;
  /** The time budget of one event's custom rules (config `ruleTimeBudgetMs`). */
  readonly ruleTimeBudgetMs: number;
  readonly logger: Pick<Logger, 'error' | 'warn'>;
}

/**
 * The scoring engine (SPEC §2), in two parts: observe (observe.ts: features from the request and
 * hot-state counters, nonce and proof use, identity clusters, browser session; the only part with
 * state) and the pure decide (decide-event.ts: signals of each rule family, lists and custom rules,
 * score, level, classification and action). The rule input decide used is recorded with the
 * decision (rule-input.ts). No database query on the hot path except the one-time rebuild per
 * site and process.
 */
export function createEngine(deps: EngineDeps, options: EngineOptions = {}): ScoringEngine {
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
  void deps.ipIntel.ready();
  // This process's shared state, or (a `serve --workers` worker) the primary's, one message per event.
  const { shared } = deps;
  const observer = new Observer(shared, deps);
  /** A browser decision's session as read when it was scored, for its outcome (not recorded). */
  const previousSession = new WeakMap<EngineResult, BrowserSession>();

  const outcome = (input: ScoringInput, result: EngineResult): HotStateWrite[] =>
    observer.outcome(input, result, previousSession.get(result) ?? null);

  return {
    checksLimit: true,

    async score(input: ScoringInput): Promise<EngineResult> {
      // The rule set is cached (no promise) for every decision but a site's first in the process.
      const rules = deps.rules.load(input.site.id);
      const [observed, custom] = isPromise(rules)
        ? await Promise.all([observer.observe(input, input.limit), rules])
        : [await observer.observe(input, input.limit), rules];
      if (input.timeline) input.timeline.observed = performance.now();
      const { decision, features, ruleInput, failures } = decide(observed, {
        families,
        hard,
        custom,
        budget: ruleBudget(deps.ruleTimeBudgetMs),
      });
      for (const { err, family } of failures)
        deps.logger.error({ err, family }, 'signal family failed; skipped');
      const identity = observed.features.identity;
      // The decision's fields named, not `{ custom, ...decided }` spread again: the rest and spread
      // objects outlived a scavenge for nearly every decision (`npm run bench:alloc -- --survivors
      // --rate 475`: 2.3 KB per decision; docs/performance.md, round 4). Same keys, same order.
      const result: EngineResult = {
        signals: decision.signals,
        risk_score: decision.risk_score,
        risk_level: decision.risk_level,
        classification: decision.classification,
        action: decision.action,
        device_id: observed.features.device_id,
        ruleset_version: versionOf(custom),
        features,
        evidence: evidenceSummary(input, observed.features, observed.stable),
        rule_input: storedRuleInput(ruleInput),
      };
      if (identity) result.identity = identity;
      if (observed.admitted) result.admitted = observed.admitted;
      if (observed.session && input.surface === 'browser') previousSession.set(result, observed.session);
      if (result.action === 'challenge') {
        result.challenge = {
          ...(await deps.challenges.issue(input.site, {
            ip: input.ip,
            deviceId: observed.features.device_id,
            risk: result.risk_score,
          })),
        };
      }
      return result;
    },

    /** Load the IP database and rebuild every site's velocity history now, not on first use. */
    async prepare(): Promise<void> {
      await Promise.all([deps.ipIntel.ready(), shared.prepare()]);
    },

    outcome,

    async afterRecord(input: ScoringInput, result: EngineResult): Promise<void> {
      try {
        await applyWrites(deps.hotState, outcome(input, result));
      } catch (err) {
        deps.logger.warn({ err }, 'engine afterRecord failed');
      }
    },
  };
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
