import type { DecisionCreatedEvent } from '@warden/protocol';
import { assertVerifyConfig, type VerifyOptions, verifyWebhookSignature } from '../signature.ts';
import type { WebhookStore } from './store.ts';
import { validateEvent } from './validate.ts';

export type HeaderBag = Record<string, string | string[] | undefined>;

export interface ReceivedWebhook {
  /** The exact bytes received: never a re-serialised object. */
  rawBody: Uint8Array | string;
  headers: HeaderBag;
}

export interface ReceiverAnswer {
  status: 200 | 202 | 400 | 401 | 500;
  body: { received: boolean; duplicate?: boolean; error?: string };
}

export interface WebhookReceiverOptions {
  /** The signing secret (`whsec_…`); a list is accepted while you roll a rotation out. */
  secret: string | readonly string[];
  store: WebhookStore;
  /**
   * Your business effect, run after acceptance (never in the request), at most once per data.id
   * when it succeeds; a throw is retried with backoff. A webhook alone must never approve payment
   * or fulfilment: use it to trigger a review, a hold, a notification.
   */
  process: (event: DecisionCreatedEvent) => Promise<void>;
  signature?: VerifyOptions;
  /** Processing retries: first delay (doubles), and attempts before the event is dead-lettered. */
  retryBaseMs?: number;
  maxProcessAttempts?: number;
  /**
   * A `process` call still running after this long counts as failed and is retried later, so one
   * hung call cannot stall the events behind it. Default 30 s. The hung call is not cancelled: if
   * it finishes after all, the effect may run twice, so keep `process` idempotent by data.id.
   */
  processTimeoutMs?: number;
  /** Background processing poll interval. */
  pollIntervalMs?: number;
  now?: () => number;
  onError?: (error: unknown, context: { deliveryId?: string; stage: 'store' | 'process' }) => void;
}

export interface WebhookReceiver {
  /** Framework-agnostic entry point: verify, validate, store, answer. */
  handle(request: ReceivedWebhook): Promise<ReceiverAnswer>;
  /** Process what is due now; returns how many events ran. */
  processDue(): Promise<number>;
  /** Run processing in the background (and right after each accepted delivery). */
  start(): void;
  stop(): Promise<void>;
}

function header(headers: HeaderBag, name: string): string | undefined {
  const direct = headers[name] ?? headers[name.toLowerCase()];
  const value = direct ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
  return Array.isArray(value) ? value[0] : value;
}

function toText(raw: Uint8Array | string): string {
  return typeof raw === 'string'
    ? raw
    : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8');
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`processing took longer than ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The reference receiver of interface 6.5. */
export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  // A missing secret is a setup error: refuse to start rather than accept unsigned deliveries.
  assertVerifyConfig(options.secret, options.signature);
  const now = options.now ?? Date.now;
  const retryBaseMs = options.retryBaseMs ?? 1_000;
  const maxAttempts = options.maxProcessAttempts ?? 10;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const processTimeoutMs = options.processTimeoutMs ?? 30_000;
  const report = options.onError ?? (() => undefined);
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let started = false;

  async function runDue(): Promise<number> {
    const due = await options.store.claimDue(50, now(), 60_000);
    for (const item of due) {
      try {
        await withTimeout(options.process(item.event), processTimeoutMs);
        await options.store.markProcessed(item.deliveryId, now());
      } catch (err) {
        report(err, { deliveryId: item.deliveryId, stage: 'process' });
        const attempts = item.attempts + 1;
        const next = attempts >= maxAttempts ? null : now() + retryBaseMs * 2 ** (attempts - 1);
        await options.store.markFailed(
          item.deliveryId,
          err instanceof Error ? err.message : String(err),
          next,
        );
      }
    }
    return due.length;
  }

  function processDue(): Promise<number> {
    // One processing pass at a time per receiver.
    running ??= runDue().finally(() => {
      running = null;
    });
    return running;
  }

  function trigger(): void {
    if (started) void processDue().catch((err: unknown) => report(err, { stage: 'process' }));
  }

  async function handle(request: ReceivedWebhook): Promise<ReceiverAnswer> {
    // 1. Signature over the raw bytes, before anything is parsed.
    const check = verifyWebhookSignature(
      request.rawBody,
      header(request.headers, 'service-signature'),
      options.secret,
      {
        ...options.signature,
        now: options.signature?.now ?? now(),
      },
    );
    if (!check.valid)
      return { status: 401, body: { received: false, error: `invalid signature (${check.reason})` } };
    // 2. The validation list.
    const valid = validateEvent(toText(request.rawBody), header(request.headers, 'service-delivery'));
    if (!valid.ok) return { status: 400, body: { received: false, error: valid.reason } };
    // 3. Durable storage with dedupe; no acknowledgement unless it is stored.
    let outcome: 'new' | 'duplicate';
    try {
      outcome = await options.store.accept(valid.event, now());
    } catch (err) {
      report(err, { deliveryId: valid.event.id, stage: 'store' });
      return { status: 500, body: { received: false, error: 'storage failed' } };
    }
    if (outcome === 'duplicate') return { status: 200, body: { received: true, duplicate: true } };
    // After the adapter has written the 202 (interface §6.5 rule 5): a slow process() never holds
    // back the acknowledgement.
    setImmediate(trigger);
    return { status: 202, body: { received: true } };
  }

  return {
    handle,
    processDue,
    start() {
      if (started) return;
      started = true;
      timer = setInterval(trigger, pollIntervalMs);
      timer.unref();
      trigger();
    },
    async stop() {
      started = false;
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
