/**
 * Hard per-request deadlines for the webhook sender without a timer and an AbortSignal per request
 * (`AbortSignal.timeout` makes both for every delivery): one sweep timer per dispatcher checks the
 * requests in flight and aborts those past their deadline. A request gets a small signal object
 * that undici accepts (it only needs `aborted`, `reason` and add/removeEventListener).
 */

type AbortListener = () => void;

/** The signal of one request; undici registers one listener and removes it when the request ends. */
export class DeadlineSignal {
  aborted = false;
  reason: Error | undefined = undefined;
  private listener: AbortListener | null = null;

  constructor(readonly deadline: number) {}

  addEventListener(_type: 'abort', listener: AbortListener): void {
    this.listener = listener;
  }

  removeEventListener(_type: 'abort', listener: AbortListener): void {
    if (this.listener === listener) this.listener = null;
  }

  abort(reason: Error): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listener = this.listener;
    this.listener = null;
    listener?.();
  }
}

export function timeoutError(timeoutMs: number): Error {
  return Object.assign(new Error(`no complete answer within ${timeoutMs} ms`), { name: 'TimeoutError' });
}

/**
 * The requests in flight and their deadlines. The sweep runs every `granularityMs` while any request
 * is in flight (never otherwise), so a request is aborted at most that much after its deadline.
 */
export class RequestDeadlines {
  private readonly active = new Set<DeadlineSignal>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly timeoutMs: number,
    private readonly granularityMs = Math.max(10, Math.min(250, Math.floor(timeoutMs / 10))),
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A signal that aborts `timeoutMs` from now; pass it to `end` when the request is over. */
  start(): DeadlineSignal {
    const signal = new DeadlineSignal(this.now() + this.timeoutMs);
    this.active.add(signal);
    if (this.timer === null) {
      this.timer = setInterval(() => this.sweep(), this.granularityMs);
      this.timer.unref();
    }
    return signal;
  }

  end(signal: DeadlineSignal): void {
    this.active.delete(signal);
    if (this.active.size === 0) this.stopTimer();
  }

  get size(): number {
    return this.active.size;
  }

  private sweep(): void {
    const now = this.now();
    for (const signal of this.active) {
      if (signal.deadline > now) continue;
      this.active.delete(signal);
      signal.abort(timeoutError(this.timeoutMs));
    }
    if (this.active.size === 0) this.stopTimer();
  }

  private stopTimer(): void {
    if (this.timer === null) return;
    clearInterval(this.timer);
    this.timer = null;
  }

  close(): void {
    this.stopTimer();
    this.active.clear();
  }
}
