import type { IdentityService } from '../scoring/identity.ts';
import type { SharedState, StateAnswer, StateQuery } from '../scoring/shared-state.ts';
import type { OwnerClient } from './owner-client.ts';

/**
 * A `serve --workers N` worker's shared state: each event's query is one `observe` operation on
 * the primary (cluster/owner.ts), which runs it on its own LocalSharedState, so counters, nonces,
 * rate limits and identity clusters are exactly those of one process.
 */
export class OwnerSharedState implements SharedState {
  constructor(
    private readonly owner: OwnerClient,
    /**
     * The identity graph when the primary keeps none (PostgreSQL: every process keeps its own and
     * reads the others' rows); its update runs here, beside the query.
     */
    private readonly ownIdentity?: IdentityService,
  ) {}

  observe(q: StateQuery): Promise<StateAnswer> {
    const identity = this.ownIdentity;
    if (!q.identity || !identity) return this.owner.call(['observe', q]);
    return this.owner.call<StateAnswer>(['observe', { ...q, identity: false }]).then(async (answer) => {
      if (answer.admitted && !answer.admitted.allowed) return answer;
      const c = q.counters;
      const summary = await identity.observe(q.siteId, {
        accountId: c.accountId,
        deviceId: c.deviceId,
        paymentHash: c.paymentHash,
        ip: c.ip,
        at: q.now,
      });
      return { ...answer, identity: summary };
    });
  }

  /** The primary rebuilds its counters itself (cluster/primary.ts). */
  async prepare(): Promise<void> {}
}
