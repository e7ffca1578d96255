/**
 * Scoring looks its site up by key on every request. On the embedded SQLite database that query
 * costs about 35 µs, mostly re-reading pages: SQLite drops a connection's page cache whenever
 * another connection wrote, and the decision writer thread commits every few milliseconds.
 *
 * So on SQLite the lookups are remembered. That is exact because a SQLite file has one serving
 * process (PostgreSQL is required for more), and every change to sites and workspaces goes through
 * workspace/sites.ts and workspace/workspaces.ts, which call `changed()` on the process's cache (`SiteChanges`): a rotated key stops
 * working at once (interface §5 rule 6). Entries also expire after `SITE_KEY_CACHE_TTL_MS`, which
 * bounds how long a CLI command run beside the server (`warden workspace plan`) goes unseen: SPEC
 * §10's 1 s. At that expiry a key looked up 1,000 times a second misses once a second, so the
 * cache still saves nearly all of the 35 µs per request.
 * Unknown keys are not remembered. PostgreSQL never caches (several processes share it).
 */
export const SITE_KEY_CACHE_TTL_MS = 1_000;
const MAX_ENTRIES = 1_000;

/** Told of every change to a site or a workspace (sites.ts and workspaces.ts call it). */
export interface SiteChanges {
  changed(): void;
}

/** For a process that remembers no sites (the CLI commands): nothing to forget. */
export const NO_SITE_CACHE: SiteChanges = Object.freeze({ changed: () => undefined });

interface Remembered<T> {
  value: T;
  until: number;
}

/** One per process (services.ts: `siteKeys`). */
export class SiteKeyCache<T> implements SiteChanges {
  private readonly entries = new Map<string, Remembered<T>>();
  /** Bumped by every change to a site or a workspace in this process: all remembered lookups go. */
  private generation = 0;

  changed(): void {
    this.generation++;
    this.entries.clear();
  }

  /** The remembered value of `key`, else what `load` finds (remembered unless a change overtook it). */
  async lookup(key: string, now: number, load: () => Promise<T | undefined>): Promise<T | undefined> {
    const remembered = this.get(key, now);
    if (remembered !== undefined) return remembered;
    const seen = this.generation;
    const value = await load();
    // A change during the load may have come after what it read: not remembered then.
    if (value !== undefined && seen === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, { value, until: now + SITE_KEY_CACHE_TTL_MS });
    }
    return value;
  }

  get(key: string, now: number): T | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.until > now) return hit.value;
    this.entries.delete(key);
    return undefined;
  }
}
