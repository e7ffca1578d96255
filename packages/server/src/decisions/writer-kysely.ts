import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import type { DB } from '../storage/db.ts';
import type { StatementRunner } from './writer-thread.ts';

/**
 * A Kysely whose statements run through `run` (the decision writer thread's connection), one at a
 * time in the order given, each its own transaction. Kysely transactions are refused: a statement
 * sent to the thread cannot hold its lock across messages.
 */
export function kyselyOnRunner(run: StatementRunner): Kysely<DB> {
  const connection: DatabaseConnection = {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      const result = await run(query.sql, query.parameters);
      return {
        rows: result.rows as R[],
        ...(result.changes === undefined ? {} : { numAffectedRows: BigInt(result.changes) }),
        ...(result.lastInsertRowid === undefined ? {} : { insertId: BigInt(result.lastInsertRowid) }),
      };
    },
    // biome-ignore lint/correctness/useYield: streaming is refused before the first row.
    async *streamQuery() {
      throw new Error('no streaming on the decision writer thread');
    },
  };
  const noTransactions = async () => {
    throw new Error('no transactions on the decision writer thread: send single statements');
  };
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: noTransactions,
    commitTransaction: noTransactions,
    rollbackTransaction: noTransactions,
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  return new Kysely<DB>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => driver,
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
}
