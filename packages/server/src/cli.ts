import { ConfigError, loadConfig } from './config.ts';
import { buildApp } from './http/app.ts';
import { closeContext, createContext, createLogger, openConfiguredDatabase } from './main.ts';
import { migrate } from './storage/db.ts';

const USAGE = `Usage: warden <command> [options]

Commands:
  serve [--host H] [--port P] [--data-dir D] …   run the server (npm start)
  migrate                                          apply pending database migrations
  init --email E --password P [--plan free|pro|enterprise] [--origin O]…
  user add --workspace W --email E --password P --role owner|analyst|viewer
  workspace plan W free|pro|enterprise
  site create --workspace W --name N [--origin O]…

Settings come from WARDEN_* environment variables; flags override them (docs/configuration.md).`;

/** Print a JSON result: the only thing a command writes to stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

export class UsageError extends Error {}

async function serve(argv: string[]): Promise<number> {
  const config = loadConfig(process.env, argv);
  const logger = createLogger(config);
  if (config.unsafeWebhookTargets) {
    logger.warn(
      'WARDEN_UNSAFE_WEBHOOK_TARGETS is on: webhooks may target loopback, private addresses and plain http',
    );
  }
  const ctx = await createContext(config, logger);
  const app = await buildApp(ctx);
  const address = await app.listen({ host: config.host, port: config.port });
  logger.info(
    { address, storage: ctx.database.dialect, hotState: config.redisUrl ? 'redis' : 'memory' },
    'warden serving',
  );
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      logger.info({ signal }, 'shutting down');
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await app.close();
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

type Command = (argv: string[]) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  serve,
  migrate: migrateCommand,
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
