import path from 'node:path';
import type { RetentionSettings } from './decisions/retention.ts';

/** One typed configuration, parsed once from the environment and CLI flags (flags win). */
export interface Config {
  host: string;
  port: number;
  /**
   * The URL browsers and identity providers reach this server at (no trailing slash); SAML
   * entity ids and ACS URLs are built from it. Defaults to `http://<host>:<port>`.
   */
  publicUrl: string;
  dataDir: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** postgres://… switches storage from the embedded SQLite file to PostgreSQL. */
  databaseUrl: string | undefined;
  /** redis://… switches hot state (counters, single-use ids, rate limits) to Redis. */
  redisUrl: string | undefined;
  /** HMAC key for access tokens and fingerprint tokens; generated and kept in the database when unset. */
  secret: string | undefined;
  /** Proxies whose X-Forwarded-For is trusted (IPs or CIDRs). Empty: the socket address is the client. */
  trustedProxies: string[];
  unsafeWebhookTargets: boolean;
  webhookBackoffBaseS: number;
  /** Hostname suffixes treated as private platform names for webhook URLs. */
  webhookPrivateSuffixes: string[];
  /** Run the webhook dispatcher inside `serve`. */
  webhookWorker: boolean;
  rateLimits: {
    browserPerSecond: number;
    serverPerSecond: number;
    loginPerMinuteAccount: number;
    loginPerMinuteIp: number;
  };
  powFloor: number;
  /** HTTP server timeouts in ms (docs/operations.md, "Timeouts"). */
  http: { requestTimeoutMs: number; headersTimeoutMs: number; keepAliveTimeoutMs: number };
  /** Time for all custom rules of one decision (ms); a rule past it is skipped (docs/rules.md). */
  ruleTimeBudgetMs: number;
  /**
   * WARDEN_MEMORY_MB in bytes: what in-process state (hot state, identity graph) may hold in all,
   * split by MEMORY_SHARES. Sized so the whole process stays near 300 MB RSS by default.
   */
  memoryBudgetBytes: number;
  /** Offline ASN database for IP intelligence: on by default; `dir` overrides the package's CSVs. */
  ipDatabase: { enabled: boolean; dir: string | undefined };
  seedDemo: boolean;
  nodeEnv: string;
  /**
   * `serve`'s HTTP worker processes (WARDEN_WORKERS, default 1: see docs/configuration.md). 1: one
   * process does everything; more: a primary owns the shared state and the workers share the port
   * (docs/architecture.md, "Using more cores").
   */
  workers: number;
  /** Serve /metrics on this port of `host` instead of the main port. */
  metricsPort: number | undefined;
  /** When set, /metrics answers only `Authorization: Bearer <metricsToken>`. */
  metricsToken: string | undefined;
  /** How long decisions and their raw evidence are kept (decisions/retention.ts). */
  retention: RetentionSettings;
}

export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(`${setting}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Source = Record<string, string | undefined>;

/** Map of flag name (without --) to environment variable name. */
export const SETTINGS = {
  host: 'WARDEN_HOST',
  port: 'WARDEN_PORT',
  'public-url': 'WARDEN_PUBLIC_URL',
  'data-dir': 'WARDEN_DATA_DIR',
  'log-level': 'WARDEN_LOG_LEVEL',
  'database-url': 'WARDEN_DATABASE_URL',
  'redis-url': 'WARDEN_REDIS_URL',
  secret: 'WARDEN_SECRET',
  'trusted-proxies': 'WARDEN_TRUSTED_PROXIES',
  'unsafe-webhook-targets': 'WARDEN_UNSAFE_WEBHOOK_TARGETS',
  'webhook-backoff-base-s': 'WARDEN_WEBHOOK_BACKOFF_BASE_S',
  'webhook-private-suffixes': 'WARDEN_WEBHOOK_PRIVATE_SUFFIXES',
  'webhook-worker': 'WARDEN_WEBHOOK_WORKER',
  'rate-browser-per-second': 'WARDEN_RATE_BROWSER_PER_SECOND',
  'rate-server-per-second': 'WARDEN_RATE_SERVER_PER_SECOND',
  'rate-login-per-minute-account': 'WARDEN_RATE_LOGIN_PER_MINUTE_ACCOUNT',
  'rate-login-per-minute-ip': 'WARDEN_RATE_LOGIN_PER_MINUTE_IP',
  'pow-floor': 'WARDEN_POW_FLOOR',
  'rule-time-budget-ms': 'WARDEN_RULE_TIME_BUDGET_MS',
  'request-timeout-ms': 'WARDEN_REQUEST_TIMEOUT_MS',
  'headers-timeout-ms': 'WARDEN_HEADERS_TIMEOUT_MS',
  'keep-alive-timeout-ms': 'WARDEN_KEEP_ALIVE_TIMEOUT_MS',
  'ip-db': 'WARDEN_IP_DB',
  'ip-db-dir': 'WARDEN_IP_DB_DIR',
  'seed-demo': 'WARDEN_SEED_DEMO',
  'memory-mb': 'WARDEN_MEMORY_MB',
  workers: 'WARDEN_WORKERS',
  'metrics-port': 'WARDEN_METRICS_PORT',
  'metrics-token': 'WARDEN_METRICS_TOKEN',
  'retention-days': 'WARDEN_RETENTION_DAYS',
  'evidence-retention-days': 'WARDEN_EVIDENCE_RETENTION_DAYS',
} as const;

export type FlagName = keyof typeof SETTINGS;

/**
 * Default WARDEN_MEMORY_MB: the whole process should stay under 300 MB RSS. Measured with
 * `npm run bench:soak -- --detail` (high-cardinality stream, embedded SQLite, Node 20): a started
 * process is ~140–170 MB (50 MB of it the node binary; IP database ~25 MB; V8's young generation
 * 32 MB); under load the rest is V8 head room above the live heap (heap-tuning.ts), the writer
 * thread and SQLite's page caches (storage/sqlite-connection.mjs). Each MB of budget costs ~1.2 MB
 * of RSS once full (the hot state's share 1:1 in typed arrays, the identity graph's with the V8
 * heap's head room): 96 MB plateaued at 330–345 MB RSS, 64 MB at the figure in
 * docs/architecture.md ("Memory outside the budget").
 */
export const DEFAULT_MEMORY_MB = 64;
/**
 * How the memory budget is split: the in-process hot state (state/memory.ts) and the identity
 * graph. Each never holds more than its share of memoryBudgetBytes.
 */
export const MEMORY_SHARES = { hotState: 0.6, identity: 0.4 } as const;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const DEFAULT_PRIVATE_SUFFIXES = [
  '.localhost',
  '.internal',
  '.local',
  '.localdomain',
  '.home.arpa',
  '.lan',
  '.corp',
  '.intranet',
  '.svc.cluster.local',
];

/** Parse `--name value` / `--name=value` flags into a map of env names. Unknown flags are an error. */
export function flagsToEnv(argv: readonly string[]): Source {
  const out: Source = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) throw new ConfigError(arg, 'unexpected argument');
    const eq = arg.indexOf('=');
    const name = (eq === -1 ? arg.slice(2) : arg.slice(2, eq)) as FlagName;
    const env = SETTINGS[name];
    if (!env) throw new ConfigError(`--${name}`, 'unknown flag');
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else if (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--')) value = argv[++i];
    else value = '1';
    out[env] = value;
  }
  return out;
}

function int(src: Source, name: string, fallback: number, min: number, max: number): number {
  const raw = src[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function num(src: Source, name: string, fallback: number, min: number): number {
  const raw = src[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new ConfigError(name, `expected a number ≥ ${min}, got "${raw}"`);
  return n;
}

function bool(src: Source, name: string, fallback: boolean): boolean {
  const raw = src[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(name, `expected true/false (1/0), got "${raw}"`);
}

function url(src: Source, name: string, protocols: string[]): string | undefined {
  const raw = src[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, 'not a valid URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `expected a ${protocols.join(' or ')} URL, got ${parsed.protocol}`);
  }
  return raw;
}

function list(src: Source, name: string): string[] | undefined {
  const raw = src[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** WARDEN_PUBLIC_URL: an http(s) origin with an optional path prefix, no query or fragment. */
function publicUrl(src: Source, host: string, port: number): string {
  const raw = url(src, 'WARDEN_PUBLIC_URL', ['http:', 'https:']);
  if (raw === undefined) {
    const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
    return `http://${shown}:${port}`;
  }
  const parsed = new URL(raw);
  if (parsed.search || parsed.hash || parsed.username || parsed.password) {
    throw new ConfigError('WARDEN_PUBLIC_URL', 'must not contain credentials, a query or a fragment');
  }
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
}

/** WARDEN_METRICS_TOKEN: a bearer token of at least 16 characters, or unset. */
function metricsToken(src: Source): string | undefined {
  const raw = src.WARDEN_METRICS_TOKEN;
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < 16) throw new ConfigError('WARDEN_METRICS_TOKEN', 'must be at least 16 characters');
  return raw;
}

export function loadConfig(env: Source = process.env, argv: readonly string[] = []): Config {
  const src: Source = { ...env, ...flagsToEnv(argv) };
  const logLevel = (src.WARDEN_LOG_LEVEL ?? 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('WARDEN_LOG_LEVEL', `expected one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const nodeEnv = src.NODE_ENV ?? 'development';
  const unsafeWebhookTargets = bool(src, 'WARDEN_UNSAFE_WEBHOOK_TARGETS', false);
  if (unsafeWebhookTargets && nodeEnv === 'production') {
    throw new ConfigError(
      'WARDEN_UNSAFE_WEBHOOK_TARGETS',
      'is refused when NODE_ENV=production (it allows webhooks to loopback and private addresses)',
    );
  }
  const secret = src.WARDEN_SECRET;
  if (secret !== undefined && secret !== '' && secret.length < 32) {
    throw new ConfigError('WARDEN_SECRET', 'must be at least 32 characters');
  }
  const trustedProxies = list(src, 'WARDEN_TRUSTED_PROXIES') ?? [];
  const host = src.WARDEN_HOST || '127.0.0.1';
  const port = int(src, 'WARDEN_PORT', 8080, 0, 65535);
  const metricsPort = src.WARDEN_METRICS_PORT ? int(src, 'WARDEN_METRICS_PORT', 0, 0, 65535) : undefined;
  if (metricsPort !== undefined && metricsPort !== 0 && metricsPort === port) {
    throw new ConfigError('WARDEN_METRICS_PORT', 'must differ from WARDEN_PORT');
  }
  const requestTimeoutMs = int(src, 'WARDEN_REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000);
  const headersTimeoutMs = int(src, 'WARDEN_HEADERS_TIMEOUT_MS', 10_000, 100, 3_600_000);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(
      'WARDEN_HEADERS_TIMEOUT_MS',
      `must not exceed WARDEN_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`,
    );
  }
  return {
    host,
    port,
    publicUrl: publicUrl(src, host, port),
    dataDir: path.resolve(src.WARDEN_DATA_DIR || './data'),
    logLevel,
    databaseUrl: url(src, 'WARDEN_DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: url(src, 'WARDEN_REDIS_URL', ['redis:', 'rediss:']),
    secret: secret || undefined,
    trustedProxies,
    unsafeWebhookTargets,
    webhookBackoffBaseS: num(src, 'WARDEN_WEBHOOK_BACKOFF_BASE_S', 60, 0),
    webhookPrivateSuffixes: list(src, 'WARDEN_WEBHOOK_PRIVATE_SUFFIXES') ?? DEFAULT_PRIVATE_SUFFIXES,
    webhookWorker: bool(src, 'WARDEN_WEBHOOK_WORKER', true),
    rateLimits: {
      browserPerSecond: int(src, 'WARDEN_RATE_BROWSER_PER_SECOND', 100, 1, 1_000_000),
      serverPerSecond: int(src, 'WARDEN_RATE_SERVER_PER_SECOND', 1000, 1, 1_000_000),
      loginPerMinuteAccount: int(src, 'WARDEN_RATE_LOGIN_PER_MINUTE_ACCOUNT', 10, 1, 1_000_000),
      loginPerMinuteIp: int(src, 'WARDEN_RATE_LOGIN_PER_MINUTE_IP', 30, 1, 1_000_000),
    },
    powFloor: int(src, 'WARDEN_POW_FLOOR', 14, 1, 26),
    ruleTimeBudgetMs: int(src, 'WARDEN_RULE_TIME_BUDGET_MS', 25, 1, 10_000),
    http: {
      requestTimeoutMs,
      headersTimeoutMs,
      keepAliveTimeoutMs: int(src, 'WARDEN_KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 3_600_000),
    },
    memoryBudgetBytes: int(src, 'WARDEN_MEMORY_MB', DEFAULT_MEMORY_MB, 16, 1_048_576) * 1024 * 1024,
    ipDatabase: { enabled: bool(src, 'WARDEN_IP_DB', true), dir: src.WARDEN_IP_DB_DIR || undefined },
    seedDemo: bool(src, 'WARDEN_SEED_DEMO', true),
    nodeEnv,
    workers: int(src, 'WARDEN_WORKERS', 1, 1, 1024),
    metricsPort,
    metricsToken: metricsToken(src),
    retention: retention(src),
  };
}

/**
 * WARDEN_RETENTION_DAYS (decisions, default 365) and WARDEN_EVIDENCE_RETENTION_DAYS (their raw
 * evidence, default 30, at most the decisions'): whole days, 0 keeps for ever.
 */
function retention(src: Source): RetentionSettings {
  const days = (name: string, fallback: number) => {
    const value = int(src, name, fallback, 0, 36_500);
    return value === 0 ? null : value;
  };
  const decisionDays = days('WARDEN_RETENTION_DAYS', 365);
  const evidenceDays = days('WARDEN_EVIDENCE_RETENTION_DAYS', Math.min(30, decisionDays ?? 30));
  if (decisionDays !== null && (evidenceDays === null || evidenceDays > decisionDays)) {
    throw new ConfigError(
      'WARDEN_EVIDENCE_RETENTION_DAYS',
      `must not exceed WARDEN_RETENTION_DAYS (${decisionDays}): evidence goes with its decision`,
    );
  }
  return { decisionDays, evidenceDays };
}
