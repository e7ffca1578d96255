import { type Kysely, type OnConflictBuilder, type RawBuilder, sql } from 'kysely';
import type { DB } from '../storage/db.ts';
import { deleteExpiredRows } from '../storage/expired-rows.ts';
import { precompiled } from '../storage/precompiled.ts';
import type { IdempotencyKeysTable } from '../storage/scoring-schema.ts';
import { PACKED_COLUMNS } from './packed-row.ts';

/**
 * Every query of the `idempotency_keys` table (pipeline/idempotency.ts explains the keys): the key
 * row is written in its decision's commit, and a key is only as taken as its decision is recorded,
 * so these join or test the `decisions` table and live with its owner.
 */

/** How long a recorded key holds (SPEC §3): after 24 h the key is free again. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

/** A key row written before this time is free again for a request made at `now` (see takeKeyQuery). */
export function keyFreeBefore(now: number): number {
  return now - IDEMPOTENCY_RETENTION_MS;
}

/**
 * A key's body hash and age (`key_created_at`), with the columns of its decision's answer
 * (`unpackDecision(row).response`; `id` null: none recorded).
 */
export const recordedKeyState = precompiled((db, arg: (name: 'siteId' | 'route' | 'key') => string) =>
  db
    .selectFrom('idempotency_keys as k')
    .leftJoin('decisions as d', 'd.id', 'k.decision_id')
    .select([
      'k.body_hash',
      'k.created_at as key_created_at',
      ...PACKED_COLUMNS.map((c) => `d.${c}` as const),
    ])
    .where('k.site_id', '=', arg('siteId'))
    .where('k.route', '=', arg('route'))
    .where('k.key', '=', arg('key')),
);

/**
 * The key row's insert, run in the decision's transaction: takes a free key only (none yet, past
 * 24 h, or left without its decision by an older version). No row changed ⇒ the key is taken.
 */
export function takeKeyQuery(db: Kysely<DB>, row: IdempotencyKeysTable, freeBefore: number) {
  return db
    .insertInto('idempotency_keys')
    .values(row)
    .onConflict((oc) => takeFreeKey(oc, freeBefore));
}

/**
 * PostgreSQL: `takeKeyQuery` for several keys at once (no two the same: one statement cannot
 * update a row twice), each row free before its own `created_at` less the retention, as
 * `keyFreeBefore` says. Returns the decision ids of the keys taken.
 */
export function takeKeysQuery(db: Kysely<DB>, rows: readonly IdempotencyKeysTable[], retentionMs: number) {
  return db
    .insertInto('idempotency_keys')
    .values(rows as IdempotencyKeysTable[])
    .onConflict((oc) =>
      takeFreeKey(oc, sql<number>`${sql.ref('excluded.created_at')} - ${sql.lit(retentionMs)}`),
    )
    .returning('idempotency_keys.decision_id');
}

function takeFreeKey(oc: OnConflictBuilder<DB, 'idempotency_keys'>, freeBefore: number | RawBuilder<number>) {
  return oc
    .columns(['site_id', 'route', 'key'])
    .doUpdateSet((eb) => ({
      body_hash: eb.ref('excluded.body_hash'),
      decision_id: eb.ref('excluded.decision_id'),
      created_at: eb.ref('excluded.created_at'),
    }))
    .where((eb) =>
      eb.or([
        eb('idempotency_keys.created_at', '<', freeBefore),
        eb.not(
          eb.exists(
            eb
              .selectFrom('decisions')
              .select('decisions.id')
              .whereRef('decisions.id', '=', 'idempotency_keys.decision_id'),
          ),
        ),
      ]),
    );
}

/** Forgets the key rows written before `before` (the sweeper's, in chunks: storage/expired-rows.ts). */
export function deleteKeysBefore(db: Kysely<DB>, before: number): Promise<number> {
  return deleteExpiredRows(db, { table: 'idempotency_keys', column: 'created_at' }, before);
}

/** Forget keys past the 24 h retention. */
export function sweepIdempotencyKeys(db: Kysely<DB>, now: number): Promise<number> {
  return deleteKeysBefore(db, now - IDEMPOTENCY_RETENTION_MS);
}
