/** Shapes of the management API answers the dashboard reads (`data` of the envelope). */
import type { Plan, Role } from '../lib/permissions.ts';

export const EVENT_TYPES = ['signup', 'login', 'promo_claim', 'checkout', 'page_view'] as const;
export const CLASSIFICATIONS = ['human', 'suspicious', 'bot'] as const;
export const ACTIONS = ['allow', 'review', 'challenge', 'block'] as const;
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

export interface Workspace {
  id: string;
  name: string;
  plan: Plan;
  demo: boolean;
  role: Role;
  createdAt: string;
  updatedAt: string;
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
  paymentHash: string | null;
  promoCode: string | null;
  orderAmount: number | null;
  evidence: Record<string, unknown>;
  features: Record<string, unknown>;
  response: {
    risk_score: number;
    identity?: IdentitySummary;
    signals: Signal[];
    [key: string]: unknown;
  };
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
export interface Cluster {
  id: string;
  siteId?: string;
  accounts: string[];
  devices: string[];
  ips: string[];
  paymentHashes: string[];
  [key: string]: unknown;
}

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
}

export interface OutcomeCounts {
  actions: Record<string, number>;
  levels: Record<string, number>;
  classifications: Record<string, number>;
}

export interface BacktestResult {
  evaluated: number;
  from: string;
  to: string;
  truncated: boolean;
  matches: Record<string, number>;
  before: OutcomeCounts;
  after: OutcomeCounts;
  changed: number;
  transitions: Record<string, number>;
  examples: Array<{
    decisionId: string;
    eventType: string;
    accountId: string;
    createdAt: string;
    before: { score: number; level: string; action: string };
    after: { score: number; level: string; action: string };
    matchedRules: string[];
  }>;
  durationMs: number;
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

export interface SsoConfig {
  workspaceId: string;
  configured: boolean;
  enabled: boolean;
  idpEntityId: string | null;
  ssoUrl: string | null;
  idpCertificate: string | null;
  defaultRole: Role;
  ssoRequired: boolean;
  updatedAt: string | null;
  sp: { entityId: string; acsUrl: string; metadataUrl: string; loginUrl: string };
}

export interface SsoUpdate {
  enabled: boolean;
  idpEntityId?: string;
  ssoUrl?: string;
  idpCertificate?: string;
  metadataXml?: string;
  defaultRole: Role;
  ssoRequired: boolean;
}
