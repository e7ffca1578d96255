import { type ParseArgsConfig, parseArgs } from 'node:util';
import { SETTINGS } from './config.ts';

/** A command line the user got wrong: exit code 2 and the message on stderr. */
export class UsageError extends Error {}

export interface CommandFlagSpec {
  /** Flags that take one value; the last one wins. */
  single?: readonly string[];
  /** Flags that may repeat (`--origin a --origin b`). */
  multi?: readonly string[];
  /** Switches of the command itself (`--password-stdin`). */
  switches?: readonly string[];
  /** The setting flags the command takes (default: every one of SETTINGS). */
  settings?: readonly SettingFlag[];
}

export type SettingFlag = keyof typeof SETTINGS;

/** The setting flags a command takes. */
export function settingFlags(spec: CommandFlagSpec): readonly SettingFlag[] {
  return spec.settings ?? (Object.keys(SETTINGS) as SettingFlag[]);
}

export interface ParsedArgs {
  single: Record<string, string>;
  multi: Record<string, string[]>;
  positionals: string[];
  /** Setting flags (--data-dir, --database-url, …) for loadConfig(), each as `--name=value`. */
  settings: string[];
  /** `--help` / `-h` was given. */
  help: boolean;
  /** The command's own switches that were given. */
  switches: Set<string>;
}

/** Settings that are switches: given without a value they mean on (`--seed-demo` = `--seed-demo=1`). */
export const SWITCH_SETTINGS: ReadonlySet<string> = new Set([
  'unsafe-webhook-targets',
  'webhook-worker',
  'ip-db',
  'seed-demo',
]);
const SWITCH_VALUE = /^(1|0|true|false|yes|no|on|off)$/i;

/**
 * A switch setting followed by something that is not a yes/no word takes no value: written
 * `--name=1` so that parseArgs does not take the next argument (a positional, a flag) as its value.
 */
function spellOutSwitches(argv: readonly string[]): string[] {
  return argv.map((arg, i) => {
    if (!arg.startsWith('--') || arg.includes('=') || !SWITCH_SETTINGS.has(arg.slice(2))) return arg;
    const next = argv[i + 1];
    return next !== undefined && SWITCH_VALUE.test(next) ? arg : `${arg}=1`;
  });
}

/** parseArgs' messages, shortened to what a person needs. */
function usageError(err: Error & { code?: string }, argv: readonly string[]): UsageError {
  // "Option '-h, --help' does not take …", "Unknown option '--bogus'": the long name where there is one.
  const named = /'(-[^' ,]+)(?:, (--[^' ]+))?/.exec(err.message);
  const flag = named?.[2] ?? named?.[1];
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
    return new UsageError(`unknown flag ${flag ?? ''}`.trim());
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && flag) {
    const at = argv.indexOf(flag);
    const next = at === -1 ? undefined : argv[at + 1];
    if (next?.startsWith('-')) {
      return new UsageError(`${flag} needs a value (write ${flag}=${next} for a value that starts with "-")`);
    }
    if (/does not take an argument/.test(err.message)) return new UsageError(`${flag} takes no value`);
    return new UsageError(`${flag} needs a value`);
  }
  return new UsageError(err.message.split('\n')[0] ?? err.message);
}

/**
 * Parse a command's flags with node:util parseArgs (strict: an unknown flag is a usage error).
 * Accepts the command's own flags, every setting flag (passed on as `--name=value` for loadConfig),
 * `--help`/`-h`, and positionals; `--x v` and `--x=v` both work.
 */
export function parseCommandArgs(argv: readonly string[], spec: CommandFlagSpec): ParsedArgs {
  const options: NonNullable<ParseArgsConfig['options']> = { help: { type: 'boolean', short: 'h' } };
  for (const name of settingFlags(spec)) options[name] = { type: 'string' };
  for (const name of spec.switches ?? []) options[name] = { type: 'boolean' };
  for (const name of spec.single ?? []) options[name] = { type: 'string' };
  for (const name of spec.multi ?? []) options[name] = { type: 'string', multiple: true };
  const args = spellOutSwitches(argv);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw usageError(err as Error & { code?: string }, args);
  }
  const out: ParsedArgs = {
    single: {},
    multi: {},
    positionals: parsed.positionals,
    settings: [],
    help: false,
    switches: new Set(),
  };
  for (const [name, value] of Object.entries(parsed.values)) {
    if (name === 'help') out.help = value === true;
    else if (spec.switches?.includes(name)) {
      if (value === true) out.switches.add(name);
    } else if (spec.multi?.includes(name)) out.multi[name] = value as string[];
    else if (spec.single?.includes(name)) out.single[name] = value as string;
    else out.settings.push(`--${name}=${value as string}`);
  }
  return out;
}

export function required(args: ParsedArgs, name: string): string {
  const value = args.single[name];
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

export function oneOf<T extends string>(value: string, allowed: readonly T[], what: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`${what} must be one of ${allowed.join(', ')}, got "${value}"`);
  }
  return value as T;
}
