import { createRequire } from 'node:module';
import type SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  sql,
} from 'kysely';
import type PgModule from 'pg';
import type { AuditTables } from './audit-schema.ts';
import type { EntityLabelTables } from './entity-label-schema.ts';
import type { InvitationTables } from './invitation-schema.ts';
import { migrationProvider } from './migrations/index.ts';
import type { Dialect } from './migrations/types.ts';
import type { RuleTables } from './rules-schema.ts';
import type { CoreTables } from './schema.ts';
import type { ScoringTables } from './scoring-schema.ts';
import { openSqlite } from './sqlite-connection.mjs';
import type { SsoTables } from './sso-schema.ts';
import type { WebhookTables } from './webhook-schema.ts';

export interface DB
  extends CoreTables,
    ScoringTables,
    WebhookTables,
    RuleTables,
    SsoTables,
    AuditTables,
    InvitationTables,
    EntityLabelTables {}

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /**
   * The SQLite connection under Kysely, for the one hot path that runs prepared statements itself
   * (decision-writer.ts); undefined on PostgreSQL.
   */
  sqlite?: SqliteDatabase.Database;
  /** The SQLite file, when the database is one (not ':memory:'): other threads may connect to it. */
  sqliteFile?: string;
  /** The PostgreSQL schema this database lives in, when not the default (tests). */
  pgSchema?: string;
  /**
   * A new PostgreSQL connection outside the pool, not yet connected, to the same database and
   * schema (the site change feed's LISTEN); undefined on SQLite.
   */
  dedicatedPgClient?: () => PgModule.Client;
  /** Run `task` (e.g. stop a thread that writes to the same file) before the database closes. */
  onClose(task: () => Promise<void>): void;
  close(): Promise<void>;
}

let pgModule: typeof PgModule | undefined;

/** The pg driver, loaded on the first PostgreSQL open: SQLite installs and CLI runs skip its ~0.1 s. */
function loadPg(): typeof PgModule {
  if (!pgModule) {
    pgModule = createRequire(import.meta.url)('pg') as typeof PgModule;
    // int8 (bigint) columns hold epoch milliseconds, well inside Number's exact range.
    pgModule.types.setTypeParser(20, (v: string) => Number(v));
  }
  return pgModule;
}

export interface DatabaseOptions {
  /** postgres://… for PostgreSQL; otherwise SQLite. */
  databaseUrl?: string | undefined;
  /** SQLite file path, or ':memory:' for tests. */
  sqlitePath?: string;
  /** PostgreSQL schema to use (tests isolate themselves in a fresh schema). */
  pgSchema?: string;
}

export function openDatabase(options: DatabaseOptions): Database {
  const closeTasks: Array<() => Promise<void>> = [];
  const onClose = (task: () => Promise<void>) => {
    closeTasks.push(task);
  };
  const closeAfterTasks = (destroy: () => Promise<void>) => async () => {
    for (const task of closeTasks.splice(0)) await task();
    await destroy();
  };
  if (options.databaseUrl) {
    const schema = options.pgSchema;
    const connection = {
      connectionString: options.databaseUrl,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    };
    const pool = new (loadPg().Pool)({ ...connection, max: 10 });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      dialect: 'postgres',
      ...(schema ? { pgSchema: schema } : {}),
      // TCP keepalive: a LISTEN connection only reads, a dead peer would otherwise go unnoticed.
      dedicatedPgClient: () => new (loadPg().Client)({ ...connection, keepAlive: true }),
      onClose,
      close: closeAfterTasks(() => db.destroy()),
    };
  }
  const file = options.sqlitePath ?? ':memory:';
  const sqlite = openSqlite(file);
  const db = new Kysely<DB>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }),
  });
  return {
    db,
    dialect: 'sqlite',
    sqlite,
    ...(file === ':memory:' ? {} : { sqliteFile: file }),
    onClose,
    close: closeAfterTasks(() => db.destroy()),
  };
}

/**
 * Kysely's SQLite transactions with BEGIN IMMEDIATE: the write lock is taken at the start, waiting
 * (busy_timeout) while the decision writer thread commits. A deferred transaction that read first
 * would instead fail at its first write once the other connection had written meanwhile.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): SqliteDriver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; on the scoring hot path preparing costs more than running.
 * Keep the most recent prepared statements by SQL text (queries are parameterised, so the set of
 * distinct texts is small). Safe because better-sqlite3 runs one statement at a time and Warden
 * never streams rows from SQLite.
 */
function withStatementCache(sqlite: SqliteDatabase.Database): SqliteDatabase.Database {
  const cache = new Map<string, SqliteDatabase.Statement>();
  const prepare = (source: string): SqliteDatabase.Statement => {
    let statement = cache.get(source);
    if (statement) return statement;
    statement = sqlite.prepare(source);
    cache.set(source, statement);
    if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    return statement;
  };
  return new Proxy(sqlite, {
    get(target, property) {
      if (property === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Apply every pending migration; returns the names applied now. */
export async function migrate(database: Database): Promise<string[]> {
  // In a schema of its own, the migration tables are looked for there only: Kysely otherwise takes
  // another schema's `kysely_migration_lock` for ours (tests run many schemas side by side).
  const migrator = new Migrator({
    db: database.db,
    provider: migrationProvider(database.dialect),
    ...(database.pgSchema ? { migrationTableSchema: database.pgSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export async function ping(database: Database): Promise<void> {
  await sql`select 1`.execute(database.db);
}
