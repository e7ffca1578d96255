/**
 * Shapes of the management API answers the dashboard reads (`data` of the envelope): the contract's
 * own types (`@warden/protocol/management`, imported for their types only and erased from the
 * bundle), so they cannot drift from what the server validates and sends.
 */
import type { ListKind } from '@warden/protocol/management';
import { ACTIONS, CLASSIFICATIONS, EVENT_TYPES } from '@warden/protocol/vocabulary';

export type { IdentitySummary, Signal } from '@warden/protocol';
export type {
  AuditEntry,
  AuditPage,
  BacktestResult,
  CatalogueSignal,
  Cluster,
  CreatedSite,
  DecisionDetail,
  DecisionPage,
  DecisionSummary,
  EntitySummary,
  Invitation,
  InvitationPreview,
  LabelQuality,
  List,
  ListKind,
  LoginResult,
  MatchedDecision,
  Member,
  Membership,
  RotatedKeys,
  Rule,
  RuleDraft,
  RuleHits,
  RuleHitsAnswer,
  RuleStats,
  RuleTestResult,
  Site,
  SsoConfigView as SsoConfig,
  SsoUpdate,
  Stats,
  TopEntry,
  TopValues,
  User,
  WebhookConfig,
  WebhookDelivery,
  Workspace,
} from '@warden/protocol/management';

export { ACTIONS, CLASSIFICATIONS, EVENT_TYPES };
// The list kinds as a run-time value: a copy checked against the contract's (TypeBox stays out of
// the bundle, and `management` imports it), so a kind added there fails this line's type check.
export const LIST_KINDS = [
  'ip',
  'email',
  'email_domain',
  'device_id',
  'account_id',
  'payment_hash',
] as const satisfies readonly ListKind[];
export type EventType = (typeof EVENT_TYPES)[number];
export type Classification = (typeof CLASSIFICATIONS)[number];
export type Action = (typeof ACTIONS)[number];
