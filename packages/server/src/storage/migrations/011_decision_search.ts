import { type Kysely, sql } from 'kysely';
import type { Dialect } from './types.ts';

/**
 * Indexes for the decision search (GET /api/decisions filters, entity summaries): e-mail
 * (case-insensitive), payment hash and promo code per site. Partial (non-null values only), so
 * the many decisions without them cost the scoring write path nothing.
 */
export function decisionSearch(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`create index decisions_site_email on decisions (site_id, lower(email)) where email is not null`.execute(
        db,
      );
      await sql`create index decisions_site_payment on decisions (site_id, payment_hash) where payment_hash is not null`.execute(
        db,
      );
      await sql`create index decisions_site_promo on decisions (site_id, promo_code) where promo_code is not null`.execute(
        db,
      );
    },
  };
}
