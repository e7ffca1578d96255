import { randomBytes } from 'node:crypto';
import type { Plan, Role } from '@warden/protocol/permissions';
import type { AppContext } from '../context.ts';
import { hashPassword } from '../workspace/passwords.ts';
import { startSession } from '../workspace/sessions.ts';
import { createSite } from '../workspace/sites.ts';
import { createUser } from '../workspace/users.ts';
import { addMembership, createWorkspace } from '../workspace/workspaces.ts';

/**
 * Test fixtures for anything behind management auth: users, workspaces, sites and signed-in
 * sessions, written straight to the database (no HTTP round trips, one scrypt hash per process).
 */
export const TEST_PASSWORD = 'correct horse battery staple';
let passwordHash: Promise<string> | undefined;

export interface TestUser {
  userId: string;
  email: string;
  password: string;
  accessToken: string;
  sessionId: string;
  /** `{authorization: 'Bearer …'}` for app.inject. */
  headers: { authorization: string };
}

export interface TestSite {
  id: string;
  siteKey: string;
  secretKey: string;
}

export interface TestWorkspace {
  workspaceId: string;
  owner: TestUser;
  site: TestSite;
}

function uniqueEmail(label: string): string {
  return `${label}-${randomBytes(4).toString('hex')}@example.test`;
}

/** A user with the shared test password and a signed-in session; a member of `workspaceId` if given. */
export async function addTestUser(
  ctx: AppContext,
  options: { workspaceId?: string; role?: Role; email?: string; workspaceScope?: string } = {},
): Promise<TestUser> {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const now = ctx.now();
  const db = ctx.database.db;
  const user = await createUser(
    db,
    { email: options.email ?? uniqueEmail(options.role ?? 'user'), passwordHash: await passwordHash },
    now,
  );
  if (options.workspaceId)
    await addMembership(db, options.workspaceId, user.id, options.role ?? 'viewer', now);
  const session = await startSession(db, ctx.secret, user.id, options.workspaceScope ?? null, now);
  return {
    userId: user.id,
    email: user.email,
    password: TEST_PASSWORD,
    accessToken: session.accessToken,
    sessionId: session.sessionId,
    headers: { authorization: `Bearer ${session.accessToken}` },
  };
}

/** A workspace with a signed-in owner and one site (origin https://shop.example by default). */
export async function createTestWorkspace(
  ctx: AppContext,
  options: { plan?: Plan; demo?: boolean; origins?: string[]; name?: string } = {},
): Promise<TestWorkspace> {
  const now = ctx.now();
  const db = ctx.database.db;
  const workspace = await createWorkspace(
    db,
    { name: options.name ?? 'Test workspace', plan: options.plan ?? 'free', demo: options.demo ?? false },
    now,
  );
  const owner = await addTestUser(ctx, { workspaceId: workspace.id, role: 'owner' });
  const { site, keys } = await createSite(
    db,
    {
      workspaceId: workspace.id,
      name: 'Test site',
      allowedOrigins: options.origins ?? ['https://shop.example'],
    },
    now,
  );
  return { workspaceId: workspace.id, owner, site: { id: site.id, ...keys } };
}

export interface RoleFixture {
  w: TestWorkspace;
  analyst: TestUser;
  viewer: TestUser;
  /** Another workspace with its own owner: its resources must answer 404 to `w`'s users. */
  foreign: TestWorkspace;
}

/** A workspace with its owner, an analyst and a viewer, and a foreign workspace: the role tests' cast. */
export async function createRoleFixture(ctx: AppContext): Promise<RoleFixture> {
  const w = await createTestWorkspace(ctx);
  const analyst = await addTestUser(ctx, { workspaceId: w.workspaceId, role: 'analyst' });
  const viewer = await addTestUser(ctx, { workspaceId: w.workspaceId, role: 'viewer' });
  const foreign = await createTestWorkspace(ctx);
  return { w, analyst, viewer, foreign };
}
