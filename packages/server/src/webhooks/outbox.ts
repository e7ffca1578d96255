import type { Transaction } from 'kysely';
import type { DB } from '../storage/db.ts';
import type { DecisionsTable } from '../storage/scoring-schema.ts';

/**
 * Called by the scoring routes inside the transaction that records a decision: writes the
 * `decision.created` outbox row when the site's webhook is enabled and the plan allows it.
 * (Contract owned by the webhooks work; the scoring work only calls it.)
 */
export async function enqueueDecisionCreated(_trx: Transaction<DB>, _decision: DecisionsTable): Promise<void> {}
