import type { AddressInfo } from 'node:net';
import { oneOf, parseCommandArgs, required, UsageError } from './cli-args.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { ApiError } from './errors.ts';
import { buildApp } from './http/app.ts';
import { closeContext, createContext, createLogger, openConfiguredDatabase } from './main.ts';
import { Readiness } from './readiness.ts';
import { decisionWriter } from './scoring/decision-writer.ts';
import { type Database, migrate } from './storage/db.ts';
import { WebhookDispatcher } from './webhooks/dispatcher.ts';
import { cancelDeliveriesWithoutPlan } from './webhooks/outbox.ts';
import { DEMO_CREDENTIALS_FILE, demoOrigins, formatDemoBanner, seedDemo } from './workspace/demo-seed.ts';
import { onboard, WrongPasswordError } from './workspace/onboarding.ts';
import { normaliseOrigins } from './workspace/origins.ts';
import { hashPassword, verifyPassword } from './workspace/passwords.ts';
import { type Plan, ROLES } from './workspace/permissions.ts';
import { createSite } from './workspace/sites.ts';
import { createUser, findUserByEmail } from './workspace/users.ts';
import { addMembership, findMembership, findWorkspace, PLANS, setPlan } from './workspace/workspaces.ts';

export { UsageError } from './cli-args.ts';

const USAGE = `Usage: warden <command> [options]

Commands:
  serve [--host H] [--port P] [--data-dir D] …   run the server (npm start)
  migrate                                          apply pending database migrations
  init --email E --password P [--plan free|pro|enterprise] [--origin O]…
  user add --workspace W --email E --password P --role owner|analyst|viewer
  workspace plan W free|pro|enterprise
  site create --workspace W --name N [--origin O]…

Settings come from WARDEN_* environment variables; flags override them (docs/configuration.md).
Commands other than serve print one JSON object on stdout and nothing else.`;

/** Print a JSON result: the only thing a command writes to stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const MIN_PASSWORD = 8;

async function serve(argv: string[]): Promise<number> {
  const config = loadConfig(process.env, argv);
  const logger = createLogger(config);
  if (config.unsafeWebhookTargets) {
    logger.warn(
      'WARDEN_UNSAFE_WEBHOOK_TARGETS is on: webhooks may target loopback, private addresses and plain http',
    );
  }
  const readiness = new Readiness();
  // Migrations are applied here, before the server listens.
  const ctx = { ...(await createContext(config, logger)), readiness };
  const app = await buildApp(ctx);
  readiness.track('decisionWriter', decisionWriter(ctx.database).ready());
  const webhooks = config.webhookWorker ? new WebhookDispatcher(ctx) : null;
  webhooks?.start();
  if (webhooks) readiness.track('webhookWorker', webhooks.started);
  const address = await app.listen({ host: config.host, port: config.port });
  logger.info(
    { address, storage: ctx.database.dialect, hotState: config.redisUrl ? 'redis' : 'memory' },
    'warden serving',
  );
  if (config.seedDemo) {
    // After listen: with --port 0 only now do we know the port the demo origins need.
    const port = (app.server.address() as AddressInfo).port;
    const origins = demoOrigins(config.host, port);
    const seeding = seedDemo(
      { database: ctx.database, dataDir: config.dataDir, logger, now: ctx.now },
      origins,
    );
    // Tracked in the same turn as listen resolved: no request is answered in between.
    readiness.track('demoSeed', seeding);
    const seeded = await seeding;
    if (seeded) {
      const file = `${config.dataDir}/${DEMO_CREDENTIALS_FILE}`;
      process.stderr.write(formatDemoBanner(seeded, origins[0] ?? address, file));
    }
  }
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      logger.info({ signal }, 'shutting down');
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await app.close();
  await webhooks?.stop();
  await closeContext(ctx);
  return 0;
}

async function migrateCommand(argv: string[]): Promise<number> {
  const config = loadConfig(process.env, argv);
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

async function init(argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { single: ['email', 'password', 'plan'], multi: ['origin'] });
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const input = {
    email: email(required(args, 'email')),
    password: required(args, 'password'),
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

async function userCommand(argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { single: ['workspace', 'email', 'password', 'role'] });
  if (args.positionals[0] !== 'add' || args.positionals.length > 1) {
    throw new UsageError('usage: warden user add --workspace W --email E --password P --role R');
  }
  const workspaceId = required(args, 'workspace');
  const address = email(required(args, 'email'));
  const password = required(args, 'password');
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

async function workspaceCommand(argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, {});
  const [sub, workspaceId, planName, ...extra] = args.positionals;
  if (sub !== 'plan' || !workspaceId || !planName || extra.length > 0) {
    throw new UsageError('usage: warden workspace plan W free|pro|enterprise');
  }
  const plan: Plan = oneOf(planName, PLANS, 'plan');
  await withDatabase(args.settings, async (database) => {
    if (!(await setPlan(database.db, workspaceId, plan, Date.now()))) {
      throw new Error(`workspace ${workspaceId} not found`);
    }
    // Losing webhook access cancels queued deliveries at once (interface 6.1 rule 3).
    await cancelDeliveriesWithoutPlan(database.db);
  });
  printJson({ workspaceId, plan });
  return 0;
}

async function siteCommand(argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { single: ['workspace', 'name'], multi: ['origin'] });
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

type Command = (argv: string[]) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  serve,
  migrate: migrateCommand,
  init,
  user: userCommand,
  workspace: workspaceCommand,
  site: siteCommand,
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === 'help') {
    process.stderr.write(`${USAGE}\n`);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`warden: unknown command "${name}"\n\n${USAGE}\n`);
    return 2;
  }
  try {
    return await command(rest);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof UsageError) {
      process.stderr.write(`warden ${name}: ${err.message}\n`);
      return 2;
    }
    process.stderr.write(`warden ${name}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
