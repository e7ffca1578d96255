import type { Kysely } from 'kysely';
import type { Dialect } from './types.ts';

/**
 * The identity cluster each decision was scored in (`identity.cluster_id`, null without the
 * plan), so GET /api/clusters/{id} can list a cluster's accounts, devices, IPs and payments.
 */
export function decisionClusters(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('decisions').addColumn('cluster_id', 'text').execute();
      await db.schema.createIndex('decisions_cluster').on('decisions').column('cluster_id').execute();
    },
  };
}
