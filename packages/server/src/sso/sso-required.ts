import { planAllows } from '@warden/protocol/permissions';
import type { Kysely } from 'kysely';
import type { DB } from '../storage/db.ts';

export interface SsoRequirement {
  workspaceId: string;
  workspaceName: string;
}

/**
 * The first workspace that makes this user sign in through SSO: enabled with `ssoRequired`, on a
 * plan that allows SSO (else nobody could sign in), and the user is not an owner there (owners
 * keep password login as break-glass access). Undefined: password login is allowed.
 */
export async function ssoRequirementFor(db: Kysely<DB>, userId: string): Promise<SsoRequirement | undefined> {
  const rows = await db
    .selectFrom('memberships')
    .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
    .innerJoin('sso_configs', 'sso_configs.workspace_id', 'memberships.workspace_id')
    .select(['workspaces.id', 'workspaces.name', 'workspaces.plan', 'workspaces.demo'])
    .where('memberships.user_id', '=', userId)
    .where('memberships.role', '!=', 'owner')
    .where('sso_configs.enabled', '=', 1)
    .where('sso_configs.sso_required', '=', 1)
    .orderBy('workspaces.created_at')
    .orderBy('workspaces.id')
    .execute();
  const row = rows.find((r) => planAllows({ plan: r.plan, demo: r.demo === 1 }, 'sso'));
  return row ? { workspaceId: row.id, workspaceName: row.name } : undefined;
}
