import type { DecisionRecord } from '../decisions/packed-row.ts';
import type { IdentityService } from '../scoring/identity.ts';
import type { SharedState } from '../scoring/shared-state.ts';
import type { HotState } from '../state/hot-state.ts';
import { isPromise } from '../state/hot-state.ts';
import { applyWrites, type HotStateWrite } from '../state/writes.ts';
import type { IdempotencyKeysTable } from '../storage/scoring-schema.ts';
import {
  type Channel,
  isMessage,
  type OpAnswer,
  type OwnerOp,
  type OwnerRequest,
  type OwnerResponse,
  REQUEST,
  RESPONSE,
} from './protocol.ts';

/** What the primary owns for its workers. */
export interface OwnedServices {
  hotState: HotState;
  /** Answers a worker's `observe`: the primary's history counters, nonces, identity graph. */
  shared?: SharedState | undefined;
  /** A decision's outcome writes failed after its commit (the decision stays recorded). */
  onWriteError?: (err: unknown) => void;
  /** The identity graph (embedded default; with PostgreSQL each worker keeps and polls its own). */
  identity?: IdentityService | undefined;
  /** The durable group commit (SQLite file; PostgreSQL takes each worker's commits directly). */
  commit?: ((row: DecisionRecord, key: IdempotencyKeysTable | undefined) => Promise<boolean>) | undefined;
  /** Every process's metrics as one Prometheus text (cluster/cluster-metrics.ts). */
  metrics?: (() => Promise<string>) | undefined;
}

function run(services: OwnedServices, op: OwnerOp): unknown {
  const h = services.hotState;
  switch (op[0]) {
    case 'hit':
      return h.hit(op[1], op[2], op[3]);
    case 'count':
      return h.count(op[1], op[2]);
    case 'distinct':
      return h.distinct(op[1], op[2], op[3]);
    case 'claimOnce':
      return h.claimOnce(op[1], op[2]);
    case 'lock':
      return h.lock(op[1], op[2], op[3]);
    case 'unlock':
      return h.unlock(op[1], op[2]);
    case 'renew':
      return h.renew(op[1], op[2], op[3]);
    case 'rateLimit':
      return h.rateLimit(op[1], op[2], op[3]);
    case 'get':
      return h.get(op[1]);
    case 'set':
      return h.set(op[1], op[2], op[3]);
    case 'del':
      return h.del(op[1]);
    case 'ping':
      return h.ping();
    case 'identity':
      if (!services.identity) throw new Error('identity is not owned by the primary');
      return services.identity.observe(op[1], op[2]);
    case 'clusterOf':
      if (!services.identity) throw new Error('identity is not owned by the primary');
      return services.identity.clusterOf(op[1], op[2], op[3]);
    case 'observe':
      if (!services.shared) throw new Error('scoring state is not owned by the primary');
      return services.shared.observe(op[1]);
    case 'metrics':
      if (!services.metrics) throw new Error('metrics are not gathered by the primary');
      return services.metrics();
    case 'commit':
      return commitAndRemember(services, op[1], op[2] ?? undefined, op[3]);
    default:
      throw new Error(`unknown operation ${String((op as unknown[])[0])}`);
  }
}

/** Commit the decision; once it is recorded, apply its outcome's writes, then answer. */
async function commitAndRemember(
  services: OwnedServices,
  row: DecisionRecord,
  key: IdempotencyKeysTable | undefined,
  writes: readonly HotStateWrite[] | undefined,
): Promise<boolean> {
  if (!services.commit) throw new Error('commits are not owned by the primary');
  const recorded = await services.commit(row, key);
  if (recorded && writes && writes.length > 0) {
    try {
      await applyWrites(services.hotState, writes);
    } catch (err) {
      services.onWriteError?.(err);
    }
  }
  return recorded;
}

const failure = (id: number, index: number, err: unknown): OpAnswer => [
  id,
  index,
  0,
  err instanceof Error ? err.message : String(err),
];

/**
 * Run one request's operations; `reply` takes each answer: at once for an operation that finishes
 * at once (the in-process store answers synchronously), when it settles for one that finishes later
 * (a group commit, an identity update).
 */
export function answer(services: OwnedServices, request: OwnerRequest, reply: (a: OpAnswer) => void): void {
  const { id } = request;
  request.ops.forEach((op, index) => {
    let value: unknown;
    try {
      value = run(services, op);
    } catch (err) {
      reply(failure(id, index, err));
      return;
    }
    if (!isPromise(value)) {
      reply([id, index, 1, value ?? null]);
      return;
    }
    value.then(
      (v) => reply([id, index, 1, v ?? null]),
      (err: unknown) => reply(failure(id, index, err)),
    );
  });
}

/**
 * Serve one worker's requests on `channel`. The answers found in one turn of the event loop, of
 * any of its requests, go back in one response (the decisions of one group commit, an observe
 * that settles in this turn's microtasks together with the operations answered at once).
 */
export function serveOwner(services: OwnedServices, channel: Channel): void {
  let done: OpAnswer[] = [];
  const flush = () => {
    const response: OwnerResponse = { t: RESPONSE, done };
    done = [];
    try {
      channel.send(response);
    } catch {
      // The worker is gone: its requests die with it (nothing it had acknowledged is lost).
    }
  };
  const reply = (a: OpAnswer) => {
    if (done.push(a) === 1) setImmediate(flush);
  };
  channel.onMessage((message) => {
    if (isMessage<OwnerRequest>(message, REQUEST)) answer(services, message, reply);
  });
}
