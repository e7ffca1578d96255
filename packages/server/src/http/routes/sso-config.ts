import { SsoConfigBody, SsoConfigSchema, WorkspaceParams } from '@warden/protocol/management';
import type { FastifyRequest } from 'fastify';
import { actorOf, recordAudit } from '../../audit/log.ts';
import type { Config } from '../../config.ts';
import { ApiError } from '../../errors.ts';
import { saveSsoConfigAudited } from '../../sso/config-admin.ts';
import { findSsoConfig, ssoConfigView, ssoSettingsView } from '../../sso/config-store.ts';
import { spEndpoints } from '../../sso/endpoints.ts';
import { fetchIdpMetadata, metadataUrlPolicy } from '../../sso/metadata-fetch.ts';
import { type MetadataRefreshDeps, refreshSsoMetadata } from '../../sso/metadata-refresh.ts';
import { resolveSsoSettings } from '../../sso/settings-input.ts';
import type { SsoConfigsTable } from '../../storage/sso-schema.ts';
import { accessCheck, looseString } from '../access.ts';
import { type AuthDeps, authenticate, principalOf, requirePlan, requireWorkspace } from '../auth.ts';
import { ok } from '../envelope.ts';
import type { App } from '../types.ts';
import { bearer, Envelope } from './workspace-schemas.ts';

/** What the SSO settings use: the access checks, metadata reads (URL policy, resolver) and the public URL. */
export interface SsoConfigDeps extends AuthDeps, MetadataRefreshDeps {
  readonly database: AuthDeps['database'];
  readonly config: MetadataRefreshDeps['config'] & Pick<Config, 'publicUrl'>;
}

/**
 * GET/PUT /api/workspaces/{id}/sso: the workspace's SAML identity provider. Owner only, Enterprise
 * plan (demo exempt). Order (SPEC §10): 401 → 404 → 403 → 402 → 400.
 */
export async function ssoConfigRoutes(app: App, ctx: SsoConfigDeps): Promise<void> {
  const db = ctx.database.db;
  /** The workspace, once the caller passed the checks in the order above (401 is the hook's). */
  const owner = accessCheck(async (request) => {
    const id = looseString(request.params, 'id') ?? '';
    const access = await requireWorkspace(ctx, principalOf(request), id, 'sso.manage');
    requirePlan(access, 'sso');
    return access;
  });
  const auth = { onRequest: authenticate(ctx), preValidation: owner.preValidation };
  const tags = ['sso'];
  const ownerWorkspaceId = (request: FastifyRequest) => owner.of(request).workspace.id;

  const view = (workspaceId: string, row: SsoConfigsTable | undefined) =>
    ssoConfigView(workspaceId, row, spEndpoints(ctx.config.publicUrl, workspaceId));

  app.get(
    '/api/workspaces/:id/sso',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Single sign-on configuration of a workspace (owner, Enterprise)',
        description:
          'Unconfigured: `configured: false`, empty strings, `defaultRole: "viewer"`. `sp` holds the ' +
          'values to enter at the identity provider.',
        security: bearer,
        params: WorkspaceParams,
        response: { 200: Envelope(SsoConfigSchema) },
      },
    },
    async (request) => {
      const workspaceId = ownerWorkspaceId(request);
      return ok(view(workspaceId, await findSsoConfig(db, workspaceId)));
    },
  );

  app.put(
    '/api/workspaces/:id/sso',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Configure single sign-on (owner, Enterprise)',
        description:
          'Replaces the configuration. With `metadataXml`, entity id, SSO URL and certificate come ' +
          'from the metadata. Enabling needs all three. Bad certificate or metadata: 400 with details.',
        security: bearer,
        params: WorkspaceParams,
        body: SsoConfigBody,
        response: { 200: Envelope(SsoConfigSchema) },
      },
    },
    async (request) => {
      const workspaceId = ownerWorkspaceId(request);
      const settings = await resolveSsoSettings(request.body, (url) =>
        fetchIdpMetadata(url, metadataUrlPolicy(ctx), ctx.lookup),
      );
      const actor = await actorOf(ctx, principalOf(request));
      const row = await saveSsoConfigAudited(db, actor, workspaceId, settings, ctx.now());
      request.log.info(
        { workspaceId, enabled: settings.enabled, ssoRequired: settings.ssoRequired },
        'SSO configuration saved',
      );
      return ok(view(workspaceId, row));
    },
  );

  app.post(
    '/api/workspaces/:id/sso/metadata/refresh',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Read the IdP metadata URL again now (owner, Enterprise)',
        description:
          'Entity id, SSO URL and signing certificates are replaced by what the metadata says now. ' +
          '409 conflict when no metadata URL is configured or it cannot be read or parsed (the ' +
          'settings stay as they were; the reason is kept as `metadataError`).',
        security: bearer,
        params: WorkspaceParams,
        response: { 200: Envelope(SsoConfigSchema) },
      },
    },
    async (request) => {
      const workspaceId = ownerWorkspaceId(request);
      const row = await findSsoConfig(db, workspaceId);
      if (!row?.metadata_url) throw new ApiError('conflict', 'No IdP metadata URL is configured.');
      const { row: refreshed, error } = await refreshSsoMetadata(ctx, row);
      if (error) throw new ApiError('conflict', `The IdP metadata could not be refreshed: ${error}`);
      await recordAudit(
        db,
        await actorOf(ctx, principalOf(request)),
        {
          workspaceId,
          action: 'sso.update',
          targetType: 'sso',
          targetId: workspaceId,
          before: ssoSettingsView(workspaceId, row),
          after: ssoSettingsView(workspaceId, refreshed),
        },
        ctx.now(),
      );
      return ok(view(workspaceId, refreshed));
    },
  );
}
