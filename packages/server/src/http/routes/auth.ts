import { Type } from '@sinclair/typebox';
import { EmailSchema, PasswordSchema, UserSchema } from '@warden/protocol/management';
import type { Config } from '../../config.ts';
import { ApiError } from '../../errors.ts';
import { spEndpoints } from '../../sso/endpoints.ts';
import { ssoRequirementFor } from '../../sso/sso-required.ts';
import { DUMMY_PASSWORD_HASH, verifyPassword } from '../../workspace/passwords.ts';
import { revokeSession, startSession } from '../../workspace/sessions.ts';
import { ACCESS_TOKEN_TTL_S } from '../../workspace/tokens.ts';
import { findUserByEmail, findUserById, normaliseEmail, userView } from '../../workspace/users.ts';
import { type AuthDeps, authenticate, principalOf } from '../auth.ts';
import { ok } from '../envelope.ts';
import { type LoginThrottleDeps, throttleLogin } from '../login-throttle.ts';
import type { App } from '../types.ts';
import { bearer, Envelope } from './workspace-schemas.ts';

const LoginBody = Type.Object(
  { email: EmailSchema, password: PasswordSchema },
  { additionalProperties: false },
);

const LoginResult = Type.Object({
  user: UserSchema,
  accessToken: Type.String(),
  refreshToken: Type.String(),
  /** Seconds until the access token expires (one hour). */
  expiresIn: Type.Integer(),
});

/** What signing in and out uses: the access checks, the login throttle, and the public URL (SSO redirects). */
export interface AuthRoutesDeps extends AuthDeps, LoginThrottleDeps {
  readonly config: LoginThrottleDeps['config'] & Pick<Config, 'publicUrl'>;
}

export async function authRoutes(app: App, ctx: AuthRoutesDeps): Promise<void> {
  const db = ctx.database.db;

  app.post(
    '/api/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password',
        description:
          'Answers a one-hour access token and an opaque refresh token (revoked by logout). ' +
          'Wrong e-mail or password: 401 invalid_credentials. Throttled per account and per IP: 429. ' +
          'A non-owner member of a workspace that requires single sign-on: 403 forbidden.',
        body: LoginBody,
        response: { 200: Envelope(LoginResult) },
      },
    },
    async (request) => {
      const email = normaliseEmail(request.body.email);
      await throttleLogin(ctx, email, request.ip);
      const user = await findUserByEmail(db, email);
      // Unknown e-mail or SSO-only account: still run scrypt so timing tells nothing.
      const valid = await verifyPassword(request.body.password, user?.password_hash ?? DUMMY_PASSWORD_HASH);
      if (!user?.password_hash || !valid) {
        throw new ApiError('invalid_credentials', 'The e-mail or password is not correct.');
      }
      // Checked only after a correct password, so it reveals nothing about unknown accounts.
      const ssoRequired = await ssoRequirementFor(db, user.id);
      if (ssoRequired) {
        const { loginUrl } = spEndpoints(ctx.config.publicUrl, ssoRequired.workspaceId);
        throw new ApiError(
          'forbidden',
          `The workspace "${ssoRequired.workspaceName}" requires single sign-on: sign in through your identity provider at ${loginUrl}.`,
        );
      }
      const session = await startSession(db, ctx.secret, user.id, null, ctx.now());
      request.log.info({ userId: user.id, sessionId: session.sessionId }, 'signed in');
      return ok({
        user: await userView(db, user),
        accessToken: session.accessToken,
        refreshToken: session.refreshToken,
        expiresIn: ACCESS_TOKEN_TTL_S,
      });
    },
  );

  app.post(
    '/api/auth/logout',
    {
      onRequest: authenticate(ctx),
      schema: {
        tags: ['auth'],
        summary: 'End the session of this access token',
        description: 'Revokes the session at once: this access token and its refresh token stop working.',
        security: bearer,
        response: { 200: Envelope(Type.Object({ loggedOut: Type.Literal(true) })) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      await revokeSession(db, principal.sessionId, ctx.now());
      return ok({ loggedOut: true as const });
    },
  );

  app.get(
    '/api/auth/me',
    {
      onRequest: authenticate(ctx),
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user and their memberships',
        security: bearer,
        response: { 200: Envelope(UserSchema) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const user = await findUserById(db, principal.userId);
      if (!user) throw new ApiError('unauthorized', 'The account no longer exists; sign in again.');
      return ok(await userView(db, user, principal.workspaceScope));
    },
  );
}
