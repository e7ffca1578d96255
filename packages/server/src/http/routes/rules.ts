import {
  BacktestBody,
  IdParams,
  RuleCreateBody,
  RulePatchBody,
  RuleSchema,
  RuleStatsQuery,
  SiteQuery,
} from '@warden/protocol/management';
import type { Operation } from '@warden/protocol/permissions';
import type { FastifyRequest } from 'fastify';
import { actorOf, audited, siteWorkspaceId } from '../../audit/log.ts';
import { labelResolver } from '../../entities/label-resolver.ts';
import { ApiError } from '../../errors.ts';
import { type BacktestDeps, runBacktest } from '../../rules/backtest.ts';
import { backtestReporter } from '../../rules/backtest-report.ts';
import { draftRuleset } from '../../rules/draft.ts';
import {
  createRule,
  deleteRule,
  findRule,
  type RuleWriteDeps,
  rulesOfSite,
  ruleView,
  updateRule,
} from '../../rules/repo.ts';
import { type RuleStatsDeps, ruleStats } from '../../rules/stats.ts';
import { accessCheck, looseString } from '../access.ts';
import { type AuthDeps, authenticate, principalOf, requireSite } from '../auth.ts';
import { ok } from '../envelope.ts';
import type { App } from '../types.ts';

/** What the rule routes use: the access checks, audited rule writes, backtests and rule statistics. */
export interface RulesDeps extends AuthDeps, RuleWriteDeps, BacktestDeps, RuleStatsDeps {
  readonly database: AuthDeps['database'];
  readonly services: RuleWriteDeps['services'] & BacktestDeps['services'] & RuleStatsDeps['services'];
}

const tags = ['rules'];
const security = [{ bearer: [] }];

/** The rule with that id, if the caller may do `operation` on its site; 404 otherwise. */
async function loadRule(ctx: AuthDeps, request: FastifyRequest, id: string, operation: Operation) {
  const row = await findRule(ctx.database.db, id);
  if (!row) throw new ApiError('not_found', 'Rule not found.');
  try {
    await requireSite(ctx, principalOf(request), row.site_id, operation);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'not_found')
      throw new ApiError('not_found', 'Rule not found.');
    throw err;
  }
  return row;
}

/** Custom rules: GET/POST /api/rules?siteId=, GET/PATCH/DELETE /api/rules/{id}. */
export async function rulesRoutes(app: App, ctx: RulesDeps): Promise<void> {
  app.addHook('onRequest', authenticate(ctx));

  const summary = (text: string) => ({ tags, security, summary: text });
  // SPEC §10: the site (404) and the role (403) before the schema (400). No siteId: the schema's 400.
  const writeSite = accessCheck((request) => {
    const siteId = looseString(request.query, 'siteId');
    return siteId ? requireSite(ctx, principalOf(request), siteId, 'rules.write') : undefined;
  });
  const ruleAccess = (operation: Operation) =>
    accessCheck((request) => loadRule(ctx, request, looseString(request.params, 'id') ?? '', operation));
  const writeRule = ruleAccess('rules.write');
  const readRule = ruleAccess('read');
  app.get(
    '/api/rules',
    { schema: { ...summary('Custom rules of a site, highest priority first'), querystring: SiteQuery } },
    async (request) => {
      await requireSite(ctx, principalOf(request), request.query.siteId, 'read');
      const rows = await rulesOfSite(ctx.database.db, request.query.siteId);
      return ok({ rules: rows.map(ruleView) });
    },
  );

  app.post(
    '/api/rules',
    {
      preValidation: writeSite.preValidation,
      schema: {
        ...summary('Create a custom rule (owner, analyst)'),
        querystring: SiteQuery,
        body: RuleCreateBody,
        response: {
          201: {
            type: 'object',
            properties: { success: { type: 'boolean' }, data: RuleSchema, timestamp: { type: 'string' } },
          },
        },
      },
    },
    async (request, reply) => {
      const { site } = writeSite.of(request);
      const row = await audited(
        ctx,
        await actorOf(ctx, principalOf(request)),
        (tx) => createRule(tx, site.id, request.body),
        (r) => ({
          workspaceId: site.workspace_id,
          siteId: site.id,
          action: 'rule.create',
          targetType: 'rule',
          targetId: r.id,
          after: ruleView(r),
        }),
      );
      ctx.services.rules.invalidate(site.id); // again after the commit
      return reply.status(201).send(ok(ruleView(row)));
    },
  );

  app.get(
    '/api/rules/:id',
    { schema: { ...summary('One custom rule'), params: IdParams } },
    async (request) => {
      return ok(ruleView(await loadRule(ctx, request, request.params.id, 'read')));
    },
  );

  app.patch(
    '/api/rules/:id',
    {
      preValidation: writeRule.preValidation,
      schema: { ...summary('Change a custom rule (owner, analyst)'), params: IdParams, body: RulePatchBody },
    },
    async (request) => {
      const row = writeRule.of(request);
      const workspaceId = await siteWorkspaceId(ctx, row.site_id);
      const next = await audited(
        ctx,
        await actorOf(ctx, principalOf(request)),
        (tx) => updateRule(tx, row, request.body),
        (r) => ({
          workspaceId,
          siteId: row.site_id,
          action: 'rule.update',
          targetType: 'rule',
          targetId: row.id,
          before: ruleView(row),
          after: ruleView(r),
        }),
      );
      ctx.services.rules.invalidate(row.site_id);
      return ok(ruleView(next));
    },
  );

  app.delete(
    '/api/rules/:id',
    { schema: { ...summary('Delete a custom rule (owner, analyst)'), params: IdParams } },
    async (request) => {
      const row = await loadRule(ctx, request, request.params.id, 'rules.write');
      const workspaceId = await siteWorkspaceId(ctx, row.site_id);
      await audited(
        ctx,
        await actorOf(ctx, principalOf(request)),
        (tx) => deleteRule(tx, row),
        () => ({
          workspaceId,
          siteId: row.site_id,
          action: 'rule.delete',
          targetType: 'rule',
          targetId: row.id,
          before: ruleView(row),
        }),
      );
      ctx.services.rules.invalidate(row.site_id);
      return ok({ id: row.id, deleted: true });
    },
  );

  app.post(
    '/api/rules/backtest',
    {
      preValidation: writeSite.preValidation,
      schema: {
        ...summary('Backtest draft rules against recorded decisions (owner, analyst)'),
        querystring: SiteQuery,
        body: BacktestBody,
      },
    },
    async (request) => {
      const siteId = writeSite.of(request).site.id;
      const body = request.body ?? {};
      const to = body.to ? Date.parse(body.to) : ctx.now();
      const from = body.from ? Date.parse(body.from) : to - 7 * 24 * 3600 * 1000;
      if (!(from < to))
        throw new ApiError('validation_failed', '`from` must be before `to`.', [
          { path: 'body.from', message: 'must be before to' },
        ]);
      const ruleset = await draftRuleset(ctx, siteId, body);
      const names = ruleset.rules.map((r) => r.name);
      const drafts = (body.rules ?? []).map((r) => r.name).filter((n) => names.includes(n));
      const reporter = backtestReporter(
        names,
        body.rules?.length ? drafts : names,
        { offset: body.matchesOffset ?? 0, limit: body.matchesLimit ?? 25 },
        await labelResolver(ctx, siteId),
      );
      const result = await runBacktest(ctx, ruleset, {
        siteId: siteId,
        from,
        to,
        maxEvents: body.maxEvents ?? 100_000,
        examples: body.examples ?? 10,
        observe: reporter.observe,
      });
      return ok({ ...result, ...reporter.report() });
    },
  );

  app.get(
    '/api/rules/:id/stats',
    {
      preValidation: readRule.preValidation,
      schema: {
        ...summary('Precision and recall of a custom rule against labels over a period'),
        params: IdParams,
        querystring: RuleStatsQuery,
      },
    },
    async (request) => {
      const row = readRule.of(request);
      const from = request.query.from === undefined ? undefined : Date.parse(request.query.from);
      const to = request.query.to === undefined ? undefined : Date.parse(request.query.to);
      if (from !== undefined && from >= (to ?? ctx.now() + 1))
        throw new ApiError('validation_failed', '`from` must be before `to`.', [
          { path: 'querystring.from', message: 'must be before to' },
        ]);
      return ok(
        await ruleStats(ctx, row, {
          ...(from === undefined ? {} : { from }),
          ...(to === undefined ? {} : { to }),
        }),
      );
    },
  );
}
