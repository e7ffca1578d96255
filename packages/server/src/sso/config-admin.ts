import type { SsoSettings } from '@warden/protocol/management';
import type { Kysely } from 'kysely';
import { type AuditActor, recordAudit } from '../audit/log.ts';
import type { DB } from '../storage/db.ts';
import type { SsoConfigsTable } from '../storage/sso-schema.ts';
import { findSsoConfig, saveSsoConfig, ssoSettingsView } from './config-store.ts';

/**
 * Replace the workspace's SSO configuration (PUT /api/workspaces/{id}/sso) and record the change,
 * before and after, as one `sso.update` entry in the same transaction.
 */
export async function saveSsoConfigAudited(
  db: Kysely<DB>,
  actor: AuditActor,
  workspaceId: string,
  settings: SsoSettings,
  now: number,
): Promise<SsoConfigsTable> {
  const previous = await findSsoConfig(db, workspaceId);
  return db.transaction().execute(async (trx) => {
    const saved = await saveSsoConfig(trx, workspaceId, settings, now);
    await recordAudit(
      trx,
      actor,
      {
        workspaceId,
        action: 'sso.update',
        targetType: 'sso',
        targetId: workspaceId,
        before: previous ? ssoSettingsView(workspaceId, previous) : null,
        after: ssoSettingsView(workspaceId, saved),
      },
      now,
    );
    return saved;
  });
}
