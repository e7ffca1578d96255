import type { Config } from '../config.ts';
import type { HotState } from '../state/hot-state.ts';
import type { Database } from '../storage/db.ts';
import type { SsoConfigsTable } from '../storage/sso-schema.ts';
import { type Session, startSession } from '../workspace/sessions.ts';
import { spEndpoints } from './endpoints.ts';
import { type ProvisionedUser, provisionSsoUser } from './provision.ts';
import { claimAssertion, purgeUsedAssertions } from './replay.ts';
import { consumeAuthnRequest, samlClient } from './saml-client.ts';
import { IN_RESPONSE_TO_REFUSAL, SamlRefusal, verifySamlResponse } from './saml-response.ts';

/** What a sign-in uses: the database, the clock, the instance secret (the session), the public URL and the hot state (request ids). */
export interface SsoSignInDeps {
  readonly database: Pick<Database, 'db'>;
  now(): number;
  readonly secret: string;
  readonly config: Pick<Config, 'publicUrl'>;
  readonly hotState: HotState;
}

export interface SsoSignIn extends ProvisionedUser {
  session: Session;
}

/**
 * A SAMLResponse posted to the workspace's ACS, all the way to a session: verify it, accept its
 * assertion id once, provision the user just in time, and open a session scoped to the workspace.
 * Throws SamlRefusal (the reason can be shown) when the response is not acceptable.
 */
export async function signInWithSamlResponse(
  ctx: SsoSignInDeps,
  config: SsoConfigsTable,
  samlResponse: string,
): Promise<SsoSignIn> {
  const db = ctx.database.db;
  const workspaceId = config.workspace_id;
  const sp = spEndpoints(ctx.config.publicUrl, workspaceId);
  const now = ctx.now();
  const assertion = await verifySamlResponse(
    samlClient(config, sp, ctx.hotState),
    samlResponse,
    config,
    sp,
    now,
  );
  // Only now, with every check passed, is the sign-in request used up (a refused response leaves
  // it for the genuine one).
  if (
    assertion.inResponseTo !== null &&
    !(await consumeAuthnRequest(ctx.hotState, workspaceId, assertion.inResponseTo))
  ) {
    throw new SamlRefusal(IN_RESPONSE_TO_REFUSAL);
  }
  await purgeUsedAssertions(db, now);
  if (!(await claimAssertion(db, workspaceId, assertion.assertionId, assertion.expiresAt, now))) {
    throw new SamlRefusal('assertion already used');
  }
  const provisioned = await provisionSsoUser(
    db,
    workspaceId,
    assertion.email,
    config.default_role,
    now,
    assertion.name,
  );
  const session = await startSession(db, ctx.secret, provisioned.user.id, workspaceId, now);
  return { ...provisioned, session };
}
