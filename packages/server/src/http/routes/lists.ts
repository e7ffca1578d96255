import { IdParams, ListCreateBody, ListPatchBody, SiteQuery } from '@warden/protocol/management';
import type { Operation } from '@warden/protocol/permissions';
import type { FastifyRequest } from 'fastify';
import { actorOf, audited, siteWorkspaceId } from '../../audit/log.ts';
import { ApiError } from '../../errors.ts';
import {
  createList,
  deleteList,
  findList,
  listsOfSite,
  listView,
  type RuleWriteDeps,
  updateListEntries,
} from '../../rules/repo.ts';
import type { ListsTable } from '../../storage/rules-schema.ts';
import { accessCheck, looseString } from '../access.ts';
import { type AuthDeps, authenticate, principalOf, requireSite } from '../auth.ts';
import { ok } from '../envelope.ts';
import type { App } from '../types.ts';

/** What the list routes use: the access checks and audited list writes (which invalidate the compiled rules). */
export type ListsDeps = AuthDeps & RuleWriteDeps;

const tags = ['lists'];
const security = [{ bearer: [] }];

async function loadList(ctx: AuthDeps, request: FastifyRequest, id: string, operation: Operation) {
  const row = await findList(ctx.database.db, id);
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

/** What the audit log keeps of a list: its identity and size, and the entries a change added or removed. */
function auditedList(row: ListsTable, previous?: ListsTable) {
  const entries = JSON.parse(row.entries) as string[];
  const base = { id: row.id, name: row.name, kind: row.kind, type: row.type, size: entries.length };
  if (!previous) return { ...base, entries: entries.slice(0, 100) };
  const old = new Set(JSON.parse(previous.entries) as string[]);
  const now = new Set(entries);
  return {
    ...base,
    added: entries.filter((e) => !old.has(e)).slice(0, 100),
    removed: [...old].filter((e) => !now.has(e)).slice(0, 100),
  };
}

/** Allow/block lists: GET/POST /api/lists?siteId=, GET/PATCH/DELETE /api/lists/{id}. */
export async function listsRoutes(app: App, ctx: ListsDeps): Promise<void> {
  app.addHook('onRequest', authenticate(ctx));

  const summary = (text: string) => ({ tags, security, summary: text });
  // SPEC §10: the site (404) and the role (403) before the schema (400). No siteId: the schema's 400.
  const writeSite = accessCheck((request) => {
    const siteId = looseString(request.query, 'siteId');
    return siteId ? requireSite(ctx, principalOf(request), siteId, 'rules.write') : undefined;
  });
  const writeList = accessCheck((request) =>
    loadList(ctx, request, looseString(request.params, 'id') ?? '', 'rules.write'),
  );
  app.get(
    '/api/lists',
    { schema: { ...summary('Allow and block lists of a site'), querystring: SiteQuery } },
    async (request) => {
      await requireSite(ctx, principalOf(request), request.query.siteId, 'read');
      const rows = await listsOfSite(ctx.database.db, request.query.siteId);
      return ok({ lists: rows.map(listView) });
    },
  );

  app.post(
    '/api/lists',
    {
      preValidation: writeSite.preValidation,
      schema: { ...summary('Create a list (owner, analyst)'), querystring: SiteQuery, body: ListCreateBody },
    },
    async (request, reply) => {
      const { site } = writeSite.of(request);
      const row = await audited(
        ctx,
        await actorOf(ctx, principalOf(request)),
        (tx) => createList(tx, site.id, request.body),
        (r) => ({
          workspaceId: site.workspace_id,
          siteId: site.id,
          action: 'list.create',
          targetType: 'list',
          targetId: r.id,
          after: auditedList(r),
        }),
      );
      ctx.services.rules.invalidate(site.id);
      return reply.status(201).send(ok(listView(row)));
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
      preValidation: writeList.preValidation,
      schema: {
        ...summary("Change a list's entries (owner, analyst)"),
        params: IdParams,
        body: ListPatchBody,
      },
    },
    async (request) => {
      const row = writeList.of(request);
      const workspaceId = await siteWorkspaceId(ctx, row.site_id);
      const next = await audited(
        ctx,
        await actorOf(ctx, principalOf(request)),
        (tx) => updateListEntries(tx, row, request.body),
        (r) => ({
          workspaceId,
          siteId: row.site_id,
          action: 'list.update',
          targetType: 'list',
          targetId: row.id,
          before: auditedList(row),
          after: auditedList(r, row),
        }),
      );
      ctx.services.rules.invalidate(row.site_id);
      return ok(listView(next));
    },
  );

  app.delete(
    '/api/lists/:id',
    { schema: { ...summary('Delete a list (owner, analyst)'), params: IdParams } },
    async (request) => {
      const row = await loadList(ctx, request, request.params.id, 'rules.write');
      const workspaceId = await siteWorkspaceId(ctx, row.site_id);
      await audited(
        ctx,
        await actorOf(ctx, principalOf(request)),
        (tx) => deleteList(tx, row),
        () => ({
          workspaceId,
          siteId: row.site_id,
          action: 'list.delete',
          targetType: 'list',
          targetId: row.id,
          before: auditedList(row),
        }),
      );
      ctx.services.rules.invalidate(row.site_id);
      return ok({ id: row.id, deleted: true });
    },
  );
}
