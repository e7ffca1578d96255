/** Roles, the permission matrix and the plan gates of SPEC §6: the one place they are decided. The server
 * enforces them; the dashboard reads the same matrix to hide and disable controls. No imports, so a
 * browser bundle can take it (`@warden/protocol/permissions`). */
export type Role = 'owner' | 'analyst' | 'viewer';
export type Plan = 'free' | 'pro' | 'enterprise';

export type Operation =
  | 'read' // sites (no secrets), decisions, clusters, rules, lists, stats
  | 'site.update' // PATCH site: name, allowedOrigins, settings
  | 'rules.write' // create/update/delete rules and lists, backtest
  | 'decisions.label'
  | 'site.create'
  | 'site.rotate_keys'
  | 'webhooks.manage'
  | 'sso.manage'
  | 'members.manage' // list, add, change, remove members
  | 'audit.read'; // the audit log (SPEC §11: owners and analysts)

const MATRIX: Record<Operation, readonly Role[]> = {
  read: ['owner', 'analyst', 'viewer'],
  'site.update': ['owner', 'analyst'],
  'rules.write': ['owner', 'analyst'],
  'decisions.label': ['owner', 'analyst'],
  'site.create': ['owner'],
  'site.rotate_keys': ['owner'],
  'webhooks.manage': ['owner'],
  'sso.manage': ['owner'],
  'members.manage': ['owner'],
  'audit.read': ['owner', 'analyst'],
};

export const ROLES: readonly Role[] = ['owner', 'analyst', 'viewer'];
export const OPERATIONS = Object.keys(MATRIX) as Operation[];

export function can(role: Role, operation: Operation): boolean {
  return MATRIX[operation].includes(role);
}

export type Feature = 'identity' | 'webhooks' | 'sso';

const FEATURE_PLANS: Record<Feature, readonly Plan[]> = {
  identity: ['pro', 'enterprise'],
  webhooks: ['pro', 'enterprise'],
  sso: ['enterprise'],
};

/** The plans that include `feature` (the demo workspace has every feature whatever its plan). */
export function plansWith(feature: Feature): readonly Plan[] {
  return FEATURE_PLANS[feature];
}

/** Plan gates; the demo workspace is exempt from all of them. */
export function planAllows(workspace: { plan: Plan; demo: boolean }, feature: Feature): boolean {
  return workspace.demo || FEATURE_PLANS[feature].includes(workspace.plan);
}
