import { BehaviorRecorder } from './behavior/recorder.ts';
import { collectEnvironment, collectFingerprint } from './collect/index.ts';
import { postJson } from './http.ts';
import { SolverPool } from './pow/pool.ts';
import type {
  BehaviorEvidence,
  ChallengeDescriptor,
  ChallengeVerification,
  Decision,
  EnvironmentEvidence,
  EventContext,
  FingerprintEvidence,
  FingerprintResult,
  Solution,
  SolveOptions,
  SolveProgress,
  WorkerEvidence,
} from './types.ts';
import { randomHex } from './util/hash.ts';
import { type Meter, newMeter, round1, safe } from './util/safe.ts';

export interface LoadOptions {
  /** The site's public key. */
  siteKey: string;
  /** Base address of the Warden service; defaults to the origin the SDK was loaded from. */
  endpoint?: string;
  /** Proof-of-work workers; default from hardwareConcurrency and deviceMemory. */
  workers?: number;
  /** Solve challenges named by decisions in the background as soon as they are known (default true). */
  autoSolve?: boolean;
}

export type CollectContext = EventContext & { idempotency_key?: string; username?: string };

const SCRIPT_ORIGIN = safe(() => new URL((document.currentScript as HTMLScriptElement).src).origin);
/**
 * Scoring calls this soon after load wait for the worker's view of the environment (a script that
 * submits at once must not skip the page/worker comparison); later ones wait at most 25 ms.
 */
const WORKER_GRACE_MS = 1000;
/** Re-register the fingerprint this long before the token expires. */
const TOKEN_MARGIN_MS = 60_000;

interface Solving {
  promise: Promise<Solution>;
  listeners: Set<(p: SolveProgress) => void>;
  controller: AbortController;
}

export class WardenClient {
  readonly endpoint: string;
  readonly siteKey: string;
  private readonly recorder = new BehaviorRecorder();
  private readonly pool: SolverPool;
  private readonly evidence: Promise<FingerprintEvidence>;
  private readonly meter: Meter = newMeter();
  private readonly loadedAt = performance.now();
  private workerView: Promise<WorkerEvidence | undefined> | undefined;
  private registration: Promise<FingerprintResult> | undefined;
  private registeredUntil = 0;
  private readonly solving = new Map<string, Solving>();
  private proof: { challenge_id: string; nonce: number } | undefined;

  constructor(private readonly options: LoadOptions) {
    if (!options.siteKey) throw new Error('Warden.load: siteKey is required');
    this.siteKey = options.siteKey;
    this.endpoint = (options.endpoint ?? SCRIPT_ORIGIN ?? location.origin).replace(/\/+$/, '');
    this.pool = new SolverPool(`${this.endpoint}/sdk/v1/warden-worker.js`);
    this.recorder.start();
    this.evidence = collectFingerprint(this.meter);
    // The worker starts once the fingerprint is in, so that it does not compete with it for the CPU.
    const probe = this.evidence.then(
      () => this.pool.probe(),
      () => this.pool.probe(),
    );
    this.workerView = probe.then(
      (p) => {
        this.meter.timings.worker = round1(performance.now() - this.loadedAt);
        return p?.worker;
      },
      () => undefined,
    );
  }

  private url(path: string): string {
    return `${this.endpoint}/api/antibot${path}`;
  }

  private environment(): Promise<EnvironmentEvidence> {
    const wait = Math.max(25, this.loadedAt + WORKER_GRACE_MS - performance.now());
    return collectEnvironment(this.workerView, wait);
  }

  /** Registers the device evidence; the token is cached until shortly before it expires. */
  fingerprint(): Promise<FingerprintResult> {
    if (!this.registration || Date.now() > this.registeredUntil) {
      this.registeredUntil = Number.POSITIVE_INFINITY;
      this.registration = this.evidence.then((fingerprint) =>
        postJson<FingerprintResult>(this.url('/fingerprint'), this.siteKey, {
          fingerprint,
          behavior: this.recorder.snapshot(),
        }),
      );
      this.registration.then(
        (r) => {
          const expires = r.expires_at ? Date.parse(r.expires_at) : Date.now() + 10 * 60_000;
          this.registeredUntil = expires - TOKEN_MARGIN_MS;
        },
        () => {
          this.registeredUntil = 0;
        },
      );
    }
    return this.registration;
  }

  /**
   * The evidence the next call would send (for debugging and tests), and the time each collector
   * took (`timings`, ms; not sent).
   */
  async inspect(): Promise<{
    fingerprint: FingerprintEvidence;
    behavior: BehaviorEvidence;
    environment: EnvironmentEvidence;
    timings: Record<string, number>;
  }> {
    const fingerprint = await this.evidence;
    return {
      fingerprint,
      behavior: this.recorder.snapshot(),
      environment: await this.environment(),
      timings: { ...this.meter.timings },
    };
  }

  /** Scores an event: POST /collect with the token, evidence, behaviour and environment. */
  async collect(context: CollectContext): Promise<Decision> {
    const { idempotency_key, username, ...ctx } = context;
    const [fingerprint, token] = await Promise.all([
      this.evidence,
      this.fingerprint().then(
        (r) => r.token,
        () => undefined,
      ),
    ]);
    const environment = await this.environment();
    if (this.proof) {
      environment.pow = this.proof;
      this.proof = undefined;
    }
    const body = {
      context: { request_url: location.href.slice(0, 4096), ...ctx },
      ...(token ? { token } : {}),
      fingerprint,
      behavior: this.recorder.snapshot(),
      environment,
      ...(username ? { username } : {}),
      idempotency_key: idempotency_key ?? `wd_${randomHex(16)}`,
    };
    const decision = await postJson<Decision>(this.url('/collect'), this.siteKey, body);
    if (decision.challenge && this.options.autoSolve !== false) {
      this.solveChallenge(decision.challenge).catch(() => undefined);
    }
    return decision;
  }

  /** Asks for a proof-of-work challenge and starts solving it in the background. */
  async challenge(difficulty?: number | 'low' | 'medium' | 'high'): Promise<ChallengeDescriptor> {
    const d = await postJson<ChallengeDescriptor>(
      this.url('/challenge'),
      this.siteKey,
      difficulty === undefined ? {} : { difficulty },
    );
    if (this.options.autoSolve !== false) this.solveChallenge(d).catch(() => undefined);
    return d;
  }

  /**
   * Solves an ALTCHA v1 descriptor in the worker pool. A solve already running for the same
   * challenge is joined. Aborting the signal cancels the solve. The proof is attached to the
   * next `collect()` as `environment.pow`.
   */
  solveChallenge(d: ChallengeDescriptor, options: SolveOptions = {}): Promise<Solution> {
    let entry = this.solving.get(d.challenge_id);
    if (!entry) {
      const listeners = new Set<(p: SolveProgress) => void>();
      const controller = new AbortController();
      const promise = this.pool.solve(d, {
        signal: controller.signal,
        ...((options.workers ?? this.options.workers)
          ? { workers: options.workers ?? this.options.workers }
          : {}),
        onProgress: (p) => {
          for (const l of listeners) l(p);
        },
      });
      entry = { promise, listeners, controller };
      const e = entry;
      this.solving.set(d.challenge_id, e);
      promise.then(
        (s) => {
          this.proof = { challenge_id: s.challenge_id, nonce: s.nonce };
        },
        () => this.solving.delete(d.challenge_id),
      );
    }
    const { onProgress, signal } = options;
    if (onProgress) entry.listeners.add(onProgress);
    if (signal) {
      const controller = entry.controller;
      if (signal.aborted) controller.abort();
      else signal.addEventListener('abort', () => controller.abort(), { once: true });
    }
    return entry.promise;
  }

  /** Checks a solution with the service (the proof is consumed; `collect` then needs a new one). */
  async verifyChallenge(solution: Pick<Solution, 'challenge_id' | 'nonce'>): Promise<ChallengeVerification> {
    if (this.proof?.challenge_id === solution.challenge_id) this.proof = undefined;
    return postJson<ChallengeVerification>(this.url('/challenge/verify'), this.siteKey, {
      challenge_id: solution.challenge_id,
      nonce: solution.nonce,
    });
  }

  /** Stops listeners and workers. */
  destroy(): void {
    this.recorder.stop();
    this.pool.terminate();
    for (const s of this.solving.values()) s.controller.abort();
  }
}
