import { Type } from '@sinclair/typebox';
import {
  IdSchema,
  NameSchema,
  OriginsSchema,
  SiteSchema,
  SiteSettingsPatchSchema,
} from '@warden/protocol/management';
import type { Operation } from '@warden/protocol/permissions';
import { actorOf } from '../../audit/log.ts';
import { normaliseOrigins } from '../../workspace/origins.ts';
import {
  createSiteAudited,
  rotateSiteKeysAudited,
  type SiteChangeAnnouncer,
  updateSiteAudited,
} from '../../workspace/site-admin.ts';
import { listSites, type SitePatch, siteView } from '../../workspace/sites.ts';
import { listWorkspacesOf } from '../../workspace/workspaces.ts';
import { accessCheck, looseString } from '../access.ts';
import { type AuthDeps, authenticate, principalOf, requireSite, requireWorkspace } from '../auth.ts';
import { ok } from '../envelope.ts';
import type { App } from '../types.ts';
import { bearer, Envelope } from './workspace-schemas.ts';

const SiteParams = Type.Object({ id: IdSchema });

const CreateSiteBody = Type.Object(
  { workspaceId: IdSchema, name: NameSchema, allowedOrigins: Type.Optional(OriginsSchema) },
  { additionalProperties: false },
);

const CreatedSite = Type.Object({
  siteId: Type.String(),
  secretKey: Type.String({ description: 'Shown only now; store it in your backend.' }),
  ...SiteSchema.properties,
});

const PatchSiteBody = Type.Object(
  {
    name: Type.Optional(NameSchema),
    // The complete desired list: it replaces the old one (interface §4.2).
    allowedOrigins: Type.Optional(OriginsSchema),
    settings: Type.Optional(SiteSettingsPatchSchema),
  },
  { additionalProperties: false },
);

const RotatedKeys = Type.Object({
  siteId: Type.String(),
  siteKey: Type.String(),
  secretKey: Type.String(),
  rotatedAt: Type.String({ format: 'date-time' }),
});

/** What the site routes use: the access checks' reads and clock, and the site-change announcer. */
export interface SiteRouteDeps extends AuthDeps {
  readonly siteChanges: SiteChangeAnnouncer;
}

export async function siteRoutes(app: App, deps: SiteRouteDeps): Promise<void> {
  const db = deps.database.db;
  const auth = { onRequest: authenticate(deps) };
  /** The site of `:id` for `operation` (SPEC §10: 404, 403 before the schema's 400). */
  const siteAccess = (operation: Operation) =>
    accessCheck((request) =>
      requireSite(deps, principalOf(request), looseString(request.params, 'id') ?? '', operation),
    );
  const readSite = siteAccess('read');
  const patchSite = siteAccess('site.update');
  const rotateKeys = siteAccess('site.rotate_keys');
  /** The workspaces listed: the one asked for (if a member), else all of the caller's. */
  const listedWorkspaces = accessCheck(async (request) => {
    const principal = principalOf(request);
    const workspaceId = looseString(request.query, 'workspaceId');
    if (workspaceId !== undefined) {
      await requireWorkspace(deps, principal, workspaceId, 'read');
      return [workspaceId];
    }
    const workspaces = await listWorkspacesOf(db, principal.userId, principal.workspaceScope);
    return workspaces.map((w) => w.id);
  });
  const createInWorkspace = accessCheck(async (request) => {
    const workspaceId = looseString(request.body, 'workspaceId');
    if (workspaceId !== undefined)
      await requireWorkspace(deps, principalOf(request), workspaceId, 'site.create');
  });

  app.get(
    '/api/sites',
    {
      ...auth,
      preValidation: listedWorkspaces.preValidation,
      schema: {
        tags: ['sites'],
        summary: 'Sites of your workspaces (or of one workspace)',
        security: bearer,
        querystring: Type.Object({ workspaceId: Type.Optional(IdSchema) }),
        response: { 200: Envelope(Type.Array(SiteSchema)) },
      },
    },
    async (request) => ok((await listSites(db, listedWorkspaces.of(request))).map(siteView)),
  );

  app.post(
    '/api/sites',
    {
      ...auth,
      preValidation: createInWorkspace.preValidation,
      schema: {
        tags: ['sites'],
        summary: 'Create a site (workspace owner)',
        description: 'The answer is the only time the secret key is shown; it is stored as a hash.',
        security: bearer,
        body: CreateSiteBody,
        response: { 201: Envelope(CreatedSite) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const origins = normaliseOrigins(request.body.allowedOrigins ?? []);
      const actor = await actorOf(deps, principal);
      const { site, keys } = await createSiteAudited(
        db,
        actor,
        { workspaceId: request.body.workspaceId, name: request.body.name.trim(), allowedOrigins: origins },
        deps.now(),
      );
      request.log.info({ siteId: site.id, workspaceId: site.workspace_id }, 'site created');
      reply.status(201);
      return ok({ siteId: site.id, secretKey: keys.secretKey, ...siteView(site) });
    },
  );

  app.get(
    '/api/sites/:id',
    {
      ...auth,
      preValidation: readSite.preValidation,
      schema: {
        tags: ['sites'],
        summary: 'One site (never its secret key)',
        security: bearer,
        params: SiteParams,
        response: { 200: Envelope(SiteSchema) },
      },
    },
    async (request) => {
      const { site } = readSite.of(request);
      return ok(siteView(site));
    },
  );

  app.patch(
    '/api/sites/:id',
    {
      ...auth,
      preValidation: patchSite.preValidation,
      schema: {
        tags: ['sites'],
        summary: 'Rename a site, replace its allowed origins, change its settings (owner, analyst)',
        description:
          'Origins must be exact browser origins (http/https, host, optional port; no path, query, ' +
          'fragment or credentials), else 400 validation_failed.',
        security: bearer,
        params: SiteParams,
        body: PatchSiteBody,
        response: { 200: Envelope(SiteSchema) },
      },
    },
    async (request) => {
      const { site } = patchSite.of(request);
      const body = request.body ?? {};
      const patch: SitePatch = {
        name: body.name?.trim(),
        allowedOrigins: body.allowedOrigins ? normaliseOrigins(body.allowedOrigins) : undefined,
        settings: body.settings,
      };
      const now = deps.now();
      const actor = await actorOf(deps, principalOf(request));
      const updated = await updateSiteAudited(db, deps.siteChanges, actor, site, patch, now);
      return ok(siteView(updated));
    },
  );

  app.post(
    '/api/sites/:id/rotate-keys',
    {
      ...auth,
      preValidation: rotateKeys.preValidation,
      schema: {
        tags: ['sites'],
        summary: 'Replace both site keys (owner); the old keys stop working at once',
        security: bearer,
        params: SiteParams,
        response: { 200: Envelope(RotatedKeys) },
      },
    },
    async (request) => {
      const { site } = rotateKeys.of(request);
      const now = deps.now();
      const actor = await actorOf(deps, principalOf(request));
      const keys = await rotateSiteKeysAudited(db, deps.siteChanges, actor, site, now);
      request.log.info({ siteId: site.id }, 'site keys rotated');
      return ok({
        siteId: site.id,
        siteKey: keys.siteKey,
        secretKey: keys.secretKey,
        rotatedAt: new Date(now).toISOString(),
      });
    },
  );
}
