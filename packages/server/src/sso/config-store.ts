import type { SpEndpoints, SsoConfigView, SsoSettings } from '@warden/protocol/management';
import type { Kysely } from 'kysely';
import type { DB } from '../storage/db.ts';
import type { SsoConfigsTable } from '../storage/sso-schema.ts';
import { attributeMappingOf } from './attribute-mapping.ts';
import { splitCertificates } from './certificate.ts';

export async function findSsoConfig(
  db: Kysely<DB>,
  workspaceId: string,
): Promise<SsoConfigsTable | undefined> {
  return db.selectFrom('sso_configs').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
}

/** Create or replace the workspace's configuration. */
export async function saveSsoConfig(
  db: Kysely<DB>,
  workspaceId: string,
  settings: SsoSettings,
  now: number,
): Promise<SsoConfigsTable> {
  const values = {
    enabled: settings.enabled ? 1 : 0,
    idp_entity_id: settings.idpEntityId,
    sso_url: settings.ssoUrl,
    idp_certificate: settings.idpCertificate,
    default_role: settings.defaultRole,
    sso_required: settings.ssoRequired ? 1 : 0,
    attribute_mapping: settings.attributeMapping ? JSON.stringify(settings.attributeMapping) : null,
    metadata_url: settings.metadataUrl,
    metadata_fetched_at: settings.metadataUrl ? now : null,
    metadata_error: null,
    updated_at: now,
  };
  await db
    .insertInto('sso_configs')
    .values({ workspace_id: workspaceId, created_at: now, ...values })
    .onConflict((oc) => oc.column('workspace_id').doUpdateSet(values))
    .execute();
  const row = await findSsoConfig(db, workspaceId);
  if (!row) throw new Error('SSO configuration vanished after saving');
  return row;
}

function settingsOf(
  row: SsoConfigsTable | undefined,
): Omit<
  SsoConfigView,
  | 'workspaceId'
  | 'configured'
  | 'idpCertificates'
  | 'updatedAt'
  | 'sp'
  | 'metadataFetchedAt'
  | 'metadataError'
> {
  return {
    enabled: row?.enabled === 1,
    idpEntityId: row?.idp_entity_id ?? '',
    ssoUrl: row?.sso_url ?? '',
    idpCertificate: row?.idp_certificate ?? '',
    defaultRole: row?.default_role ?? 'viewer',
    ssoRequired: row?.sso_required === 1,
    attributeMapping: attributeMappingOf(row?.attribute_mapping ?? null),
    metadataUrl: row?.metadata_url ?? null,
  };
}

/** The configuration as the audit log keeps it: the settings, without the derived SP endpoints. */
export function ssoSettingsView(
  workspaceId: string,
  row: SsoConfigsTable | undefined,
): Omit<SsoConfigView, 'sp'> {
  return {
    workspaceId,
    configured: row !== undefined,
    ...settingsOf(row),
    idpCertificates: splitCertificates(row?.idp_certificate ?? ''),
    updatedAt: row ? new Date(row.updated_at).toISOString() : null,
    metadataFetchedAt: row?.metadata_fetched_at ? new Date(row.metadata_fetched_at).toISOString() : null,
    metadataError: row?.metadata_error ?? null,
  };
}

export function ssoConfigView(
  workspaceId: string,
  row: SsoConfigsTable | undefined,
  sp: SpEndpoints,
): SsoConfigView {
  return { ...ssoSettingsView(workspaceId, row), sp };
}

/** Store what a refresh of the metadata URL read (or why it failed, keeping the settings as they were). */
export async function saveMetadataRefresh(
  db: Kysely<DB>,
  workspaceId: string,
  outcome:
    | { ok: true; idpEntityId: string; ssoUrl: string; idpCertificate: string }
    | { ok: false; error: string },
  now: number,
): Promise<SsoConfigsTable> {
  const values = outcome.ok
    ? {
        idp_entity_id: outcome.idpEntityId,
        sso_url: outcome.ssoUrl,
        idp_certificate: outcome.idpCertificate,
        metadata_fetched_at: now,
        metadata_error: null,
        updated_at: now,
      }
    : { metadata_error: outcome.error.slice(0, 500) };
  await db.updateTable('sso_configs').set(values).where('workspace_id', '=', workspaceId).execute();
  const row = await findSsoConfig(db, workspaceId);
  if (!row) throw new Error('SSO configuration vanished after a metadata refresh');
  return row;
}
