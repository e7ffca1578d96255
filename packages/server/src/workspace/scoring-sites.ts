import type { Plan } from '@warden/protocol/permissions';
import { sql } from 'kysely';
import type { Database } from '../storage/db.ts';
import { precompiled } from '../storage/precompiled.ts';
import type { SitesTable } from '../storage/schema.ts';
import type { SiteKeyCache } from './site-key-cache.ts';
import { parseOrigins } from './sites.ts';

/** Which key authenticates a scoring request: browser (site key + Origin) or server (site + secret key). */
export type Surface = 'browser' | 'server';

/** A site as the scoring routes see it: its row, its workspace's plan, its allowed origins. */
export interface ScoringSite {
  site: SitesTable;
  workspace: { id: string; plan: Plan; demo: boolean };
  allowedOrigins: readonly string[];
}

/** What the site lookup reads: the database, the process's site-key cache and the clock. */
export interface ScoringSitesDeps {
  readonly database: Database;
  readonly siteKeys: SiteKeyCache<ScoringSite>;
  now(): number;
}

const siteByKey = precompiled((db, arg: (name: 'siteKey') => string) =>
  db
    .selectFrom('sites')
    .innerJoin('workspaces', 'workspaces.id', 'sites.workspace_id')
    .selectAll('sites')
    .select(['workspaces.plan as workspace_plan', 'workspaces.demo as workspace_demo'])
    .where('sites.site_key', '=', arg('siteKey')),
);

/**
 * The sites of the scoring routes, by key (http/site-auth.ts authenticates with them). A site is
 * remembered for at most 1 s, and until a site or workspace changes (site-key-cache.ts): a key
 * rotated here, or in another server process, stops working at once (interface §5 rule 6).
 */
export class ScoringSites {
  constructor(private readonly deps: ScoringSitesDeps) {}

  /** The site of `siteKey` when it is remembered (no query), else undefined. */
  remembered(siteKey: string): ScoringSite | undefined {
    return siteKey.length > 256 ? undefined : this.deps.siteKeys.get(siteKey, this.deps.now());
  }

  /** The site of `siteKey`, remembered or looked up; undefined when there is none. */
  async find(siteKey: string): Promise<ScoringSite | undefined> {
    if (siteKey.length > 256) return undefined;
    const load = () => loadSite(this.deps.database, siteKey);
    return this.deps.siteKeys.lookup(siteKey, this.deps.now(), load);
  }

  /** Is `origin` on the allowed list of at least one site? (CORS preflight carries no site key.) */
  async originAllowedBySomeSite(origin: string): Promise<boolean> {
    if (origin.length > 512) return false;
    const needle = JSON.stringify(origin).replace(/[\\%_]/g, (c) => `\\${c}`);
    const rows = await this.deps.database.db
      .selectFrom('sites')
      .select('allowed_origins')
      .where(sql<boolean>`allowed_origins like ${`%${needle}%`} escape '\\'`)
      .limit(50)
      .execute();
    return rows.some((row) => parseOrigins(row.allowed_origins).includes(origin));
  }
}

async function loadSite(database: Database, siteKey: string): Promise<ScoringSite | undefined> {
  const [row] = (await siteByKey(database.db, { siteKey })).rows;
  if (!row) return undefined;
  const { workspace_plan, workspace_demo, ...site } = row;
  return {
    site,
    workspace: { id: site.workspace_id, plan: workspace_plan, demo: Number(workspace_demo) === 1 },
    allowedOrigins: parseOrigins(site.allowed_origins),
  };
}
