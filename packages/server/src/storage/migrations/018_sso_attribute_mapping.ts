import type { Kysely } from 'kysely';
import type { Dialect } from './types.ts';

/**
 * SSO interoperability: which SAML attributes carry a person's e-mail and name (JSON, null = the
 * common names recognised by default).
 */
export function ssoAttributeMapping(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('sso_configs').addColumn('attribute_mapping', 'text').execute();
    },
  };
}
