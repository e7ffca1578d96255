import type { Logger } from 'pino';
import { hardwareProfileOf } from '../fingerprint/hardware.ts';
import { allOf, isPromise, type MaybePromise } from '../state/hot-state.ts';
import type { HotStateWrite } from '../state/writes.ts';
import {
  type CounterEvent,
  type CounterOp,
  counterOps,
  emptyCounts,
  fillCounts,
  type HistoryCounts,
  hardwareCounterOps,
} from './counter-ops.ts';
import {
  DEVICE_WINDOW,
  MINUTE,
  NONCE_TTL_MS,
  nonceKey,
  RECENT_RISK_MS,
  recordFirstSeen,
  SDK_SEEN_MS,
} from './history-keys.ts';
import { COUNTED_REFRESH_MS, markCounted, type RebuildDeps, rebuildHistory } from './history-rebuild.ts';

/** The counters an event reads; defined with the ops that count them (counter-ops.ts). */
export type { HistoryCounts };

/**
 * Velocity, fan-out and device history counters in hot state (shared by every process in scale
 * mode). They survive a restart: on first use per site in a process, unless hot state already
 * carries the site's counted marker (Redis kept the counters), the counters are rebuilt from the
 * `decisions` table of the last 24 h (device history: 30 days). Counts are approximate
 * (two-bucket sliding windows) and consistent after a restart within that approximation.
 */
export interface Observation extends Omit<CounterEvent, 'hardwareProfile'> {
  siteId: string;
  /**
   * The device's hardware profile (fingerprint/hardware.ts), "" when none; a promise when it is
   * being looked up for a token's device. Counted on payment events only.
   */
  hardwareProfile: string | Promise<string>;
}

/**
 * How long a process trusts the SDK marker it read: SPEC §10's 1 s, the most two processes of one
 * cluster may disagree about a site (a tokenless login scores as on an SDK site on both, or on neither).
 */
const SDK_READ_MS = 1_000;

/** What the counters use: hot state, the clock and recorded decisions (to rebuild), and a logger. */
export interface HistoryDeps extends RebuildDeps {
  readonly logger: Pick<Logger, 'warn'>;
}

export class History {
  /** Per site: the rebuild in progress, or null once it is done. */
  private readonly rebuilt = new Map<string, Promise<void> | null>();
  /** Per site: when this process last refreshed the counted marker. */
  private readonly markedCounted = new Map<string, number>();
  /**
   * Per SDK marker (sdkMarkerKey: site, or site and event type): as last read (remembered
   * SDK_READ_MS, so processes disagree for at most that long) and when this process last refreshed it.
   */
  private readonly sdkCache = new Map<string, { seen: boolean; checked: number; marked: number }>();

  constructor(private readonly deps: HistoryDeps) {}

  /**
   * Count this event and answer the counters including it. With the in-process hot state every
   * operation answers at once and no promise is made (this runs ~30 counter operations per event).
   */
  observe(o: Observation, now: number): MaybePromise<HistoryCounts> {
    const rebuilding = this.ensureRebuilt(o.siteId);
    return rebuilding ? rebuilding.then(() => this.count(o, now)) : this.count(o, now);
  }

  private count(o: Observation, now: number): MaybePromise<HistoryCounts> {
    const profile = o.hardwareProfile;
    const pending = isPromise(profile);
    // With its profile known, the observation is the event's CounterEvent as it is (no copy: this
    // runs per decision); a profile being looked up counts as "" until it is known.
    const event: CounterEvent = pending ? { ...o, hardwareProfile: '' } : (o as CounterEvent);
    // The one derivation of an event's operations (counter-ops.ts), shared with the rebuild.
    const ops = counterOps(o.siteId, event);
    const answers: MaybePromise<unknown>[] = new Array(ops.length);
    for (let i = 0; i < ops.length; i++) answers[i] = this.run(o.siteId, ops[i] as CounterOp, now);
    // A token's device: its profile is looked up first, then its operations run.
    const hardware = pending
      ? profile.then(async (p) => {
          const hwOps = hardwareCounterOps(o.siteId, { ...event, hardwareProfile: p });
          const hwAnswers = await allOf(hwOps.map((op) => this.run(o.siteId, op, now)));
          return { hwOps, hwAnswers };
        })
      : null;
    const base = allOf(answers);
    const done = (r: readonly unknown[], hw: { hwOps: CounterOp[]; hwAnswers: unknown[] } | null) => {
      const counts = emptyCounts();
      fillCounts(counts, ops, r);
      if (hw) fillCounts(counts, hw.hwOps, hw.hwAnswers);
      return counts;
    };
    if (hardware) return Promise.all([base, hardware]).then(([r, hw]) => done(r, hw));
    return isPromise(base) ? base.then((r) => done(r, null)) : done(base, null);
  }

  /** Run one counter operation against hot state. */
  private run(siteId: string, op: CounterOp, now: number): MaybePromise<unknown> {
    const h = this.deps.hotState;
    switch (op.kind) {
      case 'hit':
        return op.add ? h.hit(op.key, op.window) : h.count(op.key, op.window);
      case 'distinct':
        return h.distinct(op.key, op.member, op.window);
      case 'get':
        return h.get(op.key);
      case 'firstSeen':
        return recordFirstSeen(h, siteId, op.deviceId, now);
      case 'sdk':
        return this.sdkSeen(op.key, op.mark);
    }
  }

  /**
   * The hardware profile remembered for a token's device when the token was issued (after the
   * site's rebuild, which restores it from recorded decisions), "" when unknown.
   */
  async hardwareProfile(siteId: string, deviceId: string): Promise<string> {
    await this.ensureRebuilt(siteId);
    return hardwareProfileOf(this.deps.hotState, siteId, deviceId);
  }

  /**
   * Whether the site's backend sent a valid token within SDK_SEEN_MS (with events of one type when
   * `key` names it), marking it when it does now.
   */
  private sdkSeen(key: string, now: boolean): MaybePromise<boolean> {
    const at = this.deps.now();
    const c = this.sdkCache.get(key);
    if (now) {
      // Refresh the shared marker at most every 10 minutes per process.
      if (!c?.seen || at - c.marked > 10 * MINUTE) {
        this.sdkCache.set(key, { seen: true, checked: at, marked: at });
        const marked = this.deps.hotState.set(key, '1', SDK_SEEN_MS);
        if (isPromise(marked)) return marked.then(() => true);
      }
      return true;
    }
    if (c && at - c.checked < SDK_READ_MS) return c.seen;
    const remember = (value: string | null) => {
      const seen = value !== null;
      this.sdkCache.set(key, { seen, checked: at, marked: c?.marked ?? 0 });
      return seen;
    };
    const value = this.deps.hotState.get(key);
    return isPromise(value) ? value.then(remember) : remember(value);
  }

  /**
   * True when `nonce` (environment.nonce) is new on the site within 24 h, remembering it. Asked
   * after the site's rebuild, which restores the nonces of recorded decisions after a restart.
   */
  claimNonce(siteId: string, nonce: string): MaybePromise<boolean> {
    const claim = () => this.deps.hotState.claimOnce(nonceKey(siteId, nonce), NONCE_TTL_MS);
    const rebuilding = this.ensureRebuilt(siteId);
    return rebuilding ? rebuilding.then(claim) : claim();
  }

  /**
   * Rebuild the site's counters once per process; null once done (no promise to wait for). While
   * the process counts for the site it keeps the site's counted marker alive (history-rebuild.ts),
   * so that no process started later rebuilds on top of the live counters.
   */
  ensureRebuilt(siteId: string): Promise<void> | null {
    let p = this.rebuilt.get(siteId);
    if (p === null) {
      const at = this.deps.now();
      if (at - (this.markedCounted.get(siteId) ?? Number.NEGATIVE_INFINITY) >= COUNTED_REFRESH_MS) {
        this.markedCounted.set(siteId, at);
        const marked = markCounted(this.deps, siteId);
        if (isPromise(marked))
          marked.catch((err: unknown) =>
            this.deps.logger.warn({ err, siteId }, 'counted marker not refreshed'),
          );
      }
    }
    if (p === undefined) {
      p = rebuildHistory(this.deps, siteId)
        .catch((err: unknown) => {
          this.deps.logger.warn({ err, siteId }, 'velocity rebuild failed; counting from now');
        })
        .then(() => {
          this.rebuilt.set(siteId, null);
        });
      this.rebuilt.set(siteId, p);
    }
    return p;
  }
}

/**
 * What to remember once a decision is recorded: a risky outcome against the device, and the
 * evidence risk (the score without what was carried over from earlier decisions) of the token and
 * the device for RECENT_RISK_MS. Plain writes: the owner of hot state applies them with the commit.
 */
export function outcomeWrites(
  siteId: string,
  deviceId: string,
  riskScore: number,
  recent?: {
    tokenId: string;
    evidenceRisk: number;
    /** What the device carries to later pages (signals/device-carry.ts); the evidence risk when absent. */
    deviceRisk?: number;
    previousToken: number;
    previousDevice: number;
  },
): HotStateWrite[] {
  const writes: HotStateWrite[] = [];
  if (deviceId && riskScore >= 60) writes.push(['hit', `devbad:${siteId}:${deviceId}`, DEVICE_WINDOW]);
  if (recent) {
    const r = Math.round(recent.evidenceRisk);
    const d = Math.round(recent.deviceRisk ?? recent.evidenceRisk);
    if (recent.tokenId && r > 0 && r > recent.previousToken)
      writes.push(['set', `rrisk:${siteId}:tok:${recent.tokenId}`, String(r), RECENT_RISK_MS]);
    if (deviceId && d > 0 && d > recent.previousDevice)
      writes.push(['set', `rrisk:${siteId}:dev:${deviceId}`, String(d), RECENT_RISK_MS]);
  }
  return writes;
}
