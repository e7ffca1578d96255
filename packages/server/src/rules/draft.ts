import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import type { RulesTable } from '../storage/rules-schema.ts';
import { compileExpression } from './cel.ts';
import { buildRuleset, type Ruleset } from './ruleset.ts';
import type { BacktestBody } from './schemas.ts';

/** The rule set a backtest runs: the saved rules (unless excluded) with the drafts laid over them by name. */
export async function draftRuleset(
  ctx: AppContext,
  siteId: string,
  body: Static<typeof BacktestBody>,
): Promise<Ruleset> {
  const drafts = body.rules ?? [];
  const details = drafts.flatMap((d, i) => {
    const compiled = compileExpression(d.expression, `body.rules.${i}.expression`);
    const problems = compiled.ok ? [] : compiled.details;
    if ((d.score ?? null) === null && (d.action ?? null) === null) {
      problems.push({ path: `body.rules.${i}.score`, message: 'score or action is required' });
    }
    return problems;
  });
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
  const draftRows: RulesTable[] = drafts.map((d, i) => ({
    id: `draft_${i}`,
    site_id: siteId,
    name: d.name,
    description: d.description ?? '',
    enabled: d.enabled === false ? 0 : 1,
    mode: d.mode ?? 'live',
    event_types: JSON.stringify(d.eventTypes ?? []),
    expression: d.expression,
    score: d.score ?? null,
    action: d.action ?? null,
    priority: d.priority ?? 0,
    created_at: now + i,
    updated_at: now + i,
  }));
  const draftNames = new Set(drafts.map((d) => d.name));
  return buildRuleset([...saved.filter((r) => !draftNames.has(r.name)), ...draftRows], lists);
}
