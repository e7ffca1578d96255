/**
 * The messages between a `serve --workers N` worker and the primary that owns the shared state
 * (docs/architecture.md, "Using more cores"). A worker batches every operation it issues in one
 * turn of its event loop into one request; the primary sends the answers it has in one turn of its
 * own event loop (of one request or several: the operations that finish at once, the decisions of
 * one group commit) in one response. Messages go over Node's cluster IPC channel with the
 * "advanced" (structured clone) serialization, or over an in-process channel in tests.
 */

import type { DecisionRecord } from '../decisions/packed-row.ts';
import type { IdentityEvent } from '../scoring/identity-graph.ts';
import type { StateQuery } from '../scoring/shared-state.ts';
import type { HotStateWrite } from '../state/writes.ts';
import type { IdempotencyKeysTable } from '../storage/scoring-schema.ts';

/**
 * One operation on what the primary owns: a hot-state call, an identity call, or one of the two
 * coarse operations of a scored event: `observe` (its whole shared state in one query,
 * scoring/shared-state.ts) and `commit` (the decision, then the hot-state writes of its outcome).
 * A plain /verify or /collect is one `observe` and one `commit` (docs/architecture.md). `metrics`:
 * the whole server's Prometheus text, for the worker that took a `/metrics` scrape.
 */
export type OwnerOp =
  | ['hit', string, number, number]
  | ['count', string, number]
  | ['distinct', string, string | null, number]
  | ['claimOnce', string, number]
  | ['lock', string, string, number]
  | ['unlock', string, string]
  | ['renew', string, string, number]
  | ['rateLimit', string, number, number]
  | ['get', string]
  | ['set', string, string, number]
  | ['del', string]
  | ['ping']
  | ['metrics']
  | ['identity', string, IdentityEvent]
  | ['clusterOf', string, readonly string[], number]
  | ['observe', StateQuery]
  | ['commit', DecisionRecord, IdempotencyKeysTable | null, readonly HotStateWrite[]];

export const REQUEST = 'warden.owner.req';
export const RESPONSE = 'warden.owner.res';
/** Primary → worker: every start-up step of the primary settled (`failed` names one that failed). */
export const READY = 'warden.owner.ready';

/**
 * Worker → primary: a site or workspace change this worker committed; primary → worker: one that
 * another worker (or the primary) committed. The receiver forgets its remembered site lookups.
 */
export const SITE_CHANGED = 'warden.site.changed';

/** Worker → primary: this worker could not start (`message`: the line to print); it then exits. */
export const START_FAILED = 'warden.worker.start-failed';

export interface StartFailedMessage {
  t: typeof START_FAILED;
  message: string;
}

export interface SiteChangedMessage {
  t: typeof SITE_CHANGED;
}

export interface OwnerRequest {
  t: typeof REQUEST;
  id: number;
  ops: OwnerOp[];
}

/**
 * An operation's answer: [request id, index in the request, 1 and its value | 0 and an error
 * message].
 */
export type OpAnswer = [number, number, 1, unknown] | [number, number, 0, string];

/** The answers the primary found in one turn of its event loop, of any of the worker's requests. */
export interface OwnerResponse {
  t: typeof RESPONSE;
  done: OpAnswer[];
}

export interface ReadyMessage {
  t: typeof READY;
  failed?: string;
}

/** Either end of a message channel (a cluster worker, the worker's process, a test pair). */
export interface Channel {
  send(message: unknown): void;
  onMessage(handler: (message: unknown) => void): void;
}

export function isMessage<T extends { t: string }>(message: unknown, t: T['t']): message is T {
  return typeof message === 'object' && message !== null && (message as { t?: unknown }).t === t;
}
