import type { WriterMetrics } from '../metrics.ts';
import type { Database } from '../storage/db.ts';
import type { OutboxSignal } from '../webhooks/outbox.ts';
import type { DecisionLog } from './decision-log.ts';
import type { RemoteCommit } from './decision-writer.ts';
import { PostgresDecisionLog, SqliteDecisionLog } from './kysely-decision-log.ts';

/**
 * The decision log of `database`, in its dialect. With `remote` (a `serve --workers` worker on the
 * embedded default) its decisions are committed by the primary's writer instead. `metrics`: where
 * its writer reports its group commits and WAL checkpoints.
 */
export function openDecisionLog(
  database: Database,
  outbox: OutboxSignal,
  remote?: RemoteCommit,
  metrics?: WriterMetrics,
): DecisionLog {
  return database.dialect === 'postgres'
    ? new PostgresDecisionLog(database, outbox, remote, metrics)
    : new SqliteDecisionLog(database, outbox, remote, metrics);
}
