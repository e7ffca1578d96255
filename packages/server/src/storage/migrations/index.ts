import type { Migration, MigrationProvider } from 'kysely';
import { core } from './001_core.ts';
import { decisions } from './002_decisions.ts';
import { webhooks } from './003_webhooks.ts';
import { rules } from './006_rules.ts';
import { sso } from './007_sso.ts';
import { decisionClusters } from './008_decision_clusters.ts';
import { deliverySiteStatus } from './009_delivery_site_status.ts';
import { usedChallenges } from './010_used_challenges.ts';
import { decisionSearch } from './011_decision_search.ts';
import { auditLog } from './012_audit_log.ts';
import { decisionRuleInput } from './013_decision_rule_input.ts';
import { decisionLink } from './014_decision_link.ts';
import { ssoAttributeMapping } from './018_sso_attribute_mapping.ts';
import { invitations } from './019_invitations.ts';
import { ssoMetadataUrl } from './020_sso_metadata_url.ts';
import { pendingDeliveryIndexes } from './021_pending_delivery_indexes.ts';
import { decisionPacked } from './022_decision_packed.ts';
import { decisionRetention } from './023_decision_retention.ts';
import { storageProbe } from './024_storage_probe.ts';
import { entityLabels } from './025_entity_labels.ts';
import { decisionKeyIndexes } from './026_decision_key_indexes.ts';
import type { Dialect } from './types.ts';

/** Versioned migrations, in order. Never edit one that has shipped: add the next. */
export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return {
        '001_core': core(dialect),
        '002_decisions': decisions(dialect),
        '003_webhooks': webhooks(dialect),
        '006_rules': rules(dialect),
        '007_sso': sso(dialect),
        '008_decision_clusters': decisionClusters(dialect),
        '009_delivery_site_status': deliverySiteStatus(dialect),
        '010_used_challenges': usedChallenges(dialect),
        '011_decision_search': decisionSearch(dialect),
        '012_audit_log': auditLog(dialect),
        '013_decision_rule_input': decisionRuleInput(dialect),
        '014_decision_link': decisionLink(dialect),
        '018_sso_attribute_mapping': ssoAttributeMapping(dialect),
        '019_invitations': invitations(dialect),
        '020_sso_metadata_url': ssoMetadataUrl(dialect),
        '021_pending_delivery_indexes': pendingDeliveryIndexes(dialect),
        '022_decision_packed': decisionPacked(dialect),
        '023_decision_retention': decisionRetention(dialect),
        '024_storage_probe': storageProbe(dialect),
        '025_entity_labels': entityLabels(dialect),
        '026_decision_key_indexes': decisionKeyIndexes(dialect),
      };
    },
  };
}
