import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { createList, deleteList, listView, updateListEntries } from '../../rules/repo.ts';
import { IdParams, ListCreateBody, ListPatchBody, SiteQuery } from '../../rules/schemas.ts';
import type { Operation } from '../../workspace/permissions.ts';
import { assertValid, authenticate, principalOf, requireSite } from '../auth.ts';
import { ok } from '../envelope.ts';
import type { App } from '../types.ts';

const tags = ['lists'];
const security = [{ bearer: [] }];

async function loadList(ctx: AppContext, request: FastifyRequest, id: string, operation: Operation) {
  const row = await ctx.database.db.selectFrom('lists').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new ApiError('not_found', 'List not found.');
  try {
    await requireSite(ctx, principalOf(request), row.site_id, operation);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'not_found')
      throw new ApiError('not_found', 'List not found.');
    throw err;
  }
  return row;
}

/** Allow/block lists: GET/POST /api/lists?siteId=, GET/PATCH/DELETE /api/lists/{id}. */
export async function listsRoutes(app: App, ctx: AppContext): Promise<void> {
  app.addHook('onRequest', authenticate(ctx));

  const summary = (text: string) => ({ tags, security, summary: text });
  app.get(
    '/api/lists',
    { schema: { ...summary('Allow and block lists of a site'), querystring: SiteQuery } },
    async (request) => {
      await requireSite(ctx, principalOf(request), request.query.siteId, 'read');
      const rows = await ctx.database.db
        .selectFrom('lists')
        .selectAll()
        .where('site_id', '=', request.query.siteId)
        .orderBy('name')
        .execute();
      return ok({ lists: rows.map(listView) });
    },
  );

  app.post(
    '/api/lists',
    {
      attachValidation: true,
      schema: { ...summary('Create a list (owner, analyst)'), querystring: SiteQuery, body: ListCreateBody },
    },
    async (request, reply) => {
      const siteId = (request.query as { siteId?: string }).siteId;
      if (!siteId) assertValid(request);
      await requireSite(ctx, principalOf(request), siteId as string, 'rules.write');
      assertValid(request);
      return reply.status(201).send(ok(listView(await createList(ctx, siteId as string, request.body))));
    },
  );

  app.get(
    '/api/lists/:id',
    { schema: { ...summary('One list with its entries'), params: IdParams } },
    async (request) => {
      return ok(listView(await loadList(ctx, request, request.params.id, 'read')));
    },
  );

  app.patch(
    '/api/lists/:id',
    {
      attachValidation: true,
      schema: {
        ...summary("Change a list's entries (owner, analyst)"),
        params: IdParams,
        body: ListPatchBody,
      },
    },
    async (request) => {
      const row = await loadList(ctx, request, (request.params as { id: string }).id, 'rules.write');
      assertValid(request);
      return ok(listView(await updateListEntries(ctx, row, request.body)));
    },
  );

  app.delete(
    '/api/lists/:id',
    { schema: { ...summary('Delete a list (owner, analyst)'), params: IdParams } },
    async (request) => {
      const row = await loadList(ctx, request, request.params.id, 'rules.write');
      await deleteList(ctx, row);
      return ok({ id: row.id, deleted: true });
    },
  );
}
