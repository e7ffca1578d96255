// The administration commands (migrate, init, user add, workspace plan, site create): open the
// configured database, change it, print one JSON object. Loaded by cli.ts only when one of them runs.

import { type Plan, ROLES } from '@warden/protocol/permissions';
import { oneOf, type ParsedArgs, required, UsageError } from './cli-args.ts';
import { passwordFrom } from './cli-password.ts';
import { type Config, loadConfig } from './config.ts';
import { ApiError } from './errors.ts';
import { openConfiguredDatabase } from './storage/configured.ts';
import { type Database, migrate } from './storage/db.ts';
import { cancelDeliveriesWithoutPlan } from './webhooks/outbox.ts';
import { onboard, WrongPasswordError } from './workspace/onboarding.ts';
import { normaliseOrigins } from './workspace/origins.ts';
import { hashPassword, verifyPassword } from './workspace/passwords.ts';
import { announcedSiteChanges } from './workspace/site-change-feed.ts';
import { createSite } from './workspace/sites.ts';
import { createUser, findUserByEmail } from './workspace/users.ts';
import { addMembership, findMembership, findWorkspace, PLANS, setPlan } from './workspace/workspaces.ts';

/** Print a JSON result: the only thing a command writes to stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

const processIo = () => ({ env: process.env, stdin: process.stdin, stderr: process.stderr });

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const MIN_PASSWORD = 8;

export async function migrateCommand(args: ParsedArgs): Promise<number> {
  noPositionals(args);
  const config = loadConfig(process.env, args.settings);
  const database = openConfiguredDatabase(config);
  try {
    printJson({ applied: await migrate(database) });
  } finally {
    await database.close();
  }
  return 0;
}

/** Open the configured database with migrations applied, run `work`, close it. */
async function withDatabase<T>(settings: string[], work: (database: Database, config: Config) => Promise<T>) {
  const config = loadConfig(process.env, settings);
  const database = openConfiguredDatabase(config);
  try {
    await migrate(database);
    return await work(database, config);
  } finally {
    await database.close();
  }
}

function noPositionals(args: ParsedArgs): void {
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
}

function email(value: string): string {
  if (!EMAIL.test(value)) throw new UsageError(`--email "${value}" is not an e-mail address`);
  return value;
}

function newPassword(value: string): string {
  if (value.length < MIN_PASSWORD)
    throw new UsageError(`--password must have at least ${MIN_PASSWORD} characters`);
  return value;
}

/** Origins from --origin flags, or a usage error naming the bad one. */
function origins(values: string[] | undefined): string[] {
  try {
    return normaliseOrigins(values ?? [], 'origin');
  } catch (err) {
    if (err instanceof ApiError) throw new UsageError(`--origin ${err.details?.[0]?.message ?? err.message}`);
    throw err;
  }
}

export async function init(args: ParsedArgs): Promise<number> {
  noPositionals(args);
  const input = {
    email: email(required(args, 'email')),
    password: await passwordFrom(args, processIo()),
    plan: oneOf(args.single.plan ?? 'free', PLANS, '--plan'),
    origins: origins(args.multi.origin),
  };
  const result = await withDatabase(args.settings, async (database) => {
    // A new account's password must be long enough; an existing one's must simply match.
    if (!(await findUserByEmail(database.db, input.email))) newPassword(input.password);
    return onboard(database, input, Date.now());
  });
  printJson(result);
  return 0;
}

async function requireWorkspaceRow(database: Database, id: string): Promise<void> {
  if (!(await findWorkspace(database.db, id))) throw new Error(`workspace ${id} not found`);
}

export async function userCommand(args: ParsedArgs): Promise<number> {
  if (args.positionals[0] !== 'add' || args.positionals.length > 1) {
    throw new UsageError('usage: warden user add --workspace W --email E --role R [--password-stdin]');
  }
  const workspaceId = required(args, 'workspace');
  const address = email(required(args, 'email'));
  const password = await passwordFrom(args, processIo());
  const role = oneOf(required(args, 'role'), ROLES, '--role');
  const userId = await withDatabase(args.settings, async (database) => {
    await requireWorkspaceRow(database, workspaceId);
    let user = await findUserByEmail(database.db, address);
    if (user) {
      // Same rule as init: naming an existing account takes its password.
      if (!user.password_hash || !(await verifyPassword(password, user.password_hash))) {
        throw new WrongPasswordError(user.email);
      }
    } else {
      const passwordHash = await hashPassword(newPassword(password));
      user = await createUser(database.db, { email: address, passwordHash }, Date.now());
    }
    if (await findMembership(database.db, workspaceId, user.id)) {
      throw new Error(`${user.email} is already a member of workspace ${workspaceId}`);
    }
    await addMembership(database.db, workspaceId, user.id, role, Date.now());
    return user.id;
  });
  printJson({ userId });
  return 0;
}

export async function workspaceCommand(args: ParsedArgs): Promise<number> {
  const [sub, workspaceId, planName, ...extra] = args.positionals;
  if (sub !== 'plan' || !workspaceId || !planName || extra.length > 0) {
    throw new UsageError('usage: warden workspace plan W free|pro|enterprise');
  }
  const plan: Plan = oneOf(planName, PLANS, 'plan');
  await withDatabase(args.settings, async (database) => {
    if (!(await setPlan(database.db, workspaceId, plan, Date.now(), announcedSiteChanges(database)))) {
      throw new Error(`workspace ${workspaceId} not found`);
    }
    // Losing webhook access cancels queued deliveries at once (interface 6.1 rule 3).
    await cancelDeliveriesWithoutPlan(database.db);
  });
  printJson({ workspaceId, plan });
  return 0;
}

export async function siteCommand(args: ParsedArgs): Promise<number> {
  if (args.positionals[0] !== 'create' || args.positionals.length > 1) {
    throw new UsageError('usage: warden site create --workspace W --name N [--origin O]…');
  }
  const workspaceId = required(args, 'workspace');
  const name = required(args, 'name').trim();
  if (name === '') throw new UsageError('--name must not be blank');
  const allowedOrigins = origins(args.multi.origin);
  const result = await withDatabase(args.settings, async (database) => {
    await requireWorkspaceRow(database, workspaceId);
    const { site, keys } = await createSite(database.db, { workspaceId, name, allowedOrigins }, Date.now());
    return { siteId: site.id, siteKey: keys.siteKey, secretKey: keys.secretKey };
  });
  printJson(result);
  return 0;
}
