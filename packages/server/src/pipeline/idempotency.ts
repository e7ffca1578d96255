import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { IDEMPOTENCY_RETENTION_MS, recordedKeyState } from '../decisions/key-queries.ts';
import { type PackedColumns, unpackDecision } from '../decisions/packed-row.ts';
import { ApiError } from '../errors.ts';
import type { HotState } from '../state/hot-state.ts';
import type { Database, DB } from '../storage/db.ts';
import type { IdempotencyKeysTable } from '../storage/scoring-schema.ts';
import { bodyDigest, DIGEST_PREFIX } from './body-digest.mjs';
import { canonicalBodyHash } from './canonical-json.mjs';

/**
 * Idempotency of the scoring routes (SPEC §3).
 * - In flight: the first request takes the hot-state lock of `(site, route, key)` (in process by
 *   default, shared by every process with Redis), naming its body hash. Anyone else gets 409:
 *   `idempotency_in_progress` for the same body, `idempotency_conflict` for another.
 * - Recorded: the key's row is written in the decision's own transaction (decision-writer.ts),
 *   so a key row always has its decision. A later request finds it and replays the decision, or
 *   gets `idempotency_conflict` for another body. After 24 h the key is free again.
 * - The row's insert only takes a key that is free (none, or older than 24 h). If it was taken
 *   meanwhile (the lock expired, or processes that share no hot state), the decision is not
 *   recorded and the request answers as a latecomer: one key, one decision, whatever happens.
 * The insert and the lookup read the key's decision, so they live with the decision log
 * (decisions/key-queries.ts).
 */
export type IdempotencyRoute = 'collect' | 'verify';

/**
 * The in-flight lock is a lease: taken for IN_FLIGHT_LEASE_MS and renewed every third of it while
 * the request runs, so a request may take as long as it needs, and the key of a process that died
 * mid-request is free again within IN_FLIGHT_LEASE_MS (docs/idempotency: 409 for at most 5 s).
 */
export const IN_FLIGHT_LEASE_MS = 5_000;

export interface LeaseOptions {
  leaseMs: number;
  renewEveryMs: number;
}
const DEFAULT_LEASE: LeaseOptions = { leaseMs: IN_FLIGHT_LEASE_MS, renewEveryMs: IN_FLIGHT_LEASE_MS / 3 };

export interface IdempotencyScope {
  siteId: string;
  route: IdempotencyRoute;
  key: string;
}

/** A request that owns its key: written with the decision, then the lock is given back. */
export interface OwnedKey {
  row: IdempotencyKeysTable;
  release(): Promise<void>;
}

type IdempotencyOutcome =
  | { kind: 'owned'; key: OwnedKey }
  /** `response`: the recorded Decision JSON. */
  | { kind: 'replay'; response: string };

export { canonicalBodyHash, canonicalJson } from './canonical-json.mjs';

/**
 * A request body's idempotency hash: `current` (bodyDigest: cheap, from the parsed body) is what
 * new keys record; `older()` is the form keys recorded before it (canonicalBodyHash: canonical
 * JSON text, costly), computed only when a recorded key's hash is of that form and differs.
 */
export interface BodyHash {
  current: string;
  older(): string;
}

export function bodyHashOf(body: unknown): BodyHash {
  let older: string | undefined;
  return {
    current: bodyDigest(body),
    older: () => {
      older ??= canonicalBodyHash(body);
      return older;
    },
  };
}

/** Whether a recorded key's hash names this body (either form). */
function sameBody(recorded: string, body: BodyHash): boolean {
  if (recorded === body.current) return true;
  return !recorded.startsWith(DIGEST_PREFIX) && recorded === body.older();
}

export const idempotencyInProgress = () =>
  new ApiError(
    'idempotency_in_progress',
    'A request with this idempotency_key is still being processed; retry shortly.',
  );
const conflict = () =>
  new ApiError('idempotency_conflict', 'This idempotency_key was already used with a different body.');

/**
 * The recorded decision of a key, if any, as the answer to a request with `bodyHash`: a replay,
 * 409 `idempotency_conflict`, or undefined when the key is free (never used, or past 24 h).
 */
export async function recordedKey(
  db: Kysely<DB>,
  scope: IdempotencyScope,
  body: BodyHash,
  now: number,
): Promise<Extract<IdempotencyOutcome, { kind: 'replay' }> | undefined> {
  const [row] = (await recordedKeyState(db, scope)).rows;
  if (!row || row.id === null || now - Number(row.key_created_at) >= IDEMPOTENCY_RETENTION_MS)
    return undefined;
  if (!sameBody(row.body_hash, body)) throw conflict();
  return { kind: 'replay', response: unpackDecision(row as PackedColumns).response };
}

/** Take the key for a new decision `decisionId`, or answer from what holds it (see above). */
/** What claiming a key uses: the hot-state lock, the recorded keys, a logger for lease renewals. */
export interface IdempotencyDeps {
  readonly hotState: Pick<HotState, 'lock' | 'renew' | 'unlock'>;
  readonly database: Pick<Database, 'db'>;
  readonly logger: Pick<Logger, 'warn'>;
}

export async function beginIdempotent(
  ctx: IdempotencyDeps,
  scope: IdempotencyScope,
  body: BodyHash,
  decisionId: string,
  now: number,
  lease: LeaseOptions = DEFAULT_LEASE,
): Promise<IdempotencyOutcome> {
  const lock = idempotencyLockKey(scope);
  const bodyHash = body.current;
  // (Processes of two versions during an upgrade name one body differently in the lock: a
  // duplicate in flight there is answered as a conflict instead of "in progress", both 409.)
  const holder = `${bodyHash}:${decisionId}`;
  const held = await ctx.hotState.lock(lock, holder, lease.leaseMs);
  if (held !== null)
    throw held === '' || held.startsWith(`${bodyHash}:`) ? idempotencyInProgress() : conflict();
  // Renewed while this process works on the request; a renewal that fails is only logged (the
  // decision's own key insert still guarantees one decision per key).
  const renewal = setInterval(() => {
    ctx.hotState.renew(lock, holder, lease.leaseMs).catch((err: unknown) => {
      ctx.logger.warn({ err }, 'idempotency lease renewal failed');
    });
  }, lease.renewEveryMs);
  renewal.unref();
  const release = () => {
    clearInterval(renewal);
    return ctx.hotState.unlock(lock, holder);
  };
  try {
    const recorded = await recordedKey(ctx.database.db, scope, body, now);
    if (recorded) {
      await release();
      return recorded;
    }
  } catch (err) {
    await release();
    throw err;
  }
  const row: IdempotencyKeysTable = {
    site_id: scope.siteId,
    route: scope.route,
    key: scope.key,
    body_hash: bodyHash,
    decision_id: decisionId,
    created_at: now,
  };
  return { kind: 'owned', key: { row, release } };
}

/** The hot-state lock of an idempotency key while a request with it is in flight. */
export function idempotencyLockKey(scope: IdempotencyScope): string {
  return `idem:${scope.siteId}:${scope.route}:${scope.key}`;
}
