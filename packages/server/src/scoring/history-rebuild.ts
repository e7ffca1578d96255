import type { HistoryDecisions } from '../decisions/history-queries.ts';
import { HARDWARE_MAP_TTL_MS, hardwareMapKey } from '../fingerprint/hardware.ts';
import type { HotState, MaybePromise } from '../state/hot-state.ts';
import { counterEventOfRecord, counterOps, rebuildWrites } from './counter-ops.ts';
import type { Signal } from './engine-types.ts';
import {
  DAY,
  DEVICE_WINDOW,
  HOUR,
  MINUTE,
  NONCE_TTL_MS,
  NONCE_VALUE,
  nonceKey,
  REBUILD_LIMIT,
  RECENT_RISK_MS,
  recordFirstSeen,
  SDK_SEEN_MS,
} from './history-keys.ts';

/**
 * The marker that hot state holds a site's counters: while it is there, every recorded decision
 * of the windows is counted already (live, or by the rebuild that set it), so a process that
 * starts must not rebuild (it would count each decision twice). It lives longer than anything the
 * rebuild adds to: a counter of the longest window (devices, 30 days) lives at most two windows
 * after its last write, the marker three, and every process that counts for the site sets it
 * again at least every COUNTED_REFRESH_MS. So it cannot lapse while counters live; it is absent
 * only when hot state lost them (a new in-process store, a Redis without its data), and then the
 * rebuild restores them.
 */
export const countedKey = (siteId: string) => `counted:${siteId}`;
export const COUNTED_TTL_MS = 3 * DEVICE_WINDOW;
export const COUNTED_REFRESH_MS = HOUR;
/** The marker of versions before the counted marker (claimed once per site for 24 h). */
const legacyMarkerKey = (siteId: string) => `rebuilt:${siteId}`;
/** Held by the one process that rebuilds a site, so that processes starting together rebuild once. */
const REBUILD_CLAIM_MS = MINUTE;

/**
 * What the rebuild reads and writes: the hot state, the clock, the decision log's queries of
 * recent decisions (decisions/history-queries.ts), and how the engine weighs a recorded decision's
 * signals (`risk`), so that the recent risk it restores is the one live scoring remembered.
 */
export interface RebuildDeps {
  readonly hotState: HotState;
  now(): number;
  readonly decisions: Pick<HistoryDecisions, 'counterPage' | 'deviceTotals'>;
  readonly risk: EvidenceRisk;
}

/**
 * The engine's evidence risk of a decision's signals: for its token (signals/session.ts
 * `evidenceRisk`) and the share its device carries (signals/device-carry.ts `deviceEvidenceRisk`).
 */
export interface EvidenceRisk {
  token(signals: readonly Signal[]): number;
  device(signals: readonly Signal[]): number;
}

/** Keep the site's counted marker alive (a process that counts for the site calls it regularly). */
export function markCounted(deps: Pick<RebuildDeps, 'hotState' | 'now'>, siteId: string): MaybePromise<void> {
  return deps.hotState.set(countedKey(siteId), String(deps.now()), COUNTED_TTL_MS);
}

/**
 * Rebuild a site's hot-state counters from the recorded decisions of the last 24 h (device history:
 * 30 days), so velocity and fan-out survive a restart, unless hot state still holds them (the
 * counted marker): idempotent across processes and restarts. The marker is set before anything is
 * added, so a rebuild cut short leaves counts too low, never doubled.
 * Reads REBUILD_PAGE decisions at a time, newest first, and applies each page before reading the
 * next, so its memory is bounded by a page (the hot state holds the result within its own budget).
 */
export async function rebuildHistory(deps: RebuildDeps, siteId: string, page = REBUILD_PAGE): Promise<void> {
  const h = deps.hotState;
  if ((await h.get(countedKey(siteId))) !== null) return;
  if (!(await h.claimOnce(`rebuilding:${siteId}`, REBUILD_CLAIM_MS))) return;
  // Another process may have finished its rebuild between the two steps.
  if ((await h.get(countedKey(siteId))) !== null) return;
  // Hot state kept by an earlier version carries its 24 h marker instead: its counters are live.
  // (Claiming it also keeps processes of that version from rebuilding during a rolling upgrade.)
  if (!(await h.claimOnce(legacyMarkerKey(siteId), DAY))) {
    await markCounted(deps, siteId);
    return;
  }
  await markCounted(deps, siteId);
  const now = deps.now();
  const marks = { sdk: new Set<string>() };
  let before: { at: number; id: string } | null = null;
  for (let read = 0; read < REBUILD_LIMIT; ) {
    const rows = await rebuildPage(deps, siteId, now, before, Math.min(page, REBUILD_LIMIT - read));
    if (rows.length === 0) break;
    await applyPage(deps, siteId, now, rows, marks);
    read += rows.length;
    const last = rows[rows.length - 1] as RebuildRow;
    before = { at: last.created_at, id: last.id };
    if (rows.length < page) break;
  }
  await rebuildDevices(deps, siteId, now);
}

/** Decisions rebuilt per query (and held in memory at once). */
export const REBUILD_PAGE = 2_000;

type RebuildRow = Awaited<ReturnType<typeof rebuildPage>>[number];

/** Up to `limit` decisions of the last 24 h older than `before`, newest first. */
function rebuildPage(
  deps: RebuildDeps,
  siteId: string,
  now: number,
  before: { at: number; id: string } | null,
  limit: number,
) {
  return deps.decisions.counterPage(siteId, now - DAY, before, limit);
}

/** Count one page of decisions into hot state (`marks` carries what is set once per rebuild). */
async function applyPage(
  deps: RebuildDeps,
  siteId: string,
  now: number,
  rows: RebuildRow[],
  marks: { sdk: Set<string> },
): Promise<void> {
  const h = deps.hotState;
  const counts = new Map<string, number>();
  const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  const pairs = new Map<string, Set<string>>();
  const pair = (key: string, window: number, member: string) => {
    const id = `${key}\n${window}`;
    const set = pairs.get(id) ?? new Set<string>();
    pairs.set(id, set);
    set.add(member);
  };
  const recent = new Map<string, number>();
  const remember = (key: string, risk: number) => {
    if (risk > (recent.get(key) ?? 0)) recent.set(key, risk);
  };
  // device id → hardware profile, for server-side events whose token was issued before the restart.
  const hardware = new Map<string, string>();
  const nonces = new Map<string, number>();
  const sdkMarks = new Set<string>();
  for (const r of rows) {
    const age = now - r.created_at;
    // The very operations live scoring ran for this event (counter-ops.ts); the writes still in window.
    const event = counterEventOfRecord(r);
    const ops = counterOps(siteId, event);
    for (const op of rebuildWrites(ops, age)) {
      if (op.kind === 'hit') add(`${op.key}\n${op.window}`);
      else if (op.kind === 'sdk') sdkMarks.add(op.key);
      else if (op.member !== null) pair(op.key, op.window, op.member);
    }
    const nonce = NONCE_VALUE.exec(r.features)?.[1];
    if (nonce && !nonces.has(nonce)) nonces.set(nonce, NONCE_TTL_MS - age);
    const profile = event.hardwareProfile;
    if (profile && r.device_id && !hardware.has(r.device_id)) hardware.set(r.device_id, profile);
    // The recent risk live scoring remembered: the evidence risk for the token, its device share for the device.
    if (age < RECENT_RISK_MS) {
      const signals = JSON.parse(r.signals) as Signal[];
      const risk = Math.round(deps.risk.token(signals));
      const deviceRisk = Math.round(deps.risk.device(signals));
      for (const op of ops) {
        if (op.kind !== 'get') continue;
        const carried = op.field === 'device_recent_risk' ? deviceRisk : risk;
        if (carried > 0) remember(op.key, carried);
      }
    }
  }
  const work: unknown[] = [];
  for (const [key, amount] of counts) {
    const [name, window] = key.split('\n') as [string, string];
    work.push(h.hit(name, Number(window), amount));
  }
  for (const [id, members] of pairs) {
    const [key, window] = id.split('\n') as [string, string];
    for (const m of members) work.push(h.distinct(key, m, Number(window)));
  }
  // Newer pages came first: a device's profile and a key's recent risk from them stand.
  for (const [device, profile] of hardware) {
    const key = hardwareMapKey(siteId, device);
    work.push(Promise.resolve(h.get(key)).then((known) => known ?? h.set(key, profile, HARDWARE_MAP_TTL_MS)));
  }
  for (const [key, risk] of recent) {
    work.push(
      Promise.resolve(h.get(key)).then((known) =>
        Number(known ?? 0) >= risk ? null : h.set(key, String(risk), RECENT_RISK_MS),
      ),
    );
  }
  for (const key of sdkMarks) {
    if (marks.sdk.has(key)) continue;
    marks.sdk.add(key);
    work.push(h.set(key, '1', SDK_SEEN_MS));
  }
  for (const [literal, ttl] of nonces) work.push(h.claimOnce(nonceKey(siteId, JSON.parse(literal)), ttl));
  await Promise.all(work);
}

async function rebuildDevices(deps: RebuildDeps, siteId: string, now: number): Promise<void> {
  const rows = await deps.decisions.deviceTotals(siteId, now - DEVICE_WINDOW, REBUILD_LIMIT);
  const h = deps.hotState;
  await Promise.all(
    rows.flatMap((r) => [
      recordFirstSeen(h, siteId, r.device_id, Number(r.first)),
      h.hit(`devn:${siteId}:${r.device_id}`, DEVICE_WINDOW, Number(r.n)),
      Number(r.bad) > 0 ? h.hit(`devbad:${siteId}:${r.device_id}`, DEVICE_WINDOW, Number(r.bad)) : null,
    ]),
  );
}
