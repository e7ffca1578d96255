import type SqliteDatabase from 'better-sqlite3';

/** Open `file` (or ':memory:') with Warden's settings (see sqlite-connection.mjs). */
export declare function openSqlite(file: string): SqliteDatabase.Database;
