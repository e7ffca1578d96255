import { performance } from 'node:perf_hooks';
import type { Decision } from '@warden/protocol';
import type { Logger } from 'pino';
import { timeOrderedId } from '../decisions/decision-id.ts';
import type { DecisionLog } from '../decisions/decision-log.ts';
import type { RemoteCommit } from '../decisions/decision-writer.ts';
import { type DecisionRecord, packDecision } from '../decisions/packed-row.ts';
import { signalsColumn } from '../decisions/signals-column.ts';
import type { ServiceMetrics } from '../metrics.ts';
import type { RuledDecision } from '../rules/apply.ts';
import { linkedBrowserDecision } from '../scoring/browser-session.ts';
import type {
  DecisionTimeline,
  EngineResult,
  ScoringEngine,
  ScoringInput,
  ScoringRequest,
} from '../scoring/engine-types.ts';
import { admit, type ScoringRateLimit } from '../state/rate-limit.ts';
import type { IdempotencyKeysTable } from '../storage/scoring-schema.ts';
import type { StorageSpace } from '../storage/storage-space.ts';
import type { ScoringSite, Surface } from '../workspace/scoring-sites.ts';
import {
  beginIdempotent,
  bodyHashOf,
  type IdempotencyDeps,
  type IdempotencyRoute,
  idempotencyInProgress,
  type OwnedKey,
  recordedKey,
} from './idempotency.ts';

/**
 * What scoring and recording an event use, in the shape of the process's context (which the routes
 * pass as it is): the clock, the idempotency claim, the decision log (or, in a `serve --workers`
 * worker, the primary's commit), the storage-space flag and the decision metrics.
 */
export interface RecordDeps extends IdempotencyDeps {
  now(): number;
  readonly logger: Pick<Logger, 'warn'>;
  readonly worker?: { readonly commit?: RemoteCommit | undefined } | undefined;
  readonly services: {
    readonly decisions: Pick<DecisionLog, 'record'>;
    readonly storage: Pick<StorageSpace, 'markWritable'>;
    readonly metrics: Pick<ServiceMetrics, 'decision' | 'ruleHits'>;
  };
}

/**
 * One scoring event from validated request to durable decision: idempotency claim → engine →
 * one transaction (decision row + idempotency completion + webhook outbox) → answer.
 * The decision is committed before the response is sent.
 */
export interface ScoreEventInput {
  site: ScoringSite;
  surface: Surface;
  /** Idempotency scope: batch items share it with their single route. */
  route: IdempotencyRoute;
  /** The validated body (or batch item) exactly as received: hashed for idempotency. */
  body: ScoringRequest;
  /** Observed client IP and user agent (browser routes); ignored on server routes. */
  observedIp: string;
  observedUserAgent: string;
  /**
   * The request's rate limit, checked by the engine (`checksLimit`) with its first step on shared
   * state: the single-event routes' when the request claims no idempotency key.
   */
  limit?: ScoringRateLimit;
  /** Where the request's stages are timed (the single-event routes; engine-types.ts). */
  timeline?: DecisionTimeline;
}

export interface ScoreEventResult {
  replayed: boolean;
  decision: Decision;
  /** The quota headers of `limit` (it let the request through). */
  limitHeaders?: Record<string, string>;
}

/** A header from the request's `headers` map (names compared case-insensitively), if sent. */
function sentHeader(headers: Record<string, string> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  for (const key in headers) if (key.toLowerCase() === name) return headers[key];
  return undefined;
}

/**
 * The request the engine sees. Browser routes: `login_succeeded` removed, IP and user agent
 * replaced by what the service observed. Server routes: the caller's trusted context as sent; the
 * user agent, when the context has none, from the `User-Agent` in the `headers` the caller observed.
 */
export function engineRequest(input: ScoreEventInput): {
  request: ScoringRequest;
  ip: string;
  userAgent: string;
} {
  const { body } = input;
  if (input.surface === 'server') {
    const userAgent = body.context.user_agent ?? sentHeader(body.headers, 'user-agent') ?? '';
    return { request: body, ip: body.context.ip_address ?? '', userAgent };
  }
  const { login_succeeded: _claimed, ...context } = body.context;
  const request: ScoringRequest = {
    ...body,
    context: { ...context, ip_address: input.observedIp, user_agent: input.observedUserAgent },
  };
  return { request, ip: input.observedIp, userAgent: input.observedUserAgent };
}

export function decisionData(id: string, result: EngineResult, decisionMs: number, now: number): Decision {
  return {
    classification: result.classification,
    risk_score: result.risk_score,
    risk_level: result.risk_level,
    action: result.action,
    request_id: id,
    device_id: result.device_id,
    signals: result.signals,
    ...(result.identity ? { identity: result.identity } : {}),
    ...(result.challenge ? { challenge: result.challenge as NonNullable<Decision['challenge']> } : {}),
    decision_ms: decisionMs,
    timestamp: new Date(now).toISOString(),
    ruleset_version: result.ruleset_version,
    idempotent_replay: false,
  };
}

export function decisionRow(input: ScoringInput, result: EngineResult, data: Decision): DecisionRecord {
  const context = input.request.context;
  const signals = signalsColumn(result.signals);
  const columns = {
    id: input.decisionId,
    site_id: input.site.id,
    workspace_id: input.workspace.id,
    event_type: context.event_type,
    account_id: context.account_id,
    email: context.email ?? null,
    ip_address: input.ip,
    user_agent: input.userAgent,
    device_id: result.device_id,
    payment_hash: context.payment_hash ?? null,
    promo_code: context.promo_code ?? null,
    order_amount: context.order_amount ?? null,
    risk_score: result.risk_score,
    risk_level: result.risk_level,
    classification: result.classification,
    action: result.action,
    signals: signals.json,
    ruleset_version: result.ruleset_version,
    decision_ms: data.decision_ms,
    label: null,
    labeled_at: null,
    created_at: input.now,
    cluster_id: result.identity?.cluster_id ?? null,
    browser_decision_id: linkedBrowserDecision(result.features),
  };
  const parts = packDecision(columns, {
    features: result.features,
    evidence: result.evidence,
    ruleInput: result.rule_input ?? null,
    answer: data as unknown as Record<string, unknown>,
    signals,
  });
  // The parts added to `columns` itself rather than both spread into a third object: measured
  // with `npm run bench:alloc -- --survivors --rate 475`, the spread row outlived a scavenge almost
  // every time (4.7 KB per decision, 30 % of the main thread's survivors, ~1–1.5 KB objects made by
  // the spread) and with this none of it does (docs/performance.md, round 4). Same keys, same order.
  return Object.assign(columns, parts);
}

/**
 * Record the decision and, once it is durable, remember its outcome in hot state (risky devices,
 * recent risk, the browser session). In one process the engine applies its outcome itself, to the
 * hot state it read (`afterRecord`); a `serve --workers` worker on the embedded default hands the
 * outcome's writes, as data, to the primary with the commit (one message, cluster/owner.ts).
 */
async function recordWithOutcome(
  ctx: RecordDeps,
  engine: ScoringEngine,
  input: ScoringInput,
  result: EngineResult,
  row: DecisionRecord,
  key: IdempotencyKeysTable | undefined,
): Promise<boolean> {
  const onPrimary = ctx.worker?.commit;
  const { timeline } = input;
  if (timeline) timeline.queued = performance.now();
  // Decision row + outbox row + the idempotency key row in one transaction (decision-writer.ts);
  // false: the key was taken by another decision meanwhile, and nothing was written.
  const recorded = await (onPrimary
    ? onPrimary(row, key, engine.outcome?.(input, result) ?? [])
    : ctx.services.decisions.record(row, key, result.signals));
  if (timeline) timeline.committed = performance.now();
  if (onPrimary || !recorded) return recorded;
  ctx.services.storage.markWritable();
  if (engine.afterRecord) {
    try {
      await engine.afterRecord(input, result);
    } catch (err) {
      ctx.logger.warn({ err, decisionId: row.id }, 'decision outcome not remembered');
    }
  }
  return true;
}

function replayed(response: string): ScoreEventResult {
  const recorded = JSON.parse(response) as Decision;
  return { replayed: true, decision: { ...recorded, idempotent_replay: true } };
}

/** The recorded decision in the service metrics: decision, engine time, custom rule matches. */
function countDecision(
  ctx: RecordDeps,
  surface: Surface,
  eventType: string,
  result: EngineResult,
  ms: number,
) {
  const metrics = ctx.services.metrics;
  metrics.decision(
    surface,
    { event_type: eventType, classification: result.classification, action: result.action },
    ms / 1000,
  );
  const custom = (result.features as { custom_rules?: RuledDecision['custom'] }).custom_rules;
  if (custom) metrics.ruleHits(custom.matched.length, custom.shadow.length);
}

export async function scoreAndRecord(
  ctx: RecordDeps,
  engine: ScoringEngine,
  input: ScoreEventInput,
): Promise<ScoreEventResult> {
  const siteId = input.site.site.id;
  const now = ctx.now();
  const decisionId = timeOrderedId(now);
  let owned: OwnedKey | undefined;
  const key = input.body.idempotency_key;
  const scope = key === undefined ? undefined : { siteId, route: input.route, key };
  const bodyHash = scope ? bodyHashOf(input.body) : undefined;
  if (scope && bodyHash) {
    const outcome = await beginIdempotent(ctx, scope, bodyHash, decisionId, now);
    if (outcome.kind === 'replay') return replayed(outcome.response);
    owned = outcome.key;
  }
  try {
    const recorded = await scoreAndWrite(ctx, engine, input, decisionId, now, owned?.row);
    if (recorded) return recorded;
    // The key went to another decision meanwhile (processes without a shared hot state, or our
    // lock expired): answer as a request that came second.
    const winner =
      scope && bodyHash ? await recordedKey(ctx.database.db, scope, bodyHash, ctx.now()) : undefined;
    if (winner) return replayed(winner.response);
    throw idempotencyInProgress();
  } finally {
    await owned?.release();
  }
}

/** Score and record; null when `key` was taken meanwhile (nothing recorded). */
async function scoreAndWrite(
  ctx: RecordDeps,
  engine: ScoringEngine,
  input: ScoreEventInput,
  decisionId: string,
  now: number,
  key: IdempotencyKeysTable | undefined,
): Promise<ScoreEventResult | null> {
  const { request, ip, userAgent } = engineRequest(input);
  const scoringInput: ScoringInput = {
    site: input.site.site,
    workspace: input.site.workspace,
    surface: input.surface,
    request,
    ip,
    userAgent,
    decisionId,
    now,
  };
  if (input.limit) scoringInput.limit = input.limit;
  if (input.timeline) scoringInput.timeline = input.timeline;
  const started = performance.now();
  const result = await engine.score(scoringInput);
  if (input.timeline) input.timeline.decided = performance.now();
  const decisionMs = Math.round((performance.now() - started) * 1000) / 1000;
  const decision = decisionData(scoringInput.decisionId, result, decisionMs, now);
  const row = decisionRow(scoringInput, result, decision);
  if (!(await recordWithOutcome(ctx, engine, scoringInput, result, row, key))) return null;
  countDecision(ctx, input.surface, request.context.event_type, result, decisionMs);
  const scored: ScoreEventResult = { replayed: false, decision };
  if (input.limit && result.admitted) scored.limitHeaders = admit(input.limit, result.admitted);
  return scored;
}
