import type { Static } from '@sinclair/typebox';
import type { BacktestBody } from '@warden/protocol/management';
import { ApiError } from '../errors.ts';
import type { Database } from '../storage/db.ts';
import { newRuleRow, ruleProblems } from './repo.ts';
import { buildRuleset, type Ruleset } from './ruleset.ts';

/** The rule set a backtest runs: the saved rules (unless excluded) with the drafts laid over them by name. */
export async function draftRuleset(
  ctx: { readonly database: Pick<Database, 'db'>; now(): number },
  siteId: string,
  body: Static<typeof BacktestBody>,
): Promise<Ruleset> {
  const drafts = body.rules ?? [];
  const details = drafts.flatMap((d, i) =>
    ruleProblems(
      { expression: d.expression, score: d.score ?? null, action: d.action ?? null },
      `body.rules.${i}`,
    ),
  );
  if (details.length > 0)
    throw new ApiError(
      'validation_failed',
      `Draft rule does not compile: ${details[0]?.path} ${details[0]?.message}`,
      details,
    );
  const { db } = ctx.database;
  const [saved, lists] = await Promise.all([
    body.includeExisting === false
      ? []
      : db.selectFrom('rules').selectAll().where('site_id', '=', siteId).execute(),
    db.selectFrom('lists').selectAll().where('site_id', '=', siteId).execute(),
  ]);
  const now = ctx.now();
  const draftRows = drafts.map((d, i) => newRuleRow(siteId, d, `draft_${i}`, now + i));
  const draftNames = new Set(drafts.map((d) => d.name));
  return buildRuleset([...saved.filter((r) => !draftNames.has(r.name)), ...draftRows], lists);
}
