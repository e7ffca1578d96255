// The writer thread of bench/floor-server.ts (levels 3 and 4 of `npm run bench:floor`): its own
// connection to the SQLite file, opened with Warden's settings (storage/sqlite-connection.mjs:
// WAL, synchronous NORMAL, foreign keys, wal_autocheckpoint only as a backstop, the writer's page
// cache; checkpoints are the WAL checkpointer thread's that floor-server.ts starts, as Warden's), the
// `decisions`, `idempotency_keys` and `webhook_deliveries` tables with Warden's columns and indexes
// (migrations 002, 003, 008, 009, 011, 013, 014), and one transaction per group the main thread
// sends: idempotency keys, decision rows, outbox rows and the delivered marks of earlier deliveries.
// Plain JavaScript, as Warden's writer thread: no TypeScript loader in the thread.
import { writeFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite, SQLITE_CACHE_KB } from '../packages/server/src/storage/sqlite-connection.mjs';

// The name bench/lib/proc-stat.ts counts as the writer thread (Warden's writer names itself so too).
try {
  writeFileSync('/proc/thread-self/comm', 'warden-writer');
} catch {
  // Not Linux: the thread keeps its name.
}

const SCHEMA = `
create table if not exists sites (id text primary key);
create table if not exists decisions (
  id text primary key, site_id text not null references sites(id) on delete cascade,
  workspace_id text not null, event_type text not null, account_id text not null, email text,
  ip_address text not null, user_agent text not null, device_id text not null, payment_hash text,
  promo_code text, order_amount double precision, risk_score integer not null,
  risk_level text not null, classification text not null, action text not null,
  signals text not null, features text not null default '{}', evidence text not null default '{}',
  response text not null, ruleset_version text not null, decision_ms double precision not null,
  label text, labeled_at integer, created_at integer not null, cluster_id text, rule_input text,
  browser_decision_id text);
create index if not exists decisions_site_time_id on decisions (site_id, created_at, id);
create index if not exists decisions_site_account on decisions (site_id, account_id);
create index if not exists decisions_site_ip on decisions (site_id, ip_address);
create index if not exists decisions_site_device on decisions (site_id, device_id);
create index if not exists decisions_cluster on decisions (cluster_id);
create index if not exists decisions_site_email on decisions (site_id, lower(email)) where email is not null;
create index if not exists decisions_site_payment on decisions (site_id, payment_hash) where payment_hash is not null;
create index if not exists decisions_site_promo on decisions (site_id, promo_code) where promo_code is not null;
create index if not exists decisions_browser_decision on decisions (browser_decision_id) where browser_decision_id is not null;
create table if not exists idempotency_keys (
  site_id text not null, route text not null, key text not null, body_hash text not null,
  decision_id text not null, created_at integer not null, primary key (site_id, route, key));
create index if not exists idempotency_keys_created on idempotency_keys (created_at);
create table if not exists webhook_deliveries (
  id text primary key, site_id text not null references sites(id) on delete cascade,
  decision_id text not null, payload text not null, status text not null,
  attempts integer not null default 0, last_status_code integer, last_error text,
  last_response_body text, next_attempt_at integer not null, lease_until integer, lease_owner text,
  decision_created_at integer not null, created_at integer not null, updated_at integer not null);
create index if not exists webhook_deliveries_due on webhook_deliveries (status, next_attempt_at);
create index if not exists webhook_deliveries_site_time on webhook_deliveries (site_id, created_at);
create index if not exists webhook_deliveries_decision on webhook_deliveries (decision_id);
create index if not exists webhook_deliveries_site_status on webhook_deliveries (site_id, status);
`;

const sqlite = openSqlite(workerData.file, SQLITE_CACHE_KB.writer);
sqlite.exec(SCHEMA);
sqlite.prepare('insert or ignore into sites (id) values (?)').run(workerData.siteId);

const takeKey = sqlite.prepare(
  `insert into idempotency_keys (site_id, route, key, body_hash, decision_id, created_at)
   values (?, 'verify', ?, ?, ?, ?) on conflict do nothing`,
);
const insertDecision = sqlite.prepare(
  `insert into decisions (id, site_id, workspace_id, event_type, account_id, email, ip_address,
     user_agent, device_id, payment_hash, promo_code, order_amount, risk_score, risk_level,
     classification, action, signals, features, evidence, response, ruleset_version, decision_ms,
     created_at, cluster_id, rule_input, browser_decision_id)
   values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);
const insertDelivery = sqlite.prepare(
  `insert into webhook_deliveries (id, site_id, decision_id, payload, status, attempts,
     next_attempt_at, decision_created_at, created_at, updated_at)
   values (?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?)`,
);
// One statement for a whole batch of delivered ids (a JSON array): the primary key finds each.
const markDelivered = sqlite.prepare(
  `update webhook_deliveries set status = 'succeeded', attempts = attempts + 1,
     last_status_code = ?, next_attempt_at = ?, updated_at = ?
   where id in (select value from json_each(?))`,
);

/**
 * One group: `keys[i]` (or null) is decision i's idempotency-key row, `decisions[i]` its row,
 * `deliveries[i]` (level 4) its outbox row; `delivered` the ids of deliveries answered 2xx since
 * the last group. Answers which decisions lost their key to an earlier one (nothing written).
 */
const commit = sqlite.transaction((group) => {
  const taken = [];
  for (let i = 0; i < group.decisions.length; i++) {
    const key = group.keys[i];
    if (key && takeKey.run(key).changes === 0) {
      taken.push(i);
      continue;
    }
    insertDecision.run(group.decisions[i]);
    const delivery = group.deliveries?.[i];
    if (delivery) insertDelivery.run(delivery);
  }
  if (group.delivered.length > 0)
    markDelivered.run(200, group.now, group.now, JSON.stringify(group.delivered));
  return taken;
});

parentPort.postMessage({ type: 'ready' });
parentPort.on('message', (group) => {
  try {
    parentPort.postMessage({ type: 'committed', taken: commit.immediate(group) });
  } catch (err) {
    parentPort.postMessage({ type: 'failed', error: err instanceof Error ? err.message : String(err) });
  }
});
