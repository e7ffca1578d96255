import type { DecisionDetail, DecisionSummary } from '@warden/protocol/management';
import type { RetentionSettings } from '../../decisions/retention.ts';
import type { LabelResolver } from '../../entities/label-resolver.ts';
import type { DecisionsTable } from '../../storage/scoring-schema.ts';

/** The decision views of the read API (schemas: `@warden/protocol/management`), built from stored rows. */

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(Number(ms)).toISOString();
}

export const SUMMARY_COLUMNS = [
  'id',
  'site_id',
  'event_type',
  'account_id',
  'email',
  'ip_address',
  'user_agent',
  'device_id',
  'payment_hash',
  'promo_code',
  'cluster_id',
  'risk_score',
  'risk_level',
  'classification',
  'action',
  'signals',
  'decision_ms',
  'ruleset_version',
  'label',
  'labeled_at',
  'created_at',
] as const satisfies ReadonlyArray<keyof DecisionsTable>;

export type SummaryRow = Pick<DecisionsTable, (typeof SUMMARY_COLUMNS)[number]>;

/** What a view needs of the site's entity labels (entities/label-resolver.ts). */
export type EntityLabels = Pick<LabelResolver, 'entityLabelOf'>;

export function decisionSummary(row: SummaryRow, labels: EntityLabels): DecisionSummary {
  const own = row.label as DecisionSummary['label'];
  const entity = labels.entityLabelOf(row);
  return {
    id: row.id,
    siteId: row.site_id,
    eventType: row.event_type,
    accountId: row.account_id,
    email: row.email,
    ipAddress: row.ip_address,
    userAgent: row.user_agent,
    deviceId: row.device_id,
    paymentHash: row.payment_hash,
    promoCode: row.promo_code,
    clusterId: row.cluster_id ?? null,
    riskScore: Number(row.risk_score),
    riskLevel: row.risk_level as DecisionSummary['riskLevel'],
    classification: row.classification as DecisionSummary['classification'],
    action: row.action as DecisionSummary['action'],
    signals: JSON.parse(row.signals) as DecisionSummary['signals'],
    decisionMs: Number(row.decision_ms),
    rulesetVersion: row.ruleset_version,
    label: own,
    labeledAt: iso(row.labeled_at),
    createdAt: iso(row.created_at) as string,
    entityLabel: entity && { ...entity, labeledAt: iso(entity.labeledAt) as string },
    effectiveLabel: own ?? entity?.label ?? null,
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function decisionDetail(
  row: DecisionsTable,
  retention: RetentionSettings,
  labels: EntityLabels,
): DecisionDetail {
  const after = (days: number | null) => (days === null ? null : iso(Number(row.created_at) + days * DAY_MS));
  return {
    ...decisionSummary(row, labels),
    orderAmount: row.order_amount === null ? null : Number(row.order_amount),
    browserDecisionId: row.browser_decision_id ?? null,
    evidence: JSON.parse(row.evidence) as Record<string, unknown>,
    features: JSON.parse(row.features) as Record<string, unknown>,
    response: JSON.parse(row.response) as DecisionDetail['response'],
    retention: { evidenceUntil: after(retention.evidenceDays), keptUntil: after(retention.decisionDays) },
  };
}
