import type { Kysely } from 'kysely';
import type { DB } from '../storage/db.ts';
import { deleteExpiredRows } from '../storage/expired-rows.ts';
import { precompiled } from '../storage/precompiled.ts';
import type { IdempotencyKeysTable } from '../storage/scoring-schema.ts';

/**
 * Every query of the `idempotency_keys` table (scoring/idempotency.ts explains the keys): the key
 * row is written in its decision's commit, and a key is only as taken as its decision is recorded,
 * so these join or test the `decisions` table and live with its owner.
 */

/** A key's body hash and age, with its decision's recorded answer (null: none recorded). */
export const recordedKeyState = precompiled((db, arg: (name: 'siteId' | 'route' | 'key') => string) =>
  db
    .selectFrom('idempotency_keys as k')
    .leftJoin('decisions as d', 'd.id', 'k.decision_id')
    .select(['k.body_hash', 'k.created_at', 'd.response'])
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
    .onConflict((oc) =>
      oc
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
        ),
    );
}

/** Forgets the key rows written before `before` (the sweeper's, in chunks: storage/expired-rows.ts). */
export function deleteKeysBefore(db: Kysely<DB>, before: number): Promise<number> {
  return deleteExpiredRows(db, { table: 'idempotency_keys', column: 'created_at' }, before);
}
