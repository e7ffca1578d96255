import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ApiError } from '../errors.ts';
import type { DB } from '../storage/db.ts';

/**
 * Idempotency of the scoring routes (SPEC §3), atomic across processes through the database.
 * The first request inserts the `(site, route, key)` row with the decision id it will record
 * under (the primary key decides the race), then scores. The key completes atomically with the
 * decision: the recording transaction inserts that decision row, nothing else needs updating.
 * Everyone else finds the row: a different body → 409 `idempotency_conflict`; the decision not
 * there yet → 409 `idempotency_in_progress`; the decision there → it is replayed.
 */
export type IdempotencyRoute = 'collect' | 'verify';

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/** An in-flight row older than this belongs to a crashed process and may be taken over. */
export const IN_FLIGHT_TIMEOUT_MS = 60 * 1000;

export interface IdempotencyScope {
  siteId: string;
  route: IdempotencyRoute;
  key: string;
}

/** Proof that this request owns the key: the row as it was written. */
export interface IdempotencyClaim extends IdempotencyScope {
  bodyHash: string;
  /** The id the decision will be recorded under. */
  decisionId: string;
  createdAt: number;
}

export type IdempotencyOutcome =
  | { kind: 'claimed'; claim: IdempotencyClaim }
  /** `response`: the recorded Decision JSON. */
  | { kind: 'replay'; decisionId: string; response: string };

/** JSON with object keys sorted at every depth: equal after parsing ⇔ equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      const item: unknown = value[i];
      out += item === undefined ? 'null' : canonicalJson(item);
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  let out = '{';
  for (const key of Object.keys(record).sort()) {
    const item = record[key];
    if (item === undefined) continue;
    if (out.length > 1) out += ',';
    out += `${JSON.stringify(key)}:${canonicalJson(item)}`;
  }
  return `${out}}`;
}

export function canonicalBodyHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

export async function claimIdempotencyKey(
  db: Kysely<DB>,
  scope: IdempotencyScope,
  bodyHash: string,
  decisionId: string,
  now: number,
): Promise<IdempotencyOutcome> {
  const claim: IdempotencyClaim = { ...scope, bodyHash, decisionId, createdAt: now };
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await db
      .insertInto('idempotency_keys')
      .values({
        site_id: scope.siteId,
        route: scope.route,
        key: scope.key,
        body_hash: bodyHash,
        decision_id: decisionId,
        created_at: now,
      })
      .onConflict((oc) => oc.columns(['site_id', 'route', 'key']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return { kind: 'claimed', claim };

    const existing = await db
      .selectFrom('idempotency_keys as k')
      .leftJoin('decisions as d', 'd.id', 'k.decision_id')
      .select(['k.body_hash', 'k.decision_id', 'k.created_at', 'd.response'])
      .where('k.site_id', '=', scope.siteId)
      .where('k.route', '=', scope.route)
      .where('k.key', '=', scope.key)
      .executeTakeFirst();
    if (!existing) continue;
    const complete = existing.response !== null;
    const age = now - Number(existing.created_at);
    if (age >= (complete ? IDEMPOTENCY_RETENTION_MS : IN_FLIGHT_TIMEOUT_MS)) {
      const taken = await db
        .updateTable('idempotency_keys')
        .set({ body_hash: bodyHash, decision_id: decisionId, created_at: now })
        .where('site_id', '=', scope.siteId)
        .where('route', '=', scope.route)
        .where('key', '=', scope.key)
        .where('decision_id', '=', existing.decision_id)
        .where('created_at', '=', existing.created_at)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) > 0) return { kind: 'claimed', claim };
      continue;
    }
    if (existing.body_hash !== bodyHash) {
      throw new ApiError(
        'idempotency_conflict',
        'This idempotency_key was already used with a different body.',
      );
    }
    if (existing.response === null) {
      throw new ApiError(
        'idempotency_in_progress',
        'A request with this idempotency_key is still being processed; retry shortly.',
      );
    }
    return { kind: 'replay', decisionId: existing.decision_id, response: existing.response };
  }
  throw new ApiError('idempotency_in_progress', 'This idempotency_key is contended; retry shortly.');
}

/** Scoring or recording failed: give the key back so that a retry can proceed. */
export async function releaseIdempotencyKey(db: Kysely<DB>, claim: IdempotencyClaim): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('site_id', '=', claim.siteId)
    .where('route', '=', claim.route)
    .where('key', '=', claim.key)
    .where('decision_id', '=', claim.decisionId)
    .execute();
}

/** Forget keys past the 24 h retention. */
export async function sweepIdempotencyKeys(db: Kysely<DB>, now: number): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', now - IDEMPOTENCY_RETENTION_MS)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
