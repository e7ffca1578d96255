import path from 'node:path';
import type { Config } from '../config.ts';
import { type Database, openDatabase } from './db.ts';

/** The database the settings name: PostgreSQL at WARDEN_DATABASE_URL, else `<data dir>/warden.db`. */
export function openConfiguredDatabase(config: Config): Database {
  return openDatabase({
    databaseUrl: config.databaseUrl,
    sqlitePath: path.join(config.dataDir, 'warden.db'),
  });
}
