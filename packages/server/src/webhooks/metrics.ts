import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export interface WebhookMetrics {
  deliveries: Counter<'status'>;
  attempts: Counter<'outcome'>;
  attemptDuration: Histogram<string>;
  lag: Histogram<string>;
  queueDepth: Gauge<string>;
}

/** Registered once per registry; several dispatchers in one process share them. */
export function webhookMetrics(registry: Registry): WebhookMetrics {
  const existing = (name: string) => registry.getSingleMetric(name);
  const deliveries =
    (existing('warden_webhook_deliveries_total') as Counter<'status'> | undefined) ??
    new Counter({
      name: 'warden_webhook_deliveries_total',
      help: 'Webhook deliveries that reached a final status, by status',
      labelNames: ['status'] as const,
      registers: [registry],
    });
  const attempts =
    (existing('warden_webhook_attempts_total') as Counter<'outcome'> | undefined) ??
    new Counter({
      name: 'warden_webhook_attempts_total',
      help: 'Webhook delivery attempts, by outcome (success, failure)',
      labelNames: ['outcome'] as const,
      registers: [registry],
    });
  const attemptDuration =
    (existing('warden_webhook_attempt_duration_seconds') as Histogram<string> | undefined) ??
    new Histogram({
      name: 'warden_webhook_attempt_duration_seconds',
      help: 'Duration of one webhook delivery attempt (DNS, connect, request, answer)',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
  const lag =
    (existing('warden_webhook_delivery_lag_seconds') as Histogram<string> | undefined) ??
    new Histogram({
      name: 'warden_webhook_delivery_lag_seconds',
      help: 'Time from the decision being recorded to its successful delivery',
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 60, 300, 900, 3600],
      registers: [registry],
    });
  const queueDepth =
    (existing('warden_webhook_queue_depth') as Gauge<string> | undefined) ??
    new Gauge({
      name: 'warden_webhook_queue_depth',
      help: 'Pending webhook deliveries (due or scheduled for retry)',
      registers: [registry],
    });
  return { deliveries, attempts, attemptDuration, lag, queueDepth };
}
