import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../storage/db.ts';
import type { SitesTable } from '../storage/schema.ts';
import type { SiteChanges } from './site-key-cache.ts';
import { sha256Hex } from './tokens.ts';

/** Per-site settings; stored as JSON text in `sites.settings`. */
export interface SiteSettings {
  /** Minimum proof-of-work difficulty for this site (SPEC §5; instance default WARDEN_POW_FLOOR). */
  powFloor?: number;
}

/** The site record of SPEC §10 (never the secret), plus its settings. */
export interface SiteView {
  id: string;
  workspaceId: string;
  name: string;
  siteKey: string;
  allowedOrigins: string[];
  settings: SiteSettings;
  createdAt: string;
  updatedAt: string;
}

/** The only moment a secret key exists in clear: creation and rotation answers. */
export interface SiteKeys {
  siteKey: string;
  secretKey: string;
}

/**
 * `pk_` / `sk_` + 24 random bytes (base64url). The prefixes make a leaked key recognisable
 * (secret scanners, support) and tell the two apart at a glance.
 */
export function newSiteKeys(): SiteKeys {
  return {
    siteKey: `pk_${randomBytes(24).toString('base64url')}`,
    secretKey: `sk_${randomBytes(24).toString('base64url')}`,
  };
}

export function siteView(row: SitesTable): SiteView {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    siteKey: row.site_key,
    allowedOrigins: parseOrigins(row.allowed_origins),
    settings: parseSettings(row.settings),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** The `allowed_origins` column as a list (a damaged value reads as no origins: nothing is allowed). */
export function parseOrigins(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

function parseSettings(text: string): SiteSettings {
  const value: unknown = JSON.parse(text);
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const settings: SiteSettings = {};
  const floor = (value as Record<string, unknown>).powFloor;
  if (typeof floor === 'number') settings.powFloor = floor;
  return settings;
}

export interface NewSite {
  workspaceId: string;
  name: string;
  /** Already validated with normaliseOrigins(). */
  allowedOrigins: string[];
}

export async function createSite(
  db: Kysely<DB>,
  input: NewSite,
  now: number,
): Promise<{ site: SitesTable; keys: SiteKeys }> {
  const keys = newSiteKeys();
  const site: SitesTable = {
    id: randomUUID(),
    workspace_id: input.workspaceId,
    name: input.name,
    site_key: keys.siteKey,
    secret_key_hash: sha256Hex(keys.secretKey),
    allowed_origins: JSON.stringify(input.allowedOrigins),
    settings: '{}',
    keys_rotated_at: null,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('sites').values(site).execute();
  return { site, keys };
}

export async function findSite(db: Kysely<DB>, id: string): Promise<SitesTable | undefined> {
  return db.selectFrom('sites').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Every site's id (in no particular order). */
export async function allSiteIds(db: Kysely<DB>): Promise<string[]> {
  const sites = await db.selectFrom('sites').select('id').execute();
  return sites.map((s) => s.id);
}

/** Sites of the given workspaces, oldest first. */
export async function listSites(db: Kysely<DB>, workspaceIds: readonly string[]): Promise<SitesTable[]> {
  if (workspaceIds.length === 0) return [];
  return db
    .selectFrom('sites')
    .selectAll()
    .where('workspace_id', 'in', workspaceIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export interface SitePatch {
  name?: string | undefined;
  allowedOrigins?: string[] | undefined;
  /** Merged key by key into the stored settings; a null value removes that key. */
  settings?: { [K in keyof SiteSettings]?: SiteSettings[K] | null } | undefined;
}

export async function updateSite(
  db: Kysely<DB>,
  site: SitesTable,
  patch: SitePatch,
  now: number,
  changes: SiteChanges,
): Promise<SitesTable> {
  const next: SitesTable = { ...site, updated_at: now };
  if (patch.name !== undefined) next.name = patch.name;
  if (patch.allowedOrigins !== undefined) next.allowed_origins = JSON.stringify(patch.allowedOrigins);
  if (patch.settings !== undefined) {
    const merged: Record<string, unknown> = { ...parseSettings(site.settings) };
    for (const [key, value] of Object.entries(patch.settings)) {
      if (value === null) delete merged[key];
      else if (value !== undefined) merged[key] = value;
    }
    next.settings = JSON.stringify(merged);
  }
  await db
    .updateTable('sites')
    .set({
      name: next.name,
      allowed_origins: next.allowed_origins,
      settings: next.settings,
      updated_at: now,
    })
    .where('id', '=', site.id)
    .execute();
  await changes.changed(db);
  return next;
}

/**
 * Replace both keys at once. The old ones stop working with this commit: scoring looks keys up
 * by value, and nothing else (no overlap window, interface §5 rule 6).
 */
export async function rotateSiteKeys(
  db: Kysely<DB>,
  siteId: string,
  now: number,
  changes: SiteChanges,
): Promise<SiteKeys> {
  const keys = newSiteKeys();
  await db
    .updateTable('sites')
    .set({
      site_key: keys.siteKey,
      secret_key_hash: sha256Hex(keys.secretKey),
      keys_rotated_at: now,
      updated_at: now,
    })
    .where('id', '=', siteId)
    .execute();
  await changes.changed(db);
  return keys;
}

/** The site key of the demo workspace's first site (the demo page scores with it), if any. */
export async function firstDemoSiteKey(db: Kysely<DB>): Promise<string | undefined> {
  const row = await db
    .selectFrom('sites')
    .innerJoin('workspaces', 'workspaces.id', 'sites.workspace_id')
    .select('sites.site_key')
    .where('workspaces.demo', '=', 1)
    .orderBy('sites.created_at')
    .limit(1)
    .executeTakeFirst();
  return row?.site_key;
}
