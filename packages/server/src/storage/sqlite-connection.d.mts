import type SqliteDatabase from 'better-sqlite3';

/** Page cache of each connection in KiB: the main thread's, the decision writer's, the WAL checkpointer's. */
export declare const SQLITE_CACHE_KB: {
  readonly main: number;
  readonly writer: number;
  readonly checkpointer: number;
};

/** WAL pages past which a commit checkpoints after all (the checkpointer thread's backstop). */
export declare const WAL_BACKSTOP_PAGES: number;

/** Open `file` (or ':memory:') with Warden's settings (see sqlite-connection.mjs). */
export declare function openSqlite(file: string, cacheKb?: number): SqliteDatabase.Database;
