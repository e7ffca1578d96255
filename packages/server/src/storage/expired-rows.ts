import { type Kysely, sql } from 'kysely';
import type { DB } from './db.ts';

/**
 * Rows one statement forgets at most. A sweep of everything expired in one DELETE holds the
 * database's write lock (SQLite: the whole file, against the decision writer's group commits) and,
 * on the main thread's synchronous SQLite connection, the event loop, for as long as it runs: at
 * 1,000 idempotent requests/s ten minutes leave ~600,000 keys, hundreds of milliseconds of work.
 * In chunks, each statement is a few milliseconds and other work runs between them.
 */
export const EXPIRED_ROWS_PER_STATEMENT = 1000;

/** A table whose rows carry their own expiry (an integer time in ms, indexed). */
export type ExpiringTable =
  | { table: 'idempotency_keys'; column: 'created_at' }
  | { table: 'used_challenges'; column: 'expires_at' };

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Deletes the rows of `table` whose `column` is before `before` (exclusive), oldest first, at most
 * about `perStatement` rows a statement (rows sharing the chunk's last time go with it), yielding
 * to the event loop between statements. Returns how many rows went.
 */
export async function deleteExpiredRows(
  db: Kysely<DB>,
  { table, column }: ExpiringTable,
  before: number,
  perStatement = EXPIRED_ROWS_PER_STATEMENT,
  yieldTurn: () => Promise<void> = nextTurn,
): Promise<number> {
  const t = sql.table(table);
  const c = sql.ref(column);
  let deleted = 0;
  for (;;) {
    // The time of the chunk's last row, found on the column's index; none: fewer rows are left.
    const edge = await sql<{ at: number | string }>`
      select ${c} as at from ${t} where ${c} < ${before} order by ${c} limit 1 offset ${perStatement - 1}`.execute(
      db,
    );
    const last = edge.rows[0];
    const result = last
      ? await sql`delete from ${t} where ${c} <= ${Number(last.at)}`.execute(db)
      : await sql`delete from ${t} where ${c} < ${before}`.execute(db);
    deleted += Number(result.numAffectedRows ?? 0);
    if (!last) return deleted;
    await yieldTurn();
  }
}
