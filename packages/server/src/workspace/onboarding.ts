import type { Plan } from '@warden/protocol/permissions';
import type { Database } from '../storage/db.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { createSite } from './sites.ts';
import { createUser, findUserByEmail } from './users.ts';
import { addMembership, createWorkspace } from './workspaces.ts';

/** An existing account was named but the password given is not its password. */
export class WrongPasswordError extends Error {
  constructor(email: string) {
    super(`the user ${email} already exists and the password does not match`);
    this.name = 'WrongPasswordError';
  }
}

export interface OnboardingInput {
  email: string;
  password: string;
  userName?: string;
  workspaceName?: string;
  plan?: Plan;
  demo?: boolean;
  siteName?: string;
  /** Already validated with normaliseOrigins(). */
  origins: string[];
}

export interface OnboardingResult {
  workspaceId: string;
  userId: string;
  siteId: string;
  siteKey: string;
  secretKey: string;
}

/**
 * A new workspace with its owner and a first site, in one transaction (`warden init`, the demo
 * seed). An existing e-mail must come with its correct password and becomes owner of the new
 * workspace; otherwise anyone with CLI access could attach themselves to another's account.
 */
export async function onboard(
  database: Database,
  input: OnboardingInput,
  now: number,
): Promise<OnboardingResult> {
  const existing = await findUserByEmail(database.db, input.email);
  if (existing) {
    if (!existing.password_hash || !(await verifyPassword(input.password, existing.password_hash))) {
      throw new WrongPasswordError(existing.email);
    }
  }
  // Hash outside the transaction: scrypt takes ~50 ms and SQLite has a single writer.
  const passwordHash = existing ? null : await hashPassword(input.password);
  return database.db.transaction().execute(async (trx) => {
    const user =
      existing ?? (await createUser(trx, { email: input.email, name: input.userName, passwordHash }, now));
    const workspace = await createWorkspace(
      trx,
      {
        name: input.workspaceName ?? `${user.name}'s workspace`,
        plan: input.plan ?? 'free',
        demo: input.demo ?? false,
      },
      now,
    );
    await addMembership(trx, workspace.id, user.id, 'owner', now);
    const { site, keys } = await createSite(
      trx,
      { workspaceId: workspace.id, name: input.siteName ?? 'Default site', allowedOrigins: input.origins },
      now,
    );
    return {
      workspaceId: workspace.id,
      userId: user.id,
      siteId: site.id,
      siteKey: keys.siteKey,
      secretKey: keys.secretKey,
    };
  });
}
