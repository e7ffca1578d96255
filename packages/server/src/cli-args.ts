import { SETTINGS } from './config.ts';

/** A command line the user got wrong: exit code 2 and the message on stderr. */
export class UsageError extends Error {}

export interface CommandFlagSpec {
  /** Flags that take one value; the last one wins. */
  single?: readonly string[];
  /** Flags that may repeat (`--origin a --origin b`). */
  multi?: readonly string[];
}

export interface ParsedArgs {
  single: Record<string, string>;
  multi: Record<string, string[]>;
  positionals: string[];
  /** Setting flags (--data-dir, --database-url, …) left for loadConfig(). */
  settings: string[];
}

/**
 * Split a command's own flags from setting flags. loadConfig() rejects unknown flags, so command
 * flags must be taken out first; setting flags are passed on unchanged (same `--x v` / `--x=v` forms).
 */
export function parseCommandArgs(argv: readonly string[], spec: CommandFlagSpec): ParsedArgs {
  const single = new Set(spec.single ?? []);
  const multi = new Set(spec.multi ?? []);
  const out: ParsedArgs = { single: {}, multi: {}, positionals: [], settings: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      out.positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const next = argv[i + 1];
    const hasNext = next !== undefined && !next.startsWith('--');
    if (single.has(name) || multi.has(name)) {
      let value: string;
      if (eq !== -1) value = arg.slice(eq + 1);
      else if (hasNext) value = argv[++i]!;
      else throw new UsageError(`--${name} needs a value`);
      if (single.has(name)) out.single[name] = value;
      else out.multi[name] = [...(out.multi[name] ?? []), value];
    } else if (name in SETTINGS) {
      out.settings.push(arg);
      if (eq === -1 && hasNext) out.settings.push(argv[++i]!);
    } else {
      throw new UsageError(`unknown flag --${name}`);
    }
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
