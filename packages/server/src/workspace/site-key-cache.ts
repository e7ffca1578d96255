import type { Kysely } from 'kysely';
import type { DB } from '../storage/db.ts';

/**
 * Scoring looks its site up by key on every request. On the embedded SQLite database that query
 * costs about 35 µs, mostly re-reading pages: SQLite drops a connection's page cache whenever
 * another connection wrote, and the decision writer thread commits every few milliseconds. On
 * PostgreSQL it is a round trip per request, most of scale mode's statements without this cache.
 *
 * So the lookups are remembered, for at most `SITE_KEY_CACHE_TTL_MS`. Every change to sites and
 * workspaces goes through workspace/sites.ts and workspace/workspaces.ts, which tell the process's
 * `SiteChangeFeed` (site-change-feed.ts): it calls `changed()` here, and tells the other server
 * processes, whose feeds call their caches' `changed()`: on PostgreSQL by NOTIFY at commit (each
 * process LISTENs; while its listener is down it calls `remember(false)` and nothing is
 * remembered), under `serve --workers` through the primary. So a rotated key stops working in
 * every server process at once (interface §5 rule 6). What nobody announces (a CLI command beside
 * the server on SQLite, `warden workspace plan`; a direct SQL edit; a change missed while a dropped
 * listener went unnoticed) is seen when the entry expires: SPEC §10's 1 s. At that expiry a key
 * looked up 1,000 times a second misses once a second, so the cache still saves nearly every
 * lookup. Unknown keys are not remembered.
 */
export const SITE_KEY_CACHE_TTL_MS = 1_000;
const MAX_ENTRIES = 1_000;

/**
 * Told of every change to a site or a workspace (sites.ts and workspaces.ts call it with the
 * connection or transaction that wrote it): services.ts's `SiteChangeFeed`, or a bare cache.
 */
export interface SiteChanges {
  changed(db: Kysely<DB>): void | Promise<void>;
}

/** For a process that remembers no sites (the CLI commands): nothing to forget. */
export const NO_SITE_CACHE: SiteChanges = Object.freeze({ changed: () => undefined });

interface Remembered<T> {
  value: T;
  until: number;
}

/** One per process (services.ts: `siteKeys`). */
export class SiteKeyCache<T> implements SiteChanges {
  /**
   * Off while this process could miss another's change (its PostgreSQL listener is down, or not
   * up yet): every lookup loads then.
   */
  private remembering = true;
  private readonly entries = new Map<string, Remembered<T>>();
  /**
   * Loads in progress: the requests that miss together (every request of a busy key when its
   * entry expires) share one query.
   */
  private readonly loading = new Map<string, Promise<T | undefined>>();
  /** Bumped by every change to a site or a workspace in this process: all remembered lookups go. */
  private generation = 0;

  /** `ttlMs`: how long a lookup is remembered (tests make it long, to see that only a change ends it). */
  constructor(private readonly ttlMs = SITE_KEY_CACHE_TTL_MS) {}

  changed(): void {
    this.generation++;
    this.entries.clear();
    // A load begun before the change may read what it changed: later lookups load again.
    this.loading.clear();
  }

  /** Remember lookups (again) or not; either way what is remembered now goes. */
  remember(on: boolean): void {
    this.remembering = on;
    this.changed();
  }

  /** The remembered value of `key`, else what `load` finds (remembered unless a change overtook it). */
  lookup(key: string, now: number, load: () => Promise<T | undefined>): Promise<T | undefined> {
    if (!this.remembering) return load();
    const remembered = this.get(key, now);
    if (remembered !== undefined) return Promise.resolve(remembered);
    const pending = this.loading.get(key);
    if (pending) return pending;
    const seen = this.generation;
    const loaded = load()
      .then((value) => {
        // A change during the load may have come after what it read: not remembered then.
        if (value !== undefined && seen === this.generation) {
          if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
          this.entries.set(key, { value, until: now + this.ttlMs });
        }
        return value;
      })
      .finally(() => {
        if (this.loading.get(key) === loaded) this.loading.delete(key);
      });
    this.loading.set(key, loaded);
    return loaded;
  }

  get(key: string, now: number): T | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.until > now) return hit.value;
    this.entries.delete(key);
    return undefined;
  }
}
