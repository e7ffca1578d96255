import type { Kysely } from 'kysely';
import { type AuditActor, recordAudit } from '../audit/log.ts';
import type { DB } from '../storage/db.ts';
import type { SitesTable } from '../storage/schema.ts';
import type { SiteChangeFeed } from './site-change-feed.ts';
import {
  createSite,
  type NewSite,
  rotateSiteKeys,
  type SiteKeys,
  type SitePatch,
  siteView,
  updateSite,
} from './sites.ts';

/**
 * The site changes an owner or analyst makes through the management API: each writes the site and
 * its audit entry in one transaction; a change to keys or origins is announced once committed.
 */
export type SiteChangeAnnouncer = Pick<SiteChangeFeed, 'changed' | 'committed'>;

/** A new site with fresh keys, and its `site.create` entry. */
export async function createSiteAudited(
  db: Kysely<DB>,
  actor: AuditActor,
  input: NewSite,
  now: number,
): Promise<{ site: SitesTable; keys: SiteKeys }> {
  return db.transaction().execute(async (trx) => {
    const created = await createSite(trx, input, now);
    await recordAudit(
      trx,
      actor,
      {
        workspaceId: created.site.workspace_id,
        siteId: created.site.id,
        action: 'site.create',
        targetType: 'site',
        targetId: created.site.id,
        after: siteView(created.site),
      },
      now,
    );
    return created;
  });
}

/** What a `site.update` entry shows of a site before and after. */
function shown(site: SitesTable) {
  const v = siteView(site);
  return { name: v.name, allowedOrigins: v.allowedOrigins, settings: v.settings };
}

/** Apply `patch` to `site`, record `site.update`, then tell every cache of the commit. */
export async function updateSiteAudited(
  db: Kysely<DB>,
  changes: SiteChangeAnnouncer,
  actor: AuditActor,
  site: SitesTable,
  patch: SitePatch,
  now: number,
): Promise<SitesTable> {
  const updated = await db.transaction().execute(async (trx) => {
    const row = await updateSite(trx, site, patch, now, changes);
    await recordAudit(
      trx,
      actor,
      {
        workspaceId: site.workspace_id,
        siteId: site.id,
        action: 'site.update',
        targetType: 'site',
        targetId: site.id,
        before: shown(site),
        after: shown(row),
      },
      now,
    );
    return row;
  });
  changes.committed();
  return updated;
}

/**
 * Replace both keys of `site`, record `site.rotate_keys` (the new public site key and when; never
 * a secret), then tell every cache of the commit: the old keys stop working at once.
 */
export async function rotateSiteKeysAudited(
  db: Kysely<DB>,
  changes: SiteChangeAnnouncer,
  actor: AuditActor,
  site: SitesTable,
  now: number,
): Promise<SiteKeys> {
  const keys = await db.transaction().execute(async (trx) => {
    const rotated = await rotateSiteKeys(trx, site.id, now, changes);
    await recordAudit(
      trx,
      actor,
      {
        workspaceId: site.workspace_id,
        siteId: site.id,
        action: 'site.rotate_keys',
        targetType: 'site',
        targetId: site.id,
        before: { siteKey: site.site_key },
        after: { siteKey: rotated.siteKey, rotatedAt: new Date(now).toISOString() },
      },
      now,
    );
    return rotated;
  });
  changes.committed();
  return keys;
}
