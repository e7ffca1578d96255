import {
  AggregatorRegistry,
  type MetricObjectWithValues,
  type MetricValue,
  type Registry,
} from 'prom-client';
import { type Channel, isMessage } from './protocol.ts';

/**
 * `/metrics` under `serve --workers N`: whichever worker takes the scrape asks the primary
 * (`['metrics']`), the primary asks every worker for its registry, adds its own (the webhook
 * dispatcher, the group commit, the sweeps run there) and answers the sum, so a scrape shows the
 * whole server whichever worker it lands on. Counters and histograms add up; process gauges follow
 * prom-client's aggregators (heap sizes add up, the start time is the earliest).
 */
export const METRICS_REQUEST = 'warden.metrics.req';
export const METRICS_RESPONSE = 'warden.metrics.res';
/** A worker that has not answered by then is left out of that scrape (it may be starting or stuck). */
export const WORKER_ANSWER_MS = 2_000;

type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

interface MetricsRequest {
  t: typeof METRICS_REQUEST;
  id: number;
}

interface MetricsResponse {
  t: typeof METRICS_RESPONSE;
  id: number;
  metrics: MetricsJson;
}

/** Worker side: answer the primary's requests with this process's registry. */
export function answerMetricsRequests(channel: Channel, registry: Registry): void {
  channel.onMessage((message) => {
    if (!isMessage<MetricsRequest>(message, METRICS_REQUEST)) return;
    void registry.getMetricsAsJSON().then(
      (metrics) => {
        try {
          channel.send({ t: METRICS_RESPONSE, id: message.id, metrics } satisfies MetricsResponse);
        } catch {
          // The primary is gone: this worker exits anyway.
        }
      },
      () => undefined,
    );
  });
}

/** Primary side: gathers the workers' registries and its own into one Prometheus text. */
export class ClusterMetrics {
  private nextId = 0;
  private readonly waiting = new Map<number, (metrics: MetricsJson) => void>();

  constructor(
    private readonly own: Registry,
    private readonly workers: () => Iterable<Channel>,
  ) {}

  /** Call with every message a worker sends (the responses are picked out). */
  received(message: unknown): void {
    if (isMessage<MetricsResponse>(message, METRICS_RESPONSE))
      this.waiting.get(message.id)?.(message.metrics);
  }

  async text(): Promise<string> {
    const asked: Array<Promise<MetricsJson | undefined>> = [];
    for (const worker of this.workers()) asked.push(this.ask(worker));
    const all = [await this.own.getMetricsAsJSON(), ...(await Promise.all(asked))];
    return AggregatorRegistry.aggregate(all.filter((m): m is MetricsJson => m !== undefined)).metrics();
  }

  private ask(worker: Channel): Promise<MetricsJson | undefined> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const settle = (metrics: MetricsJson | undefined) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(metrics);
      };
      const timer = setTimeout(() => settle(undefined), WORKER_ANSWER_MS);
      this.waiting.set(id, settle);
      try {
        worker.send({ t: METRICS_REQUEST, id } satisfies MetricsRequest);
      } catch {
        settle(undefined);
      }
    });
  }
}
