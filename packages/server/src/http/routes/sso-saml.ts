import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { findSsoConfig } from '../../sso/config-store.ts';
import { spEndpoints, ssoCallbackLocation } from '../../sso/endpoints.ts';
import { samlClient, spMetadataXml } from '../../sso/saml-client.ts';
import { SamlRefusal } from '../../sso/saml-response.ts';
import { type SsoSignIn, signInWithSamlResponse } from '../../sso/sign-in.ts';
import type { SsoConfigsTable } from '../../storage/sso-schema.ts';
import { planAllows } from '../../workspace/permissions.ts';
import { ACCESS_TOKEN_TTL_S } from '../../workspace/tokens.ts';
import { findWorkspace } from '../../workspace/workspaces.ts';
import { assertValid } from '../auth.ts';
import { installFormParsing } from '../body.ts';
import type { App } from '../types.ts';
import { AcsBody, SamlParams } from './sso-schemas.ts';

/** A SAMLResponse with a few certificates and attributes is some KiB; leave ample room. */
const ACS_BODY_LIMIT = 256 * 1024;
const tags = ['sso'];

const notSetUp = () => new ApiError('not_found', 'Single sign-on is not set up for this workspace.');

/**
 * The workspace's enabled SSO configuration: 404 for an unknown workspace and for one without
 * enabled SSO alike (no existence leak), 402 when its plan has no SSO.
 */
async function enabledSso(ctx: AppContext, workspaceId: string): Promise<SsoConfigsTable> {
  const workspace = await findWorkspace(ctx.database.db, workspaceId);
  const config = workspace ? await findSsoConfig(ctx.database.db, workspaceId) : undefined;
  if (!workspace || !config || config.enabled !== 1) throw notSetUp();
  if (!planAllows({ plan: workspace.plan, demo: workspace.demo === 1 }, 'sso')) {
    throw new ApiError('plan_required', 'Single sign-on needs the Enterprise plan.');
  }
  return config;
}

/**
 * The SAML service provider of each workspace (public routes: the IdP and the browser call them):
 * metadata, SP-initiated login (HTTP-Redirect) and the Assertion Consumer Service (HTTP-POST).
 */
export async function ssoSamlRoutes(app: App, ctx: AppContext): Promise<void> {
  const db = ctx.database.db;

  app.get(
    '/api/sso/saml/:workspaceId/metadata',
    {
      attachValidation: true,
      schema: {
        tags,
        summary: 'SAML service-provider metadata of a workspace (XML)',
        description:
          'Public, for the identity provider. Served before SSO is configured, so the IdP can be set up first. ' +
          'Not enveloped: `application/xml`.',
        params: SamlParams,
        produces: ['application/xml'],
      },
    },
    async (request, reply) => {
      assertValid(request);
      const { workspaceId } = request.params;
      if (!(await findWorkspace(db, workspaceId))) throw notSetUp();
      const xml = spMetadataXml(spEndpoints(ctx.config.publicUrl, workspaceId));
      return reply.type('application/xml; charset=utf-8').send(xml);
    },
  );

  app.get(
    '/api/sso/saml/:workspaceId/login',
    {
      attachValidation: true,
      schema: {
        tags,
        summary: 'Start single sign-on: 302 to the identity provider with a SAML AuthnRequest',
        description:
          'HTTP-Redirect binding. 404 when the workspace has no enabled SSO; 402 when its plan lacks SSO.',
        params: SamlParams,
      },
    },
    async (request, reply) => {
      assertValid(request);
      const { workspaceId } = request.params;
      const config = await enabledSso(ctx, workspaceId);
      const sp = spEndpoints(ctx.config.publicUrl, workspaceId);
      const url = await samlClient(config, sp, ctx.hotState).getAuthorizeUrlAsync('', undefined, {});
      return reply.header('cache-control', 'no-store').redirect(url, 302);
    },
  );

  await app.register(async (scope) => {
    installFormParsing(scope);
    scope.withTypeProvider<TypeBoxTypeProvider>().post(
      '/api/sso/saml/:workspaceId/acs',
      {
        attachValidation: true,
        bodyLimit: ACS_BODY_LIMIT,
        schema: {
          tags,
          summary: 'Assertion Consumer Service: the IdP posts its SAMLResponse here',
          description:
            'Form-encoded `SAMLResponse` (HTTP-POST binding). Success: 303 to ' +
            '`/dashboard/sso-callback#accessToken=…&refreshToken=…&expiresIn=3600&workspaceId=…` with a ' +
            'session scoped to this workspace; new users are provisioned with the default role. ' +
            'Refused response: 401 `unauthorized`, the reason in `message`.',
          consumes: ['application/x-www-form-urlencoded'],
          params: SamlParams,
          body: AcsBody,
        },
      },
      async (request, reply) => {
        const { workspaceId } = request.params;
        const config = await enabledSso(ctx, workspaceId);
        assertValid(request);
        let signIn: SsoSignIn;
        try {
          signIn = await signInWithSamlResponse(ctx, config, request.body.SAMLResponse);
        } catch (err) {
          if (!(err instanceof SamlRefusal)) throw err;
          request.log.info({ workspaceId, reason: err.reason }, 'SSO response refused');
          throw new ApiError('unauthorized', err.message);
        }
        const { user, created, joined, session } = signIn;
        request.log.info(
          { workspaceId, userId: user.id, sessionId: session.sessionId, created, joined },
          'signed in with SSO',
        );
        const location = ssoCallbackLocation(ctx.config.publicUrl, {
          accessToken: session.accessToken,
          refreshToken: session.refreshToken,
          expiresIn: ACCESS_TOKEN_TTL_S,
          workspaceId,
        });
        return reply
          .header('cache-control', 'no-store')
          .header('referrer-policy', 'no-referrer')
          .redirect(location, 303);
      },
    );
  });
}
