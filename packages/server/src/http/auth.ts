import { can, type Feature, type Operation, planAllows, type Role } from '@warden/protocol/permissions';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import type { Database } from '../storage/db.ts';
import type { SitesTable, WorkspacesTable } from '../storage/schema.ts';
import { sessionIsActive } from '../workspace/sessions.ts';
import { findSite } from '../workspace/sites.ts';
import { type Principal, verifyAccessToken } from '../workspace/tokens.ts';
import { workspaceOfMember } from '../workspace/workspaces.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

/**
 * What the access checks read: the instance secret (access tokens), the clock, and the database
 * (sessions, memberships, sites; queried by workspace/).
 */
export interface AuthDeps {
  readonly secret: string;
  now(): number;
  readonly database: Pick<Database, 'db'>;
}

/**
 * onRequest hook for management routes: a valid, unrevoked bearer token or 401 `unauthorized`.
 * Runs before the body is even read (SPEC §10: 401 first, also before 413, 415 and invalid_json).
 */
export function authenticate(ctx: AuthDeps) {
  return async (request: FastifyRequest): Promise<void> => {
    const header = request.headers.authorization;
    const match = header?.match(/^Bearer\s+(\S+)$/i);
    if (!match) throw new ApiError('unauthorized', 'Send Authorization: Bearer <access token>.');
    const principal = await verifyAccessToken(ctx.secret, match[1]!, ctx.now());
    if (!principal)
      throw new ApiError('unauthorized', 'The access token is invalid or expired; sign in again.');
    if (!(await sessionIsActive(ctx.database.db, principal.sessionId))) {
      throw new ApiError('unauthorized', 'The session has ended; sign in again.');
    }
    request.principal = principal;
  };
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new ApiError('unauthorized', 'Not signed in.');
  return request.principal;
}

export interface WorkspaceAccess {
  workspace: Omit<WorkspacesTable, 'demo'> & { demo: boolean };
  role: Role;
}

/**
 * The caller's access to a workspace: 404 when not a member (no existence leak), 403 when the
 * token is scoped to another workspace or the role does not allow `operation`.
 */
export async function requireWorkspace(
  ctx: AuthDeps,
  principal: Principal,
  workspaceId: string,
  operation: Operation,
): Promise<WorkspaceAccess> {
  const row = await workspaceOfMember(ctx.database.db, principal.userId, workspaceId);
  if (!row) throw new ApiError('not_found', 'Workspace not found.');
  if (principal.workspaceScope !== null && principal.workspaceScope !== workspaceId) {
    throw new ApiError('forbidden', 'This single sign-on session is limited to another workspace.');
  }
  const { role, ...workspace } = row;
  if (!can(role, operation))
    throw new ApiError('forbidden', `The ${role} role cannot do this (${operation}).`);
  return { workspace: { ...workspace, demo: workspace.demo === 1 }, role };
}

export interface SiteAccess extends WorkspaceAccess {
  site: SitesTable;
}

/** Like requireWorkspace, for the workspace that owns `siteId` (404 for unknown or foreign sites). */
export async function requireSite(
  ctx: AuthDeps,
  principal: Principal,
  siteId: string,
  operation: Operation,
): Promise<SiteAccess> {
  const site = await findSite(ctx.database.db, siteId);
  if (!site) throw new ApiError('not_found', 'Site not found.');
  try {
    return { ...(await requireWorkspace(ctx, principal, site.workspace_id, operation)), site };
  } catch (err) {
    if (err instanceof ApiError && err.code === 'not_found')
      throw new ApiError('not_found', 'Site not found.');
    throw err;
  }
}

/** Account-wide operations (create workspace, change password, …) are refused to SSO-scoped sessions. */
export function requireUnscoped(principal: Principal): void {
  if (principal.workspaceScope !== null) {
    throw new ApiError('forbidden', 'A single sign-on session cannot change account-wide settings.');
  }
}

export function requirePlan(access: WorkspaceAccess, feature: Feature): void {
  if (!planAllows(access.workspace, feature)) {
    const needs = feature === 'sso' ? 'Enterprise' : 'Pro or Enterprise';
    throw new ApiError('plan_required', `This feature needs the ${needs} plan.`);
  }
}
