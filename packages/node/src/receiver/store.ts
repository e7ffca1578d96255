import type { DecisionCreatedEvent } from '@warden/protocol';

export type AcceptOutcome = 'new' | 'duplicate';

export interface StoredEvent {
  deliveryId: string;
  decisionId: string;
  event: DecisionCreatedEvent;
  attempts: number;
}

/**
 * Durable storage of a webhook receiver. `accept` must be durable before it returns: the receiver
 * acknowledges (2xx) only after it. Implement it on your own database with the same semantics.
 */
export interface WebhookStore {
  /**
   * Store a verified delivery. 'duplicate' when this delivery id was stored before (transport
   * dedupe). A new delivery whose data.id was stored before is kept but never processed again
   * (business dedupe), unless that earlier one was dead-lettered: then the new one is processed
   * (a redelivery is how an owner retries an effect that kept failing). One that arrived while the
   * earlier one was still being tried takes over when it is dead-lettered (see markFailed).
   */
  accept(event: DecisionCreatedEvent, receivedAtMs: number): Promise<AcceptOutcome>;
  /** Reserve up to `limit` events due for processing (lease for `leaseMs`). */
  claimDue(limit: number, nowMs: number, leaseMs: number): Promise<StoredEvent[]>;
  markProcessed(deliveryId: string, nowMs: number): Promise<void>;
  /**
   * Record a failure; `nextAttemptAtMs === null` gives up (dead letter). Then the newest delivery of
   * the same data.id kept as a business duplicate, if any, becomes due: an acknowledged delivery is
   * never dropped while its effect has not happened.
   */
  markFailed(deliveryId: string, error: string, nextAttemptAtMs: number | null): Promise<void>;
  close?(): Promise<void> | void;
}

interface MemoryRow extends StoredEvent {
  state: 'pending' | 'processed' | 'duplicate' | 'dead';
  nextAttemptAt: number;
  leaseUntil: number;
  lastError: string | null;
}

/** For tests and demos only: nothing survives a restart. */
export class MemoryWebhookStore implements WebhookStore {
  readonly rows = new Map<string, MemoryRow>();
  /** data.id of every event pending or processed (not dead-lettered). */
  private readonly decisions = new Set<string>();

  async accept(event: DecisionCreatedEvent, receivedAtMs: number): Promise<AcceptOutcome> {
    if (this.rows.has(event.id)) return 'duplicate';
    const businessDuplicate = this.decisions.has(event.data.id);
    this.decisions.add(event.data.id);
    this.rows.set(event.id, {
      deliveryId: event.id,
      decisionId: event.data.id,
      event,
      attempts: 0,
      state: businessDuplicate ? 'duplicate' : 'pending',
      nextAttemptAt: receivedAtMs,
      leaseUntil: 0,
      lastError: null,
    });
    return 'new';
  }

  async claimDue(limit: number, nowMs: number, leaseMs: number): Promise<StoredEvent[]> {
    const due: StoredEvent[] = [];
    for (const row of this.rows.values()) {
      if (due.length >= limit) break;
      if (row.state !== 'pending' || row.nextAttemptAt > nowMs || row.leaseUntil > nowMs) continue;
      row.leaseUntil = nowMs + leaseMs;
      due.push({
        deliveryId: row.deliveryId,
        decisionId: row.decisionId,
        event: row.event,
        attempts: row.attempts,
      });
    }
    return due;
  }

  async markProcessed(deliveryId: string): Promise<void> {
    const row = this.rows.get(deliveryId);
    if (row) row.state = 'processed';
  }

  async markFailed(deliveryId: string, error: string, nextAttemptAtMs: number | null): Promise<void> {
    const row = this.rows.get(deliveryId);
    if (!row) return;
    row.attempts += 1;
    row.lastError = error;
    row.leaseUntil = 0;
    if (nextAttemptAtMs !== null) {
      row.nextAttemptAt = nextAttemptAtMs;
      return;
    }
    row.state = 'dead';
    let successor: MemoryRow | undefined;
    for (const other of this.rows.values())
      if (other.decisionId === row.decisionId && other.state === 'duplicate') successor = other;
    if (successor) {
      successor.state = 'pending';
      successor.nextAttemptAt = 0;
    } else this.decisions.delete(row.decisionId);
  }
}
