import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Database } from '../storage/db.ts';
import type { SsoConfigsTable } from '../storage/sso-schema.ts';
import type { LookupAll } from '../webhooks/safe-url.ts';
import { saveMetadataRefresh } from './config-store.ts';
import { parseIdpMetadata } from './idp-metadata.ts';
import { fetchIdpMetadata, METADATA_MAX_AGE_MS, metadataUrlPolicy } from './metadata-fetch.ts';

/** What a metadata refresh uses: the database, the clock, the URL policy and the resolver. */
export interface MetadataRefreshDeps {
  readonly database: Pick<Database, 'db'>;
  now(): number;
  readonly config: Pick<Config, 'unsafeWebhookTargets' | 'webhookPrivateSuffixes'>;
  readonly lookup?: LookupAll | undefined;
}

/** Read the workspace's metadata URL again and store what it says now (or why it could not be read). */
export async function refreshSsoMetadata(
  ctx: MetadataRefreshDeps,
  row: SsoConfigsTable,
): Promise<{ row: SsoConfigsTable; error: string | null }> {
  if (!row.metadata_url) return { row, error: 'no metadata URL is configured' };
  try {
    const xml = await fetchIdpMetadata(row.metadata_url, metadataUrlPolicy(ctx), ctx.lookup);
    const metadata = await parseIdpMetadata(xml);
    const saved = await saveMetadataRefresh(
      ctx.database.db,
      row.workspace_id,
      {
        ok: true,
        idpEntityId: metadata.entityId,
        ssoUrl: metadata.ssoUrl,
        idpCertificate: metadata.certificates.join(''),
      },
      ctx.now(),
    );
    return { row: saved, error: null };
  } catch (err) {
    const error = (err as Error).message;
    const saved = await saveMetadataRefresh(
      ctx.database.db,
      row.workspace_id,
      { ok: false, error },
      ctx.now(),
    );
    return { row: saved, error };
  }
}

/**
 * Before a sign-in starts: metadata read more than a day ago is read again, so an IdP's new
 * signing certificate is picked up without anyone pasting it. A failed read keeps the settings as
 * they are (and records the error for the settings page); the sign-in goes on with them.
 */
export async function freshSsoConfig(
  ctx: MetadataRefreshDeps & { readonly logger: Pick<Logger, 'warn'> },
  row: SsoConfigsTable,
): Promise<SsoConfigsTable> {
  if (!row.metadata_url) return row;
  if (row.metadata_fetched_at && ctx.now() - row.metadata_fetched_at < METADATA_MAX_AGE_MS) return row;
  const { row: refreshed, error } = await refreshSsoMetadata(ctx, row);
  if (error)
    ctx.logger.warn(
      { workspaceId: row.workspace_id, error },
      'SSO metadata refresh failed; kept the settings',
    );
  return refreshed;
}
