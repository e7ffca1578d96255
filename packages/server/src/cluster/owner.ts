import type { IdentityService } from '../scoring/identity.ts';
import type { SharedState } from '../scoring/shared-state.ts';
import type { HotState } from '../state/hot-state.ts';
import { isPromise } from '../state/hot-state.ts';
import { applyWrites, type HotStateWrite } from '../state/writes.ts';
import type { DecisionsTable, IdempotencyKeysTable } from '../storage/scoring-schema.ts';
import {
  type Channel,
  isMessage,
  type OpOutcome,
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
  commit?: ((row: DecisionsTable, key: IdempotencyKeysTable | undefined) => Promise<boolean>) | undefined;
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
    case 'commit':
      return commitAndRemember(services, op[1], op[2] ?? undefined, op[3]);
    default:
      throw new Error(`unknown operation ${String((op as unknown[])[0])}`);
  }
}

/** Commit the decision; once it is recorded, apply its outcome's writes, then answer. */
async function commitAndRemember(
  services: OwnedServices,
  row: DecisionsTable,
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

const failure = (index: number, err: unknown): OpOutcome => [
  index,
  0,
  err instanceof Error ? err.message : String(err),
];

/**
 * Answer one request: the operations that finish at once (the in-process store answers
 * synchronously, its locks and rate limits within the same turn) in one response, each operation
 * that finishes later (a group commit) in its own.
 */
export function answer(
  services: OwnedServices,
  request: OwnerRequest,
  reply: (r: OwnerResponse) => void,
): void {
  const done: OpOutcome[] = [];
  let later = 0;
  let sent = false;
  request.ops.forEach((op, index) => {
    let value: unknown;
    try {
      value = run(services, op);
    } catch (err) {
      done.push(failure(index, err));
      return;
    }
    if (!isPromise(value)) {
      done.push([index, 1, value ?? null]);
      return;
    }
    later++;
    value.then(
      (v) => settled([index, 1, v ?? null]),
      (err: unknown) => settled(failure(index, err)),
    );
  });
  function settled(outcome: OpOutcome): void {
    later--;
    if (sent) reply({ t: RESPONSE, id: request.id, done: [outcome] });
    else done.push(outcome);
  }
  if (later === 0) {
    sent = true;
    reply({ t: RESPONSE, id: request.id, done });
    return;
  }
  // Promises of the in-process store settle in this turn's microtasks: answer them together.
  setImmediate(() => {
    sent = true;
    if (done.length > 0) reply({ t: RESPONSE, id: request.id, done });
  });
}

/** Serve one worker's requests on `channel`. */
export function serveOwner(services: OwnedServices, channel: Channel): void {
  channel.onMessage((message) => {
    if (!isMessage<OwnerRequest>(message, REQUEST)) return;
    answer(services, message, (response) => {
      try {
        channel.send(response);
      } catch {
        // The worker is gone: its requests die with it (nothing it had acknowledged is lost).
      }
    });
  });
}
