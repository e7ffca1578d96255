import { type Kysely, sql } from 'kysely';
import type { Dialect } from './types.ts';

/**
 * The decisions' lookup indexes by account, IP, device, e-mail, payment hash and promo code without
 * the site in front (issue 26: a site id is 36 bytes of every entry of each). Every query that reads
 * them names the site too (decisions/*-queries.ts, search.ts): the key finds the few rows of one
 * account, address or device, and the site is checked on those rows. What a shop's account ids or
 * addresses share with another site's on the same server costs those rows only. The site-ordered
 * index of the lists and the scans (`decisions_site_time_id`), the cluster's, the retention's and the
 * primary key stay as they are.
 */
const REPLACED = [
  ['decisions_site_account', 'decisions_account', sql`(account_id)`],
  ['decisions_site_ip', 'decisions_ip', sql`(ip_address)`],
  ['decisions_site_device', 'decisions_device', sql`(device_id)`],
  ['decisions_site_email', 'decisions_email', sql`(lower(email)) where email is not null`],
  ['decisions_site_payment', 'decisions_payment', sql`(payment_hash) where payment_hash is not null`],
  ['decisions_site_promo', 'decisions_promo', sql`(promo_code) where promo_code is not null`],
] as const;

export function decisionKeyIndexes(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const [old, name, definition] of REPLACED) {
        await db.schema.dropIndex(old).execute();
        await sql`create index ${sql.id(name)} on decisions ${definition}`.execute(db);
      }
    },
  };
}
