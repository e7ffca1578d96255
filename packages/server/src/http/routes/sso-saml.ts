import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AcsBody, SamlParams } from '@warden/protocol/management';
import { planAllows } from '@warden/protocol/permissions';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { ApiError } from '../../errors.ts';
import { findSsoConfig } from '../../sso/config-store.ts';
import { spEndpoints, ssoCallbackLocation, ssoErrorLocation } from '../../sso/endpoints.ts';
import { freshSsoConfig, type MetadataRefreshDeps } from '../../sso/metadata-refresh.ts';
import { samlClient, spMetadataXml } from '../../sso/saml-client.ts';
import { SamlRefusal } from '../../sso/saml-response.ts';
import { type SsoSignIn, type SsoSignInDeps, signInWithSamlResponse } from '../../sso/sign-in.ts';
import type { SsoConfigsTable } from '../../storage/sso-schema.ts';
import { ACCESS_TOKEN_TTL_S } from '../../workspace/tokens.ts';
import { findWorkspace } from '../../workspace/workspaces.ts';
import { looseString } from '../access.ts';
import { installFormParsing } from '../body.ts';
import type { App } from '../types.ts';

/** A SAMLResponse with a few certificates and attributes is some KiB; leave ample room. */
const ACS_BODY_LIMIT = 256 * 1024;
const tags = ['sso'];

/**
 * What the SAML endpoints use: the sign-in's (database, clock, secret, public URL, hot state), a
 * stale metadata's refresh, and the logger (a failed refresh is logged).
 */
export interface SsoSamlDeps extends SsoSignInDeps, MetadataRefreshDeps {
  readonly config: SsoSignInDeps['config'] & MetadataRefreshDeps['config'];
  readonly logger: Pick<Logger, 'warn'>;
}

const notSetUp = () => new ApiError('not_found', 'Single sign-on is not set up for this workspace.');

/**
 * The workspace's enabled SSO configuration: 404 for an unknown workspace and for one without
 * enabled SSO alike (no existence leak), 402 when its plan has no SSO.
 */
async function enabledSso(ctx: SsoSamlDeps, workspaceId: string): Promise<SsoConfigsTable> {
  const workspace = await findWorkspace(ctx.database.db, workspaceId);
  const config = workspace ? await findSsoConfig(ctx.database.db, workspaceId) : undefined;
  if (!workspace || !config || config.enabled !== 1) throw notSetUp();
  if (!planAllows({ plan: workspace.plan, demo: workspace.demo === 1 }, 'sso')) {
    throw new ApiError('plan_required', 'Single sign-on needs the Enterprise plan.');
  }
  return config;
}

/** A browser navigating (the IdP's auto-submitted form), rather than an API client. */
function wantsHtml(accept: string | undefined): boolean {
  return accept !== undefined && /\btext\/html\b/i.test(accept);
}

/** What a failed sign-in answers: 401 naming a SAML refusal's reason; API errors as they are. */
function refusalOf(err: unknown): ApiError {
  if (err instanceof SamlRefusal) return new ApiError('unauthorized', err.message);
  if (err instanceof ApiError) return err;
  throw err;
}

/**
 * A refused sign-in at the ACS: the JSON error for an API client; for a browser (the IdP's page
 * posted here) a 303 back to the dashboard, which shows the reason with a link to the sign-in page.
 */
function refuse(ctx: SsoSamlDeps, err: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const refusal = refusalOf(err);
  if (err instanceof SamlRefusal) {
    request.log.info(
      { workspaceId: looseString(request.params, 'workspaceId'), reason: err.reason },
      'SSO response refused',
    );
  }
  if (!wantsHtml(request.headers.accept)) throw refusal;
  return reply
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .redirect(ssoErrorLocation(ctx.config.publicUrl, refusal.code, refusal.message), 303);
}

/**
 * The SAML service provider of each workspace (public routes: the IdP and the browser call them):
 * metadata, SP-initiated login (HTTP-Redirect) and the Assertion Consumer Service (HTTP-POST).
 */
export async function ssoSamlRoutes(app: App, ctx: SsoSamlDeps): Promise<void> {
  const db = ctx.database.db;

  app.get(
    '/api/sso/saml/:workspaceId/metadata',
    {
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
      const { workspaceId } = request.params;
      if (!(await findWorkspace(db, workspaceId))) throw notSetUp();
      const xml = spMetadataXml(spEndpoints(ctx.config.publicUrl, workspaceId));
      return reply.type('application/xml; charset=utf-8').send(xml);
    },
  );

  app.get(
    '/api/sso/saml/:workspaceId/login',
    {
      schema: {
        tags,
        summary: 'Start single sign-on: 302 to the identity provider with a SAML AuthnRequest',
        description:
          'HTTP-Redirect binding. 404 when the workspace has no enabled SSO; 402 when its plan lacks SSO.',
        params: SamlParams,
      },
    },
    async (request, reply) => {
      const { workspaceId } = request.params;
      const config = await freshSsoConfig(ctx, await enabledSso(ctx, workspaceId));
      const sp = spEndpoints(ctx.config.publicUrl, workspaceId);
      const url = await samlClient(config, sp, ctx.hotState).getAuthorizeUrlAsync('', undefined, {});
      return reply.header('cache-control', 'no-store').redirect(url, 302);
    },
  );

  await app.register(async (scope) => {
    installFormParsing(scope);
    // The ACS answers in order: 404/402 (the workspace's enabled SSO, before the schema), 400 (the
    // schema), 401 (the SAML response); each refusal as `refuse` answers it.
    const configs = new WeakMap<FastifyRequest, SsoConfigsTable>();
    const enabledConfig = async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        configs.set(request, await enabledSso(ctx, looseString(request.params, 'workspaceId') ?? ''));
      } catch (err) {
        return refuse(ctx, err, request, reply);
      }
    };

    scope.withTypeProvider<TypeBoxTypeProvider>().post(
      '/api/sso/saml/:workspaceId/acs',
      {
        bodyLimit: ACS_BODY_LIMIT,
        preValidation: enabledConfig,
        // A schema error is a refusal like the others (a browser goes back to the dashboard with it);
        // any other error (413, 415) is the app's answer.
        errorHandler: (err, request, reply) => {
          // Fastify names the part it validated on the errors of its validation step.
          if ((err as { validationContext?: string }).validationContext === undefined) throw err;
          return refuse(ctx, err, request, reply);
        },
        schema: {
          tags,
          summary: 'Assertion Consumer Service: the IdP posts its SAMLResponse here',
          description:
            'Form-encoded `SAMLResponse` (HTTP-POST binding). Success: 303 to ' +
            '`/dashboard/sso-callback#accessToken=…&refreshToken=…&expiresIn=3600&workspaceId=…` with a ' +
            'session scoped to this workspace; new users are provisioned with the default role. ' +
            'Refused response: 401 `unauthorized`, the reason in `message`; when the request accepts ' +
            '`text/html` (a browser), every refusal is a 303 to `/dashboard/sso-callback#error=<message>&code=<code>` instead.',
          consumes: ['application/x-www-form-urlencoded'],
          params: SamlParams,
          body: AcsBody,
        },
      },
      async (request, reply) => {
        const { workspaceId } = request.params;
        let signIn: SsoSignIn;
        try {
          const config = configs.get(request) as SsoConfigsTable;
          signIn = await signInWithSamlResponse(ctx, config, request.body.SAMLResponse);
        } catch (err) {
          return refuse(ctx, err, request, reply);
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
