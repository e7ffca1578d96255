import { randomUUID } from 'node:crypto';
import { insertDecisionRows } from '../decisions/decision-insert.ts';
import type { Database } from '../storage/db.ts';
import type { DecisionsTable } from '../storage/scoring-schema.ts';
import type { IdentityEvent } from './identity-graph.ts';

/**
 * Decisions carrying only what the identity graph reads, written straight to the database (for
 * identity tests and `bench/identity.ts`), 500 rows per insert. The site row must exist.
 */
export async function insertIdentityRows(
  database: Database,
  site: { id: string; workspace_id: string },
  events: readonly IdentityEvent[],
): Promise<void> {
  for (let i = 0; i < events.length; i += 500) {
    const rows: DecisionsTable[] = events.slice(i, i + 500).map((e) => ({
      id: randomUUID(),
      site_id: site.id,
      workspace_id: site.workspace_id,
      event_type: 'login',
      account_id: e.accountId,
      email: null,
      ip_address: e.ip,
      user_agent: '',
      device_id: e.deviceId,
      payment_hash: e.paymentHash || null,
      promo_code: null,
      order_amount: null,
      risk_score: 0,
      risk_level: 'low',
      classification: 'human',
      action: 'allow',
      signals: '[]',
      features: '{}',
      evidence: '{}',
      response: '{}',
      ruleset_version: 'rs_test',
      decision_ms: 0,
      label: null,
      labeled_at: null,
      created_at: e.at,
    }));
    await insertDecisionRows(database.db, rows);
  }
}

/** An event with only the given attributes set. */
export function identityEvent(
  accountId: string,
  o: { d?: string; p?: string; ip?: string; at?: number } = {},
): IdentityEvent {
  return { accountId, deviceId: o.d ?? '', paymentHash: o.p ?? '', ip: o.ip ?? '', at: o.at ?? 1 };
}
