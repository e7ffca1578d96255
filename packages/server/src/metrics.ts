import {
  Counter,
  type CounterConfiguration,
  Histogram,
  type HistogramConfiguration,
  type Registry,
} from 'prom-client';

/**
 * The service's own Prometheus metrics (docs/operations.md lists them). Registered once per
 * registry (the context's), found again by name, like webhooks/metrics.ts. Every label has a
 * bounded set of values: route templates (never raw URLs), enums, status codes.
 * The hot path uses pre-bound children (`labels(...)` once per label combination), so a request
 * costs a map lookup, an increment and an observation.
 */
const HTTP_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const ENGINE_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25];
/** The timeline's stages and the writer's waits: from tens of microseconds to the half second. */
const STAGE_BUCKETS = [
  0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5,
];
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256];

/**
 * The stages of a /verify request that records a decision, each ending at its name: received →
 * validated (body read, parsed and checked) → observed (the request's own signals) → decided
 * (scoring and rules) → queued (handed to the group commit) → committed (durable) → answered.
 */
export const DECISION_STAGES = [
  'validated',
  'observed',
  'decided',
  'queued',
  'committed',
  'answered',
] as const;
export type DecisionStage = (typeof DECISION_STAGES)[number];

/** The decision writer's view: its group commits and the WAL checkpoints beside them. */
export interface WriterMetrics {
  /** One group commit: its decisions, how long the first of them waited to be sent, the commit's time. */
  commitBatch(size: number, waitSeconds: number, commitSeconds: number): void;
  /**
   * One batch as the writer thread saw it: how long it waited there (sent → the start of the
   * transaction that took it), that transaction's time and how many batches it took together.
   */
  writerThread(queuedSeconds: number, transactionSeconds: number, batches: number): void;
  /** One statement other writers ran in the writer thread (sweeps, the webhook dispatcher's). */
  writerStatement(seconds: number): void;
  /** One round of the WAL checkpointer thread (storage/wal-checkpointer.ts). */
  checkpoint(seconds: number): void;
}

/** Where a process without metrics (tests, CLI commands) sends the writer's. */
export const UNOBSERVED_WRITER: WriterMetrics = {
  commitBatch() {},
  writerThread() {},
  writerStatement() {},
  checkpoint() {},
};

/** The route label of a request that matched no route (404s of unknown paths). */
export const UNMATCHED_ROUTE = 'unmatched';

export type ChallengeOutcome =
  | 'issued'
  | 'solved'
  | 'expired'
  | 'invalid_proof'
  | 'already_used'
  | 'unknown_challenge';

export interface ServiceMetrics extends WriterMetrics {
  /** One finished HTTP request: `route` is the route template. */
  request(method: string, route: string, status: number, seconds: number): void;
  /** One new decision (replays are not decisions) and the engine's time for it. */
  decision(
    surface: string,
    d: { event_type: string; classification: string; action: string },
    engineSeconds: number,
  ): void;
  /** Custom rules that matched one decision. */
  ruleHits(live: number, shadow: number): void;
  challenge(outcome: ChallengeOutcome): void;
  /** One recorded /verify decision's timeline: the seconds each stage took, in DECISION_STAGES order. */
  decisionTimeline(stageSeconds: readonly number[]): void;
}

function metric<T>(registry: Registry, name: string, create: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? create();
}
/** The registry's metric of `config.name`, or a new one registered there. */
const counter = <L extends string>(registry: Registry, config: CounterConfiguration<L>) =>
  metric(registry, config.name, () => new Counter({ ...config, registers: [registry] }));
const histogram = <L extends string>(registry: Registry, config: HistogramConfiguration<L>) =>
  metric(registry, config.name, () => new Histogram({ ...config, registers: [registry] }));

/** Children bound once per label combination. */
function bound<C>(bind: (key: string) => C): (key: string) => C {
  const children = new Map<string, C>();
  return (key) => {
    let child = children.get(key);
    if (!child) {
      child = bind(key);
      children.set(key, child);
    }
    return child;
  };
}

/** Built once per process, in services.ts (`services.metrics`). */
export function serviceMetrics(registry: Registry): ServiceMetrics {
  const requests = counter(registry, {
    name: 'warden_http_requests_total',
    help: 'HTTP requests by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
  });
  const duration = histogram(registry, {
    name: 'warden_http_request_duration_seconds',
    help: 'HTTP request duration by method and route template',
    labelNames: ['method', 'route'] as const,
    buckets: HTTP_BUCKETS,
  });
  const decisions = counter(registry, {
    name: 'warden_decisions_total',
    help: 'Decisions recorded, by surface, event type, classification and action (replays not counted)',
    labelNames: ['surface', 'event_type', 'classification', 'action'] as const,
  });
  const engine = histogram(registry, {
    name: 'warden_engine_duration_seconds',
    help: 'Scoring engine time per decision (the decision_ms of the answer), by surface',
    labelNames: ['surface'] as const,
    buckets: ENGINE_BUCKETS,
  });
  const rules = counter(registry, {
    name: 'warden_rule_hits_total',
    help: 'Custom rule matches in recorded decisions, by mode (live, shadow)',
    labelNames: ['mode'] as const,
  });
  const challenges = counter(registry, {
    name: 'warden_challenges_total',
    help: 'Proof-of-work challenges issued, and proofs checked by result (solved, expired, invalid_proof, already_used, unknown_challenge)',
    labelNames: ['outcome'] as const,
  });

  const stages = histogram(registry, {
    name: 'warden_decision_stage_seconds',
    help: 'Time of each stage of a /verify request that records a decision, by the stage it ends (validated, observed, decided, queued, committed, answered)',
    labelNames: ['stage'] as const,
    buckets: STAGE_BUCKETS,
  });
  const batchSize = histogram(registry, {
    name: 'warden_commit_batch_size',
    help: 'Decisions per group commit',
    buckets: BATCH_BUCKETS,
  });
  const batchWait = histogram(registry, {
    name: 'warden_commit_wait_seconds',
    help: 'How long the first decision of a group commit waited for the commit to start',
    buckets: STAGE_BUCKETS,
  });
  const commitTime = histogram(registry, {
    name: 'warden_commit_seconds',
    help: 'Group commit time, from sending the batch to its answer (durable)',
    buckets: STAGE_BUCKETS,
  });
  const writerThread = histogram(registry, {
    name: 'warden_writer_thread_seconds',
    help: 'The decision writer thread: a group commit batch waiting there (queued), the transaction that took it (transaction); a statement of other writers, sweeps and the webhook dispatcher (statement)',
    labelNames: ['part'] as const,
    buckets: STAGE_BUCKETS,
  });
  const groupBatches = histogram(registry, {
    name: 'warden_writer_group_batches',
    help: 'Group commit batches taken by the writer thread transaction that committed a batch (those sent while the one before it ran)',
    buckets: BATCH_BUCKETS,
  });
  const checkpoints = histogram(registry, {
    name: 'warden_wal_checkpoint_seconds',
    help: 'Duration of each round of WAL checkpoints (embedded SQLite file; the checkpointer thread)',
    buckets: STAGE_BUCKETS,
  });

  const requestChild = bound((key) => {
    const [method = '', route = '', status = ''] = key.split('\u0000');
    return { count: requests.labels(method, route, status), time: duration.labels(method, route) };
  });
  const decisionChild = bound((key) => {
    const [surface = '', eventType = '', classification = '', action = ''] = key.split('\u0000');
    return {
      count: decisions.labels(surface, eventType, classification, action),
      time: engine.labels(surface),
    };
  });
  const liveHits = rules.labels('live');
  const shadowHits = rules.labels('shadow');
  const challengeChild = bound((outcome) => challenges.labels(outcome));
  const stageChildren = DECISION_STAGES.map((stage) => stages.labels(stage));
  const threadQueued = writerThread.labels('queued');
  const threadTransaction = writerThread.labels('transaction');
  const threadStatement = writerThread.labels('statement');

  const metrics: ServiceMetrics = {
    request(method, route, status, seconds) {
      const child = requestChild(`${method}\u0000${route}\u0000${status}`);
      child.count.inc();
      child.time.observe(seconds);
    },
    decision(surface, d, engineSeconds) {
      const child = decisionChild(
        `${surface}\u0000${d.event_type}\u0000${d.classification}\u0000${d.action}`,
      );
      child.count.inc();
      child.time.observe(engineSeconds);
    },
    ruleHits(live, shadow) {
      if (live > 0) liveHits.inc(live);
      if (shadow > 0) shadowHits.inc(shadow);
    },
    challenge(outcome) {
      challengeChild(outcome).inc();
    },
    decisionTimeline(stageSeconds) {
      for (let i = 0; i < stageChildren.length; i++) stageChildren[i]!.observe(stageSeconds[i] ?? 0);
    },
    commitBatch(size, waitSeconds, commitSeconds) {
      batchSize.observe(size);
      batchWait.observe(waitSeconds);
      commitTime.observe(commitSeconds);
    },
    writerThread(queuedSeconds, transactionSeconds, batches) {
      threadQueued.observe(queuedSeconds);
      threadTransaction.observe(transactionSeconds);
      groupBatches.observe(batches);
    },
    writerStatement(seconds) {
      threadStatement.observe(seconds);
    },
    checkpoint(seconds) {
      checkpoints.observe(seconds);
    },
  };
  return metrics;
}
