// The `warden` command line: parses flags (node:util parseArgs), prints help and the version, and
// loads a command's code only when it runs (cli-serve.ts, cli-admin.ts), so `--version` and
// `--help` start in a few tens of milliseconds from the build in dist/.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  type CommandFlagSpec,
  type ParsedArgs,
  parseCommandArgs,
  type SettingFlag,
  SWITCH_SETTINGS,
  settingFlags,
  UsageError,
} from './cli-args.ts';
import { ConfigError, SETTINGS } from './config.ts';
import { PACKAGES_DIR } from './paths.ts';

export { UsageError } from './cli-args.ts';

interface FlagHelp {
  flag: string;
  text: string;
}

interface Command {
  usage: string;
  summary: string;
  flags: FlagHelp[];
  spec: CommandFlagSpec;
  run: (args: ParsedArgs) => Promise<number>;
}

const admin = () => import('./cli-admin.ts');

/** What the one-off commands read: where the database is, and how much to log. */
const DATABASE_SETTINGS: readonly SettingFlag[] = ['data-dir', 'database-url', 'log-level'];

const PASSWORD_FLAGS: FlagHelp[] = [
  { flag: '--password P', text: 'the password on the command line (visible to ps and shell history)' },
  { flag: '--password-stdin', text: 'read the password from standard input (one line)' },
  {
    flag: '',
    text: 'without either: WARDEN_PASSWORD from the environment, else a prompt on a terminal',
  },
];

const COMMANDS: Record<string, Command> = {
  serve: {
    usage: 'warden serve [setting flags]',
    summary: 'Run the server (npm start). Logs JSON lines on stdout.',
    flags: [],
    spec: {},
    run: async (args) => (await import('./cli-serve.ts')).serve(args),
  },
  migrate: {
    usage: 'warden migrate [setting flags]',
    summary: 'Apply pending database migrations; prints {"applied":[…]}.',
    flags: [],
    spec: { settings: DATABASE_SETTINGS },
    run: async (args) => (await admin()).migrateCommand(args),
  },
  init: {
    usage:
      'warden init --email E [--password P | --password-stdin] [--plan free|pro|enterprise] [--origin O]…',
    summary:
      'Create a workspace with its owner and a first site; prints {"workspaceId","userId","siteId","siteKey","secretKey"}.\n' +
      'An existing account gets another workspace if the password matches.',
    flags: [
      { flag: '--email E', text: "the owner's e-mail address (required)" },
      ...PASSWORD_FLAGS,
      { flag: '--plan PLAN', text: 'free (default), pro or enterprise' },
      { flag: '--origin O', text: 'an origin the site accepts browser calls from; repeat for more' },
    ],
    spec: {
      single: ['email', 'password', 'plan'],
      multi: ['origin'],
      switches: ['password-stdin'],
      settings: DATABASE_SETTINGS,
    },
    run: async (args) => (await admin()).init(args),
  },
  user: {
    usage:
      'warden user add --workspace W --email E [--password P | --password-stdin] --role owner|analyst|viewer',
    summary:
      'Add a member to a workspace (a new account, or an existing one with its password); prints {"userId"}.',
    flags: [
      { flag: '--workspace W', text: 'workspace id (required)' },
      { flag: '--email E', text: 'e-mail address (required)' },
      ...PASSWORD_FLAGS,
      { flag: '--role ROLE', text: 'owner, analyst or viewer (required)' },
    ],
    spec: {
      single: ['workspace', 'email', 'password', 'role'],
      switches: ['password-stdin'],
      settings: DATABASE_SETTINGS,
    },
    run: async (args) => (await admin()).userCommand(args),
  },
  workspace: {
    usage: 'warden workspace plan W free|pro|enterprise',
    summary: 'Change a workspace\'s plan; prints {"workspaceId","plan"}.',
    flags: [],
    spec: { settings: DATABASE_SETTINGS },
    run: async (args) => (await admin()).workspaceCommand(args),
  },
  site: {
    usage: 'warden site create --workspace W --name N [--origin O]…',
    summary: 'Create a site in a workspace; prints {"siteId","siteKey","secretKey"}.',
    flags: [
      { flag: '--workspace W', text: 'workspace id (required)' },
      { flag: '--name N', text: 'site name (required)' },
      { flag: '--origin O', text: 'an origin the site accepts browser calls from; repeat for more' },
    ],
    spec: { single: ['workspace', 'name'], multi: ['origin'], settings: DATABASE_SETTINGS },
    run: async (args) => (await admin()).siteCommand(args),
  },
};

const USAGE = `Usage: warden <command> [options]

Commands:
${Object.values(COMMANDS)
  .map((command) => `  ${command.usage}`)
  .join('\n')}

  warden <command> --help   the command's flags
  warden --version          the version

Settings come from WARDEN_* environment variables; flags override them (docs/configuration.md).
Commands other than serve print one JSON object on stdout and nothing else.`;

function columns(rows: Array<[string, string]>): string {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`).join('\n');
}

function commandHelp(command: Command): string {
  const own: Array<[string, string]> = command.flags.map(({ flag, text }) => [flag, text]);
  own.push(['-h, --help', 'print this help']);
  const settings = settingFlags(command.spec).map((flag): [string, string] => [
    SWITCH_SETTINGS.has(flag) ? `--${flag} [true|false]` : `--${flag} VALUE`,
    SETTINGS[flag],
  ]);
  return `Usage: ${command.usage}

${command.summary}

Options:
${columns(own)}

Setting flags (each overrides its environment variable; docs/configuration.md):
${columns(settings)}
`;
}

export function version(): string {
  const manifest = JSON.parse(readFileSync(path.join(PACKAGES_DIR, 'server', 'package.json'), 'utf8'));
  return String(manifest.version);
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v') {
    process.stdout.write(`warden ${version()}\n`);
    return 0;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (!name) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    process.stderr.write(`warden: unknown command "${name}"\n\n${USAGE}\n`);
    return 2;
  }
  try {
    const args = parseCommandArgs(rest, command.spec);
    if (args.help) {
      process.stdout.write(commandHelp(command));
      return 0;
    }
    return await command.run(args);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`warden ${name}: ${err.message} (warden ${name} --help lists the flags)\n`);
      return 2;
    }
    if (err instanceof ConfigError) {
      process.stderr.write(`warden ${name}: ${err.message}\n`);
      return 2;
    }
    process.stderr.write(`warden ${name}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
