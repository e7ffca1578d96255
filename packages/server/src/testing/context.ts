import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { Registry } from 'prom-client';
import { type Config, loadConfig } from '../config.ts';
import type { AppContext } from '../context.ts';
import { buildApp } from '../http/app.ts';
import type { App } from '../http/types.ts';
import { IpIntel } from '../scoring/ip-intel.ts';
import { withServices } from '../services.ts';
import type { HotState } from '../state/hot-state.ts';
import { MemoryHotState } from '../state/memory.ts';
import { RedisHotState } from '../state/redis.ts';
import { type Database, migrate, openDatabase } from '../storage/db.ts';
import { ipcHotStateOver } from './owner-pair.ts';

export type DialectName = 'sqlite' | 'postgres';

export const TEST_DATABASE_URL = process.env.WARDEN_TEST_DATABASE_URL;
export const TEST_REDIS_URL = process.env.WARDEN_TEST_REDIS_URL;

/**
 * The dialects a storage suite runs on: SQLite always, PostgreSQL when WARDEN_TEST_DATABASE_URL
 * is set (CI sets it). When it is not, say so: a suite never skips silently.
 */
export function testDialects(): DialectName[] {
  if (TEST_DATABASE_URL) return ['sqlite', 'postgres'];
  if (!warnedPg) {
    warnedPg = true;
    console.warn('[warden tests] PostgreSQL suites not run: set WARDEN_TEST_DATABASE_URL to run them.');
  }
  return ['sqlite'];
}
let warnedPg = false;

export type HotStateKind = 'memory' | 'ipc' | 'redis';

/**
 * The hot states a suite runs on: in-process, a `serve --workers` worker's (the in-process store
 * of a primary, reached over the IPC protocol), and Redis when WARDEN_TEST_REDIS_URL is set.
 */
export function testHotStates(): HotStateKind[] {
  if (TEST_REDIS_URL) return ['memory', 'ipc', 'redis'];
  console.warn('[warden tests] Redis suites not run: set WARDEN_TEST_REDIS_URL to run them.');
  return ['memory', 'ipc'];
}

/**
 * A migrated SQLite database file in a temporary directory (removed by close()): the decision
 * writer runs in its thread there, as in production.
 */
export async function openFileTestDatabase(parent: string = os.tmpdir()): Promise<Database> {
  const dir = fs.mkdtempSync(path.join(parent, 'warden-test-db-'));
  const database = openDatabase({ sqlitePath: path.join(dir, 'warden.db') });
  await migrate(database);
  database.onClose(async () => fs.rmSync(dir, { recursive: true, force: true }));
  return database;
}

/** A migrated database: in-memory SQLite, or a fresh PostgreSQL schema dropped by close(). */
export async function openTestDatabase(dialect: DialectName = 'sqlite'): Promise<Database> {
  if (dialect === 'sqlite') {
    const database = openDatabase({ sqlitePath: ':memory:' });
    await migrate(database);
    return database;
  }
  if (!TEST_DATABASE_URL) throw new Error('WARDEN_TEST_DATABASE_URL is not set');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const database = openDatabase({ databaseUrl: TEST_DATABASE_URL, pgSchema: schema });
  await migrate(database);
  return {
    ...database,
    async close() {
      await database.close();
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    },
  };
}

export function openTestHotState(kind: HotStateKind = 'memory', now: () => number = Date.now): HotState {
  if (kind === 'memory') return new MemoryHotState(now);
  if (kind === 'ipc') return ipcHotStateOver({ hotState: new MemoryHotState(now) });
  if (!TEST_REDIS_URL) throw new Error('WARDEN_TEST_REDIS_URL is not set');
  return new RedisHotState(TEST_REDIS_URL, `warden-test:${randomBytes(6).toString('hex')}:`, now);
}

export interface TestContextOptions {
  dialect?: DialectName;
  /** SQLite in a file instead of in memory (the writer thread runs). */
  sqliteFile?: boolean;
  /** With `sqliteFile`: the folder the database's temporary folder is made in (default: the OS's). */
  sqliteParent?: string;
  hotState?: HotStateKind;
  env?: Record<string, string>;
  /** The clock of the context and of its hot state (default: the wall clock). */
  now?: () => number;
  /** Another process's view of this database: the context opens its own connections to it. */
  sameDatabaseAs?: Database;
  /** How long site-key lookups are remembered (default SITE_KEY_CACHE_TTL_MS). */
  siteKeyTtlMs?: number;
}

/** A second Database on `database`'s PostgreSQL schema, as another server process would open it. */
function openSameDatabase(database: Database): Database {
  if (!TEST_DATABASE_URL || !database.pgSchema) throw new Error('a PostgreSQL test database is needed');
  return openDatabase({ databaseUrl: TEST_DATABASE_URL, pgSchema: database.pgSchema });
}

function openContextDatabase(options: TestContextOptions): Promise<Database> {
  if (options.sameDatabaseAs) return Promise.resolve(openSameDatabase(options.sameDatabaseAs));
  return options.sqliteFile ? openFileTestDatabase(options.sqliteParent) : openTestDatabase(options.dialect);
}

export async function createTestContext(options: TestContextOptions = {}): Promise<AppContext> {
  const config: Config = loadConfig({ WARDEN_LOG_LEVEL: 'silent', WARDEN_SEED_DEMO: '0', ...options.env });
  return withServices(
    {
      config,
      database: await openContextDatabase(options),
      hotState: openTestHotState(options.hotState, options.now),
      metrics: new Registry(),
      logger: pino({ level: process.env.WARDEN_TEST_LOG_LEVEL ?? 'silent' }),
      secret: randomBytes(32).toString('base64url'),
      now: options.now ?? Date.now,
    },
    {
      ipIntel: sharedIpIntel(config),
      ...(options.siteKeyTtlMs === undefined ? {} : { siteKeyTtlMs: options.siteKeyTtlMs }),
    },
  );
}

/**
 * One IP intelligence per setting for the whole test process: its table takes seconds to load, and
 * every test context would otherwise load its own (production builds one per process anyway).
 */
const testIpIntel: Record<string, IpIntel> = {};
function sharedIpIntel(config: Config): IpIntel {
  const key = JSON.stringify(config.ipDatabase);
  testIpIntel[key] ??= new IpIntel(config.ipDatabase);
  return testIpIntel[key];
}

export interface TestApp {
  app: App;
  ctx: AppContext;
  close(): Promise<void>;
}

/** A whole Warden app on an in-memory database, driven with `app.inject`. */
export async function createTestApp(options: TestContextOptions = {}): Promise<TestApp> {
  const ctx = await createTestContext(options);
  const app = await buildApp(ctx);
  await app.ready();
  return testAppOf(app, ctx);
}

/** A ready app with its context, closed together. */
export function testAppOf(app: App, ctx: AppContext): TestApp {
  return {
    app,
    ctx,
    async close() {
      await app.close();
      await ctx.hotState.close();
      await ctx.database.close();
    },
  };
}
