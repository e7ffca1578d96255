/** Shapes of the management API answers the dashboard reads (`data` of the envelope). */
import type { Plan, Role } from '../lib/permissions.ts';

// Answers the server defines as TypeScript types: imported for their types only (erased from the
// bundle), so they cannot drift from what the server sends.
export type { AuditView as AuditEntry } from '../../../server/src/audit/log.ts';
export type { EntitySummary } from '../../../server/src/entities/summary.ts';
export type { Cluster } from '../../../server/src/http/routes/clusters.ts';
export type { TopEntry } from '../../../server/src/overview/top-values.ts';
export type { LabelQuality, MatchedDecision } from '../../../server/src/rules/backtest-report.ts';
export type { RuleHits } from '../../../server/src/rules/hits.ts';
export type { CatalogueSignal } from '../../../server/src/scoring/signal-catalogue.ts';

import type { TopDimension, TopEntry } from '../../../server/src/overview/top-values.ts';
import type { BacktestResult as BacktestCounts } from '../../../server/src/rules/backtest.ts';
import type { BacktestReport } from '../../../server/src/rules/backtest-report.ts';
import type { RuleHits } from '../../../server/src/rules/hits.ts';

/** POST /api/rules/backtest: the counts, the matched decisions (one page) and each rule's label quality. */
export type BacktestResult = BacktestCounts & BacktestReport;

/** GET /api/stats/top */
export type TopValues = { siteId: string; from: string; to: string; previousFrom: string } & Record<
  TopDimension,
  TopEntry[]
>;

/** GET /api/rules/hits */
export interface RuleHitsAnswer {
  from: string;
  to: string;
  buckets: number;
  rules: Record<string, RuleHits>;
}

/** POST /api/rules/test */
export interface RuleTestResult {
  decisionId: string;
  rule: string;
  mode: 'live' | 'shadow';
  applies: boolean;
  matched: boolean;
  error: string | null;
  before: { score: number; level: string; classification: string; action: string };
  after: { score: number; level: string; classification: string; action: string };
  signals: Signal[];
}
export type { SsoConfigView as SsoConfig } from '../../../server/src/sso/config-store.ts';
export type { WorkspaceView as Workspace } from '../../../server/src/workspace/workspaces.ts';

import { ACTIONS, CLASSIFICATIONS, EVENT_TYPES } from '@warden/protocol/vocabulary';

export { ACTIONS, CLASSIFICATIONS, EVENT_TYPES };
export const LIST_KINDS = ['ip', 'email', 'email_domain', 'device_id', 'account_id', 'payment_hash'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export type Classification = (typeof CLASSIFICATIONS)[number];
export type Action = (typeof ACTIONS)[number];
export type ListKind = (typeof LIST_KINDS)[number];

export interface Membership {
  workspaceId: string;
  workspaceName: string;
  role: Role;
  plan: Plan;
}

export interface User {
  id: string;
  email: string;
  name: string;
  createdAt: string;
  memberships: Membership[];
}

export interface LoginResult {
  user: User;
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

export interface Site {
  id: string;
  workspaceId: string;
  name: string;
  siteKey: string;
  allowedOrigins: string[];
  settings: { powFloor?: number };
  createdAt: string;
  updatedAt: string;
}

export interface CreatedSite extends Site {
  siteId: string;
  secretKey: string;
}

export interface RotatedKeys {
  siteId: string;
  siteKey: string;
  secretKey: string;
  rotatedAt: string;
}

export interface Signal {
  rule: string;
  score: number;
  description: string;
}

export interface IdentitySummary {
  cluster_id: string;
  linked_accounts: number;
  shared_devices: number;
  shared_ips: number;
  shared_payments: number;
}

export interface DecisionSummary {
  id: string;
  siteId: string;
  eventType: string;
  accountId: string;
  email: string | null;
  ipAddress: string;
  userAgent: string;
  deviceId: string;
  paymentHash: string | null;
  promoCode: string | null;
  clusterId: string | null;
  riskScore: number;
  riskLevel: string;
  classification: Classification;
  action: Action;
  signals: Signal[];
  decisionMs: number;
  rulesetVersion: string;
  label: 'fraud' | 'legit' | null;
  labeledAt: string | null;
  createdAt: string;
}

export interface DecisionDetail extends DecisionSummary {
  orderAmount: number | null;
  /** On a /verify decision: the browser decision of the same submit it verified. */
  browserDecisionId: string | null;
  evidence: Record<string, unknown>;
  features: Record<string, unknown>;
  response: {
    risk_score: number;
    identity?: IdentitySummary;
    signals: Signal[];
    [key: string]: unknown;
  };
  /** When its evidence is (or was) dropped and when it is deleted (null: kept for ever). */
  retention: { evidenceUntil: string | null; keptUntil: string | null };
}

export interface DecisionPage {
  items: DecisionSummary[];
  nextCursor: string | null;
}

export interface Stats {
  siteId: string;
  from: string;
  to: string;
  total: number;
  byClassification: Record<string, number>;
  byAction: Record<string, number>;
  byEventType: Record<string, number>;
  /** Hours with decisions, counted by classification and (the same decisions) by action. */
  hourly: Array<{
    hour: string;
    total: number;
    human: number;
    suspicious: number;
    bot: number;
    allow: number;
    review: number;
    challenge: number;
    block: number;
  }>;
}

/** GET /api/clusters/{id} (SPEC §9). */

export interface Rule {
  id: string;
  siteId: string;
  name: string;
  description: string;
  enabled: boolean;
  mode: 'live' | 'shadow';
  eventTypes: EventType[];
  expression: string;
  score: number | null;
  action: Action | null;
  priority: number;
  createdAt: string;
  updatedAt: string;
}

export type RuleDraft = Omit<Rule, 'id' | 'siteId' | 'createdAt' | 'updatedAt'>;

export interface RuleStats {
  labeled: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  trueNegatives: number;
  precision: number | null;
  recall: number | null;
  matchesLast30Days: number;
  timeoutsLast30Days: number;
  from: string;
  to: string;
}

export interface List {
  id: string;
  siteId: string;
  name: string;
  kind: ListKind;
  type: 'allow' | 'block';
  size: number;
  entries: string[];
  createdAt: string;
  updatedAt: string;
}

export interface Member {
  userId: string;
  email: string;
  name: string;
  role: Role;
  joinedAt: string;
}

export interface Invitation {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
  expiresAt: string;
}

export interface InvitationPreview {
  email: string;
  role: Role;
  workspaceId: string;
  workspaceName: string;
  expiresAt: string;
}

export interface WebhookDelivery {
  id: string;
  decisionId: string;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastResponseBody: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookConfig {
  siteId: string;
  url: string | null;
  enabled: boolean;
  secret: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  deliveries: WebhookDelivery[];
}

export interface SsoUpdate {
  enabled: boolean;
  idpEntityId?: string;
  ssoUrl?: string;
  idpCertificate?: string;
  metadataXml?: string;
  metadataUrl?: string;
  defaultRole: Role;
  ssoRequired: boolean;
}

export interface AuditPage {
  items: import('../../../server/src/audit/log.ts').AuditView[];
  nextCursor: string | null;
}
