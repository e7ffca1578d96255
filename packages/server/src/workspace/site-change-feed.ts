import { type Kysely, sql } from 'kysely';
import type PgModule from 'pg';
import type { Logger } from 'pino';
import type { Database, DB } from '../storage/db.ts';
import type { SiteChanges } from './site-key-cache.ts';

/**
 * How the server processes sharing a database learn that a site or a workspace changed, so that no
 * process keeps accepting a rotated key (interface §5 rule 6: the old keys stop working at once).
 *
 * - In this process: the cache forgets everything when the change is written and again once it is
 *   committed (a lookup between the two may have read the row as it was).
 * - On PostgreSQL: the change sends `pg_notify` in its own transaction, so it is delivered exactly at
 *   commit; every server process LISTENs on one dedicated connection and forgets on each
 *   notification. While that connection is down (or not up yet) the process remembers no lookups:
 *   correctness never depends on the listener. It connects again with backoff.
 * - `serve --workers N`: `alsoTell` hooks in the cluster's messages (a worker tells the primary,
 *   which tells every other worker; cluster/primary.ts, cluster/worker.ts), sent after the commit.
 *
 * A CLI command beside the server (`warden workspace plan`) announces its change on PostgreSQL too
 * (`announcedSiteChanges`); on SQLite it is seen when the remembered lookups expire, within SPEC
 * §10's 1 s, as is a change missed while a listener's lost connection went unnoticed.
 */
export const SITE_CHANGE_CHANNEL = 'warden_site_changes';
const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5_000;

/** The channel of one database (tests share a PostgreSQL database, one schema each). */
export function siteChangeChannel(pgSchema?: string): string {
  return pgSchema ? `${SITE_CHANGE_CHANNEL}_${pgSchema}` : SITE_CHANGE_CHANNEL;
}

/** Send the change notice in `db`'s transaction (delivered at its commit); nothing on SQLite. */
async function notify(database: Database, channel: string, db: Kysely<DB>): Promise<void> {
  if (database.dialect === 'postgres') await sql`select pg_notify(${channel}, '')`.execute(db);
}

/** For a process that remembers no sites (a CLI command): only tell the server processes. */
export function announcedSiteChanges(database: Database): SiteChanges {
  const channel = siteChangeChannel(database.pgSchema);
  return { changed: (db) => notify(database, channel, db) };
}

/** What the feed drives: the process's site key cache. */
export interface ForgettingCache {
  changed(): void;
  remember(on: boolean): void;
}

/** One per process (services.ts: `siteChanges`); closed with the database. */
export class SiteChangeFeed implements SiteChanges {
  private readonly channel: string;
  private readonly others: Array<() => void> = [];
  private client: PgModule.Client | undefined;
  private starting: Promise<void> = Promise.resolve();
  private retry: NodeJS.Timeout | undefined;
  private retryMs = FIRST_RETRY_MS;
  private listening = false;
  private listeningWaiters: Array<() => void> = [];
  private closed = false;

  constructor(
    private readonly database: Database,
    private readonly cache: ForgettingCache,
    private readonly logger: Logger,
  ) {
    this.channel = siteChangeChannel(database.pgSchema);
    const connect = database.dedicatedPgClient;
    if (!connect) {
      this.listening = true;
      return;
    }
    cache.remember(false);
    this.starting = this.listen(connect);
    database.onClose(() => this.close());
  }

  /** Called by sites.ts and workspaces.ts with the connection or transaction that wrote the change. */
  async changed(db: Kysely<DB>): Promise<void> {
    this.cache.changed();
    await notify(this.database, this.channel, db);
    if (!db.isTransaction) this.committed();
  }

  /** After the commit of a transaction that called `changed`: forget again, tell the other workers. */
  committed(): void {
    this.cache.changed();
    for (const tell of this.others) tell();
  }

  /** Also tell `tell` of every change committed here (the cluster's messages). */
  alsoTell(tell: () => void): void {
    this.others.push(tell);
  }

  /** Resolves once the listener is up (at once without PostgreSQL). */
  whenListening(): Promise<void> {
    if (this.listening) return Promise.resolve();
    return new Promise((resolve) => this.listeningWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.starting;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async listen(connect: () => PgModule.Client): Promise<void> {
    const client = connect();
    let lost = false;
    const lose = (err?: Error) => {
      if (lost) return;
      lost = true;
      this.listening = false;
      this.cache.remember(false);
      if (this.client === client) this.client = undefined;
      void client.end().catch(() => undefined);
      if (this.closed) return;
      this.logger.warn(
        { err, retryMs: this.retryMs },
        'site change listener lost: site lookups are not remembered until it is back',
      );
      this.retry = setTimeout(() => {
        this.starting = this.listen(connect);
      }, this.retryMs);
      this.retry.unref();
      this.retryMs = Math.min(this.retryMs * 2, LAST_RETRY_MS);
    };
    client.on('error', lose);
    client.on('end', () => lose(new Error('connection ended')));
    client.on('notification', (notice) => {
      if (notice.channel === this.channel) this.cache.changed();
    });
    try {
      await client.connect();
      await client.query(`listen "${this.channel.replace(/"/g, '""')}"`);
    } catch (err) {
      lose(err as Error);
      return;
    }
    if (lost) return;
    if (this.closed) {
      lost = true;
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = FIRST_RETRY_MS;
    this.listening = true;
    // Whatever changed while nobody listened was missed: nothing is remembered from before.
    this.cache.remember(true);
    for (const resolve of this.listeningWaiters.splice(0)) resolve();
  }
}
