import type { Migration, MigrationProvider } from 'kysely';
import { core } from './001_core.ts';
import { decisions } from './002_decisions.ts';
import type { Dialect } from './types.ts';

/** Versioned migrations, in order. Never edit one that has shipped: add the next. */
export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return {
        '001_core': core(dialect),
        '002_decisions': decisions(dialect),
      };
    },
  };
}
