import {
  type Channel,
  isMessage,
  type OwnerOp,
  type OwnerRequest,
  type OwnerResponse,
  REQUEST,
  RESPONSE,
} from './protocol.ts';

interface Waiter {
  resolve: (value: never) => void;
  reject: (err: Error) => void;
}

export class OwnerUnavailableError extends Error {
  constructor(message = 'the primary process is gone') {
    super(message);
    this.name = 'OwnerUnavailableError';
  }
}

/**
 * A worker's side of the channel to the primary. Every operation issued in one turn of the event
 * loop goes out in one request (like ioredis' auto-pipelining in scale mode): an event's ~30 counter
 * operations are one message, and decisions scored together share their messages.
 */
export class OwnerClient {
  private queue: OwnerOp[] = [];
  private queueWaiters: Waiter[] = [];
  private readonly pending = new Map<number, { waiters: Waiter[]; left: number }>();
  private nextId = 1;
  private closed: Error | null = null;
  /** Requests sent (tests and the bench count them). */
  sent = 0;

  constructor(private readonly channel: Channel) {
    channel.onMessage((message) => {
      if (isMessage<OwnerResponse>(message, RESPONSE)) this.settle(message);
    });
  }

  call<T>(op: OwnerOp): Promise<T> {
    if (this.closed) return Promise.reject(this.closed);
    return new Promise<T>((resolve, reject) => {
      this.queue.push(op);
      this.queueWaiters.push({ resolve: resolve as (value: never) => void, reject });
      if (this.queue.length === 1) setImmediate(() => this.flush());
    });
  }

  /** Fail every call waiting and every later one (the primary went away). */
  fail(err: Error = new OwnerUnavailableError()): void {
    this.closed = err;
    for (const waiter of this.queueWaiters) waiter.reject(err);
    this.queue = [];
    this.queueWaiters = [];
    for (const { waiters } of this.pending.values()) for (const waiter of waiters) waiter.reject(err);
    this.pending.clear();
  }

  private flush(): void {
    const ops = this.queue;
    const waiters = this.queueWaiters;
    this.queue = [];
    this.queueWaiters = [];
    if (ops.length === 0) return;
    const id = this.nextId++;
    this.pending.set(id, { waiters, left: ops.length });
    const request: OwnerRequest = { t: REQUEST, id, ops };
    try {
      this.channel.send(request);
      this.sent++;
    } catch (err) {
      this.pending.delete(id);
      const cause = new OwnerUnavailableError(`request to the primary failed: ${(err as Error).message}`);
      for (const waiter of waiters) waiter.reject(cause);
    }
  }

  private settle(response: OwnerResponse): void {
    for (const [id, index, ok, value] of response.done) {
      const entry = this.pending.get(id);
      const waiter = entry?.waiters[index];
      if (!entry || !waiter) continue;
      if (ok === 1) waiter.resolve(value as never);
      else waiter.reject(new Error(value as string));
      if (--entry.left <= 0) this.pending.delete(id);
    }
  }
}
