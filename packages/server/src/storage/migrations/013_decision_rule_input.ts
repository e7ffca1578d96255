import type { Kysely } from 'kysely';
import type { Dialect } from './types.ts';

/**
 * The rule input each decision's custom rules saw (scoring/rule-input.ts: typed and versioned
 * JSON), so a backtest replays exactly what live scoring evaluated. Null for decisions recorded
 * before this migration: backtests reconstruct theirs from the other columns, as before.
 */
export function decisionRuleInput(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('decisions').addColumn('rule_input', 'text').execute();
    },
  };
}
