import { type LookupAll, resolveWebhookTarget, type TargetCheck, type UrlPolicy } from './safe-url.ts';

/** How long a send-time check of one URL (its rules and its DNS answers) is reused. */
export const TARGET_RECHECK_MS = 5_000;

/**
 * Send-time target checks (safe-url.ts `resolveWebhookTarget`: the URL rules of interface 6.1, then
 * every DNS answer validated) reused per URL for `recheckMs`, so that thousands of deliveries a
 * second to one endpoint do not parse the URL and resolve its name for each attempt. The safety
 * rules are unchanged: the request still connects only to the checked address (no DNS rebinding),
 * and a name whose DNS changes is checked again within `recheckMs`. Concurrent attempts share one
 * check in progress. At most `maxEntries` URLs are kept (the oldest check goes first).
 */
export class TargetCache {
  private readonly entries = new Map<string, { check: Promise<TargetCheck>; expires: number }>();

  constructor(
    private readonly policy: UrlPolicy,
    private readonly lookup: LookupAll,
    private readonly recheckMs = TARGET_RECHECK_MS,
    private readonly maxEntries = 1_024,
    private readonly now: () => number = () => performance.now(),
  ) {}

  resolve(url: string): Promise<TargetCheck> {
    const now = this.now();
    const hit = this.entries.get(url);
    if (hit && hit.expires > now) return hit.check;
    const check = resolveWebhookTarget(url, this.policy, this.lookup);
    this.entries.delete(url);
    this.entries.set(url, { check, expires: now + this.recheckMs });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    return check;
  }
}
