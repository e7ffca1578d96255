/** How long binding trusts a site's webhook state once read (the commit checks it again anyway). */
export const WEBHOOK_STATE_TTL_MS = 1000;

/** Sites remembered at most: past that the memory starts afresh (each then read once again). */
const MAX_SITES = 10_000;

/**
 * Whether each site's webhook is on, as the SQLite group commit binds a batch: read on the main
 * connection at most once per site per `ttlMs` instead of once per batch. A read there after the
 * writer thread committed starts a read transaction that finds the database changed and drops the
 * connection's page cache, so under light load (a batch per decision) it cost a decision about
 * 20–25 µs of main-thread CPU. A stale answer is never wrong, only wasted: the commit reads the
 * state again inside its transaction, refuses a batch bound without the delivery of a webhook
 * turned on (`WEBHOOK_TURNED_ON`, bound again with `fresh`), and skips the delivery bound for one
 * turned off.
 */
export class WebhookStates {
  private readonly known = new Map<string, { on: boolean; until: number }>();

  constructor(
    private readonly lookup: (siteId: string) => boolean,
    private readonly ttlMs = WEBHOOK_STATE_TTL_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The site's webhook state: remembered, or read (always read when `fresh`). */
  on(siteId: string, fresh = false): boolean {
    const now = this.now();
    const known = fresh ? undefined : this.known.get(siteId);
    if (known && known.until > now) return known.on;
    const on = this.lookup(siteId);
    if (this.known.size >= MAX_SITES && !this.known.has(siteId)) this.known.clear();
    this.known.set(siteId, { on, until: now + this.ttlMs });
    return on;
  }
}
