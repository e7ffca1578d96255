import type { DecisionCreatedEvent } from '@warden/protocol';
import SqliteDatabase from 'better-sqlite3';
import type { AcceptOutcome, StoredEvent, WebhookStore } from './store.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS warden_webhook_events (
  delivery_id     TEXT PRIMARY KEY,
  decision_id     TEXT NOT NULL,
  raw_event       TEXT NOT NULL,
  state           TEXT NOT NULL CHECK (state IN ('pending', 'processed', 'duplicate', 'dead')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  lease_until     INTEGER NOT NULL DEFAULT 0,
  last_error      TEXT,
  received_at     INTEGER NOT NULL,
  processed_at    INTEGER
);
CREATE INDEX IF NOT EXISTS warden_webhook_events_due ON warden_webhook_events (state, next_attempt_at);
CREATE INDEX IF NOT EXISTS warden_webhook_events_decision ON warden_webhook_events (decision_id);
`;

interface EventRow {
  delivery_id: string;
  decision_id: string;
  raw_event: string;
  attempts: number;
}

/**
 * The built-in durable store: one SQLite file (WAL, synchronous=FULL so an acknowledged delivery
 * survives power loss too). Several processes may share the file; claims are atomic.
 */
export class SqliteWebhookStore implements WebhookStore {
  private readonly db: SqliteDatabase.Database;
  private readonly acceptTx: (event: DecisionCreatedEvent, receivedAt: number) => AcceptOutcome;
  private readonly claimTx: (limit: number, now: number, leaseMs: number) => EventRow[];
  private readonly failTx: (deliveryId: string, error: string, next: number | null) => void;

  constructor(filename: string) {
    this.db = new SqliteDatabase(filename);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA);
    const exists = this.db.prepare('SELECT 1 FROM warden_webhook_events WHERE delivery_id = ?');
    const decisionSeen = this.db.prepare(
      // Pending or processed; a dead-lettered effect may be retried by a redelivery.
      "SELECT 1 FROM warden_webhook_events WHERE decision_id = ? AND state IN ('pending', 'processed') LIMIT 1",
    );
    const insert = this.db.prepare(
      `INSERT INTO warden_webhook_events (delivery_id, decision_id, raw_event, state, next_attempt_at, received_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.acceptTx = this.db.transaction((event: DecisionCreatedEvent, receivedAt: number): AcceptOutcome => {
      if (exists.get(event.id)) return 'duplicate';
      const state = decisionSeen.get(event.data.id) ? 'duplicate' : 'pending';
      insert.run(event.id, event.data.id, JSON.stringify(event), state, receivedAt, receivedAt);
      return 'new';
    }).immediate as (event: DecisionCreatedEvent, receivedAt: number) => AcceptOutcome;
    const due = this.db.prepare(
      `SELECT delivery_id, decision_id, raw_event, attempts FROM warden_webhook_events
       WHERE state = 'pending' AND next_attempt_at <= ? AND lease_until <= ? ORDER BY next_attempt_at LIMIT ?`,
    );
    const lease = this.db.prepare('UPDATE warden_webhook_events SET lease_until = ? WHERE delivery_id = ?');
    this.claimTx = this.db.transaction((limit: number, now: number, leaseMs: number): EventRow[] => {
      const rows = due.all(now, now, limit) as EventRow[];
      for (const row of rows) lease.run(now + leaseMs, row.delivery_id);
      return rows;
    }).immediate as (limit: number, now: number, leaseMs: number) => EventRow[];
    const fail = this.db.prepare(
      `UPDATE warden_webhook_events SET attempts = attempts + 1, last_error = ?, lease_until = 0,
         state = CASE WHEN ? IS NULL THEN 'dead' ELSE state END,
         next_attempt_at = COALESCE(?, next_attempt_at)
       WHERE delivery_id = ?`,
    );
    // A dead letter hands its effect to the newest business duplicate of the same data.id, if any.
    const promoteSuccessor = this.db.prepare(
      `UPDATE warden_webhook_events SET state = 'pending', next_attempt_at = 0
       WHERE delivery_id = (
         SELECT delivery_id FROM warden_webhook_events
         WHERE state = 'duplicate'
           AND decision_id = (SELECT decision_id FROM warden_webhook_events WHERE delivery_id = ?)
         ORDER BY received_at DESC, rowid DESC LIMIT 1)`,
    );
    this.failTx = this.db.transaction((deliveryId: string, error: string, next: number | null) => {
      fail.run(error.slice(0, 1000), next, next, deliveryId);
      if (next === null) promoteSuccessor.run(deliveryId);
    }).immediate as (deliveryId: string, error: string, next: number | null) => void;
  }

  async accept(event: DecisionCreatedEvent, receivedAtMs: number): Promise<AcceptOutcome> {
    return this.acceptTx(event, receivedAtMs);
  }

  async claimDue(limit: number, nowMs: number, leaseMs: number): Promise<StoredEvent[]> {
    return this.claimTx(limit, nowMs, leaseMs).map((row) => ({
      deliveryId: row.delivery_id,
      decisionId: row.decision_id,
      event: JSON.parse(row.raw_event) as DecisionCreatedEvent,
      attempts: row.attempts,
    }));
  }

  async markProcessed(deliveryId: string, nowMs: number): Promise<void> {
    this.db
      .prepare(
        "UPDATE warden_webhook_events SET state = 'processed', processed_at = ?, lease_until = 0 WHERE delivery_id = ?",
      )
      .run(nowMs, deliveryId);
  }

  async markFailed(deliveryId: string, error: string, nextAttemptAtMs: number | null): Promise<void> {
    this.failTx(deliveryId, error, nextAttemptAtMs);
  }

  /** State of one delivery (inspection, tests). */
  stateOf(deliveryId: string): { state: string; attempts: number; lastError: string | null } | undefined {
    const row = this.db
      .prepare('SELECT state, attempts, last_error FROM warden_webhook_events WHERE delivery_id = ?')
      .get(deliveryId) as { state: string; attempts: number; last_error: string | null } | undefined;
    return row ? { state: row.state, attempts: row.attempts, lastError: row.last_error } : undefined;
  }

  close(): void {
    this.db.close();
  }
}
