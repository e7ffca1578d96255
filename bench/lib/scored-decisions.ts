/**
 * Decisions as a real engine scores them (a test context, one Pro site), for the benchmarks of
 * what is stored: the columns and JSON parts `packDecision` takes (bench/packed-row.ts,
 * bench/writer.ts --packed).
 */
import type { packDecision } from '../../packages/server/src/decisions/packed-row.ts';
import { signalsColumn } from '../../packages/server/src/decisions/signals-column.ts';
import { decisionData } from '../../packages/server/src/pipeline/record.ts';
import { createTestWorkspace } from '../../packages/server/src/testing/accounts.ts';
import { createTestContext } from '../../packages/server/src/testing/context.ts';

export interface ScoredDecision {
  columns: Parameters<typeof packDecision>[0] & { workspace_id: string };
  parts: Parameters<typeof packDecision>[1];
}

/** A scoring context; `close` when done. */
export async function scoringContext() {
  const ctx = await createTestContext();
  const w = await createTestWorkspace(ctx, { plan: 'pro' });
  return { ctx, w, close: () => ctx.database.close() };
}

/** `count` decisions of the /verify bodies `body(n)`, scored in `scoring`. */
export async function scoredDecisions(
  scoring: Awaited<ReturnType<typeof scoringContext>>,
  body: (n: number) => string,
  count: number,
): Promise<ScoredDecision[]> {
  const { ctx, w } = scoring;
  const scored: ScoredDecision[] = [];
  for (let n = 0; n < count; n++) {
    const request = JSON.parse(body(n));
    const now = Date.now();
    const result = await ctx.services.engine.score({
      ctx,
      site: w.site as never,
      workspace: { id: w.workspaceId } as never,
      surface: 'server',
      request,
      ip: request.context.ip_address,
      userAgent: request.context.user_agent,
      decisionId: crypto.randomUUID(),
      now,
    } as never);
    const answer = decisionData(crypto.randomUUID(), result, 1.234, now);
    const signals = signalsColumn(result.signals);
    const columns = {
      id: answer.request_id,
      classification: result.classification,
      risk_score: result.risk_score,
      risk_level: result.risk_level,
      action: result.action,
      device_id: result.device_id,
      signals: signals.json,
      decision_ms: answer.decision_ms,
      created_at: now,
      ruleset_version: result.ruleset_version,
      account_id: request.context.account_id,
      email: request.context.email ?? null,
      ip_address: request.context.ip_address,
      user_agent: request.context.user_agent,
      payment_hash: request.context.payment_hash ?? null,
      promo_code: request.context.promo_code ?? null,
      cluster_id: result.identity?.cluster_id ?? null,
      workspace_id: w.workspaceId,
    };
    const parts = {
      features: result.features,
      evidence: result.evidence,
      ruleInput: result.rule_input ?? null,
      answer: answer as unknown as Record<string, unknown>,
      signals,
    };
    scored.push({ columns, parts });
  }
  return scored;
}
