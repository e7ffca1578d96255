import type { Database } from '../storage/db.ts';

/** Sites whose rule sets are kept: beyond, the oldest loaded is dropped (and loaded again when used). */
const MAX_SITES = 10_000;

import { buildRuleset, EMPTY_RULESET, type Ruleset, rulesetVersionOf } from './ruleset.ts';

/** How long another process may keep using a rule set after a change (SPEC: effects seen within 1 s). */
const FRESH_MS = 1000;

interface Entry {
  ruleset: Ruleset;
  loadedAt: number;
  refreshing: Promise<Ruleset> | null;
}

/** Compiled rule sets per site, cached in memory and refreshed in the background. */
export class RuleStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly ctx: { readonly database: Pick<Database, 'db'>; now(): number }) {}

  /**
   * The site's rule set: at once (no promise) when it is cached, which is every decision but the
   * first of a site in this process.
   */
  load(siteId: string): Ruleset | Promise<Ruleset> {
    const entry = this.entries.get(siteId);
    const now = this.ctx.now();
    if (entry && now - entry.loadedAt < FRESH_MS) return entry.ruleset;
    if (entry) {
      // Serve the current rule set while a fresh one loads: no query on the hot path.
      entry.refreshing ??= this.fetch(siteId).finally(() => {
        entry.refreshing = null;
      });
      return entry.ruleset;
    }
    return this.fetch(siteId);
  }

  invalidate(siteId: string): void {
    this.entries.delete(siteId);
  }

  private async fetch(siteId: string): Promise<Ruleset> {
    const { db } = this.ctx.database;
    const current = this.entries.get(siteId);
    if (current) {
      // Usually nothing changed: compare versions from a few columns instead of loading and
      // compiling every expression and list again (a pause on the hot path once a second).
      const [ruleStamps, listStamps] = await Promise.all([
        db
          .selectFrom('rules')
          .select(['id', 'enabled', 'priority', 'created_at', 'updated_at'])
          .where('site_id', '=', siteId)
          .execute(),
        db.selectFrom('lists').select(['id', 'updated_at']).where('site_id', '=', siteId).execute(),
      ]);
      if (rulesetVersionOf(ruleStamps, listStamps) === current.ruleset.version) {
        current.loadedAt = this.ctx.now();
        return current.ruleset;
      }
    }
    const [rules, lists] = await Promise.all([
      db.selectFrom('rules').selectAll().where('site_id', '=', siteId).execute(),
      db.selectFrom('lists').selectAll().where('site_id', '=', siteId).execute(),
    ]);
    const ruleset = rules.length === 0 && lists.length === 0 ? EMPTY_RULESET : buildRuleset(rules, lists);
    if (!this.entries.has(siteId) && this.entries.size >= MAX_SITES) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(siteId, { ruleset, loadedAt: this.ctx.now(), refreshing: null });
    return ruleset;
  }
}
