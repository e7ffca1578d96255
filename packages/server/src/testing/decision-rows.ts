import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { insertDecisionRows } from '../decisions/decision-insert.ts';
import type { DecisionsTable } from '../storage/scoring-schema.ts';

/**
 * Recorded decisions written straight to the database, for read-side tests (search, export,
 * entity summaries) that need exact values: every column has a plain default.
 */
export type DecisionRow = Partial<Omit<DecisionsTable, 'signals' | 'features'>> & {
  signals?: Array<{ rule: string; score: number; description?: string }>;
  features?: Record<string, unknown>;
};

export async function insertDecisions(
  ctx: AppContext,
  site: { id: string; workspaceId: string },
  rows: DecisionRow[],
  start = Date.UTC(2026, 0, 1),
): Promise<DecisionsTable[]> {
  const written = rows.map((r, i): DecisionsTable => {
    const signals = (r.signals ?? []).map((s) => ({ description: `${s.rule}.`, ...s }));
    const score =
      r.risk_score ??
      Math.min(
        100,
        Math.max(
          0,
          signals.reduce((a, s) => a + s.score, 0),
        ),
      );
    return {
      id: r.id ?? randomUUID(),
      site_id: site.id,
      workspace_id: site.workspaceId,
      event_type: r.event_type ?? 'login',
      account_id: r.account_id ?? 'acct',
      email: r.email ?? null,
      ip_address: r.ip_address ?? '198.51.100.1',
      user_agent: r.user_agent ?? 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0.0.0 Safari/537.36',
      device_id: r.device_id ?? '',
      payment_hash: r.payment_hash ?? null,
      promo_code: r.promo_code ?? null,
      order_amount: r.order_amount ?? null,
      risk_score: score,
      risk_level:
        r.risk_level ?? (score < 30 ? 'low' : score < 60 ? 'medium' : score < 85 ? 'high' : 'critical'),
      classification: r.classification ?? (score < 30 ? 'human' : score < 85 ? 'suspicious' : 'bot'),
      action: r.action ?? (score < 30 ? 'allow' : score < 60 ? 'review' : score < 85 ? 'challenge' : 'block'),
      signals: JSON.stringify(signals),
      features: JSON.stringify(r.features ?? {}),
      evidence: r.evidence ?? '{}',
      response: r.response ?? '{}',
      ruleset_version: r.ruleset_version ?? 'default',
      decision_ms: r.decision_ms ?? 1,
      label: r.label ?? null,
      labeled_at: r.labeled_at ?? null,
      created_at: r.created_at ?? start + i * 60_000,
      cluster_id: r.cluster_id ?? null,
      rule_input: r.rule_input ?? null,
    };
  });
  for (const row of written) await insertDecisionRows(ctx.database.db, [row]);
  return written;
}
