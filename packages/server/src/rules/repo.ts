import { randomBytes } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import type { ListCreateBody, RuleCreateBody, RulePatchBody } from '@warden/protocol/management';
import { MAX_LIST_ENTRIES, MAX_RULES_PER_SITE } from '@warden/protocol/management';
import type { Kysely } from 'kysely';
import { ApiError, type ErrorDetail } from '../errors.ts';
import type { Database, DB } from '../storage/db.ts';
import type { ListKind, ListsTable, RulesTable } from '../storage/rules-schema.ts';
import { compileExpression } from './cel.ts';
import { entryError, normaliseEntry } from './lists.ts';
import type { RuleStore } from './store.ts';

const iso = (ms: number) => new Date(ms).toISOString();

export function ruleView(row: RulesTable) {
  return {
    id: row.id,
    siteId: row.site_id,
    name: row.name,
    description: row.description,
    enabled: row.enabled === 1,
    mode: row.mode,
    eventTypes: JSON.parse(row.event_types) as string[],
    expression: row.expression,
    score: row.score,
    action: row.action,
    priority: row.priority,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export function listView(row: ListsTable) {
  const entries = JSON.parse(row.entries) as string[];
  return {
    id: row.id,
    siteId: row.site_id,
    name: row.name,
    kind: row.kind,
    type: row.type,
    size: entries.length,
    entries,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** 400 with the CEL error when the expression does not compile, and the effect rules. */
/** What is wrong with a rule's expression and effect, with paths under `prefix` (`body`, `body.rules.3`). */
export function ruleProblems(
  rule: { expression: string; score: number | null; action: string | null },
  prefix = 'body',
): ErrorDetail[] {
  const compiled = compileExpression(rule.expression, `${prefix}.expression`);
  const problems = compiled.ok ? [] : [...compiled.details];
  if (rule.score === null && rule.action === null) {
    problems.push({ path: `${prefix}.score`, message: 'score or action is required' });
  }
  return problems;
}

/** 400 with the CEL error when the expression does not compile, else when the rule has no effect. */
export function checkRule(rule: { expression: string; score: number | null; action: string | null }): void {
  const problems = ruleProblems(rule);
  const expression = problems.filter((p) => p.path.endsWith('.expression'));
  if (expression.length > 0) {
    throw new ApiError(
      'validation_failed',
      `The expression does not compile: ${expression[0]?.message}`,
      expression,
    );
  }
  if (problems.length > 0)
    throw new ApiError('validation_failed', 'A rule needs a score, an action or both.', problems);
}

/** A rules row from the fields of a create body (saved rules and backtest drafts alike). */
export function newRuleRow(
  siteId: string,
  body: Static<typeof RuleCreateBody>,
  id: string,
  now: number,
): RulesTable {
  return {
    id,
    site_id: siteId,
    name: body.name,
    description: body.description ?? '',
    enabled: body.enabled === false ? 0 : 1,
    mode: body.mode ?? 'live',
    event_types: JSON.stringify(body.eventTypes ?? []),
    expression: body.expression,
    score: body.score ?? null,
    action: body.action ?? null,
    priority: body.priority ?? 0,
    created_at: now,
    updated_at: now,
  };
}

/**
 * What a rule or list change writes with: the database (an audited change's transaction), the
 * clock, and the compiled rule sets it invalidates.
 */
export interface RuleWriteDeps {
  readonly database: Pick<Database, 'db'>;
  now(): number;
  readonly services: { readonly rules: Pick<RuleStore, 'invalidate'> };
}

async function nameTaken(
  ctx: Pick<RuleWriteDeps, 'database'>,
  table: 'rules' | 'lists',
  siteId: string,
  name: string,
  exceptId?: string,
) {
  let q = ctx.database.db
    .selectFrom(table)
    .select('id')
    .where('site_id', '=', siteId)
    .where('name', '=', name);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function createRule(ctx: RuleWriteDeps, siteId: string, body: Static<typeof RuleCreateBody>) {
  checkRule({ score: body.score ?? null, action: body.action ?? null, expression: body.expression });
  const { db } = ctx.database;
  const count = await db
    .selectFrom('rules')
    .select(db.fn.countAll<number>().as('n'))
    .where('site_id', '=', siteId)
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= MAX_RULES_PER_SITE)
    throw new ApiError('conflict', `A site has at most ${MAX_RULES_PER_SITE} rules.`);
  if (await nameTaken(ctx, 'rules', siteId, body.name))
    throw new ApiError('conflict', `A rule named "${body.name}" exists on this site.`);
  const now = ctx.now();
  const row = newRuleRow(siteId, body, `rule_${randomBytes(10).toString('hex')}`, now);
  await db.insertInto('rules').values(row).execute();
  ctx.services.rules.invalidate(siteId);
  return row;
}

export async function updateRule(ctx: RuleWriteDeps, row: RulesTable, patch: Static<typeof RulePatchBody>) {
  const next: RulesTable = {
    ...row,
    ...(patch.name !== undefined && { name: patch.name }),
    ...(patch.description !== undefined && { description: patch.description }),
    ...(patch.enabled !== undefined && { enabled: patch.enabled ? 1 : 0 }),
    ...(patch.mode !== undefined && { mode: patch.mode }),
    ...(patch.eventTypes !== undefined && { event_types: JSON.stringify(patch.eventTypes) }),
    ...(patch.expression !== undefined && { expression: patch.expression }),
    ...(patch.score !== undefined && { score: patch.score }),
    ...(patch.action !== undefined && { action: patch.action }),
    ...(patch.priority !== undefined && { priority: patch.priority }),
    updated_at: Math.max(ctx.now(), row.updated_at + 1),
  };
  checkRule(next);
  if (next.name !== row.name && (await nameTaken(ctx, 'rules', row.site_id, next.name, row.id))) {
    throw new ApiError('conflict', `A rule named "${next.name}" exists on this site.`);
  }
  const { id, site_id, created_at, ...changes } = next;
  await ctx.database.db.updateTable('rules').set(changes).where('id', '=', id).execute();
  ctx.services.rules.invalidate(site_id);
  return next;
}

export async function deleteRule(ctx: RuleWriteDeps, row: RulesTable): Promise<void> {
  await ctx.database.db.deleteFrom('rules').where('id', '=', row.id).execute();
  ctx.services.rules.invalidate(row.site_id);
}

function checkedEntries(kind: ListKind, entries: readonly string[], path: string): string[] {
  const details = entries
    .map((e, i) => ({ e, i, problem: entryError(kind, e) }))
    .filter((x) => x.problem !== null)
    .slice(0, 20)
    .map((x) => ({ path: `${path}.${x.i}`, message: `"${x.e}" ${x.problem}` }));
  if (details.length > 0)
    throw new ApiError('validation_failed', `Invalid list entry: ${details[0]?.message}`, details);
  return [...new Set(entries.map((e) => (e.includes('/') ? e.trim() : normaliseEntry(kind, e))))];
}

export async function createList(ctx: RuleWriteDeps, siteId: string, body: Static<typeof ListCreateBody>) {
  const entries = checkedEntries(body.kind, body.entries ?? [], 'body.entries');
  if (await nameTaken(ctx, 'lists', siteId, body.name))
    throw new ApiError('conflict', `A list named "${body.name}" exists on this site.`);
  const now = ctx.now();
  const row: ListsTable = {
    id: `list_${randomBytes(10).toString('hex')}`,
    site_id: siteId,
    name: body.name,
    kind: body.kind,
    type: body.type,
    entries: JSON.stringify(entries),
    created_at: now,
    updated_at: now,
  };
  await ctx.database.db.insertInto('lists').values(row).execute();
  ctx.services.rules.invalidate(siteId);
  return row;
}

export async function updateListEntries(
  ctx: RuleWriteDeps,
  row: ListsTable,
  patch: { entries?: string[]; add?: string[]; remove?: string[] },
) {
  let entries = patch.entries
    ? checkedEntries(row.kind, patch.entries, 'body.entries')
    : (JSON.parse(row.entries) as string[]);
  if (patch.add) entries = [...new Set([...entries, ...checkedEntries(row.kind, patch.add, 'body.add')])];
  if (patch.remove) {
    const gone = new Set(patch.remove.map((e) => (e.includes('/') ? e.trim() : normaliseEntry(row.kind, e))));
    entries = entries.filter((e) => !gone.has(e));
  }
  if (entries.length > MAX_LIST_ENTRIES)
    throw new ApiError('validation_failed', `A list holds at most ${MAX_LIST_ENTRIES} entries.`, [
      { path: 'body.add', message: 'too many entries' },
    ]);
  const next = {
    ...row,
    entries: JSON.stringify(entries),
    updated_at: Math.max(ctx.now(), row.updated_at + 1),
  };
  await ctx.database.db
    .updateTable('lists')
    .set({ entries: next.entries, updated_at: next.updated_at })
    .where('id', '=', row.id)
    .execute();
  ctx.services.rules.invalidate(row.site_id);
  return next;
}

export async function deleteList(ctx: RuleWriteDeps, row: ListsTable): Promise<void> {
  await ctx.database.db.deleteFrom('lists').where('id', '=', row.id).execute();
  ctx.services.rules.invalidate(row.site_id);
}

export function findRule(db: Kysely<DB>, id: string): Promise<RulesTable | undefined> {
  return db.selectFrom('rules').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A site's rules, highest priority first (then oldest first). */
export function rulesOfSite(db: Kysely<DB>, siteId: string): Promise<RulesTable[]> {
  return db
    .selectFrom('rules')
    .selectAll()
    .where('site_id', '=', siteId)
    .orderBy('priority', 'desc')
    .orderBy('created_at', 'asc')
    .execute();
}

export function findList(db: Kysely<DB>, id: string): Promise<ListsTable | undefined> {
  return db.selectFrom('lists').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A site's lists by name. */
export function listsOfSite(db: Kysely<DB>, siteId: string): Promise<ListsTable[]> {
  return db.selectFrom('lists').selectAll().where('site_id', '=', siteId).orderBy('name').execute();
}
