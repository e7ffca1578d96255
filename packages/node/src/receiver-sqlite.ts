/**
 * `@warden/node/receiver-sqlite`: the durable SQLite store for the webhook receiver. A separate
 * entry point so the client never loads the native better-sqlite3 (an optional peer dependency:
 * install it when you use this store).
 */
export { SqliteWebhookStore } from './receiver/sqlite-store.ts';
