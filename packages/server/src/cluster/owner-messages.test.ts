// A `serve --workers` worker in this process, wired to a primary's owner over the in-process
// channel (testing/owner-pair.ts): how many messages one scored event sends to the primary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { createFastify } from '../http/app.ts';
import { scoringApi } from '../http/routes/scoring.ts';
import { productionScoringServices } from '../http/routes/scoring-area.ts';
import type { App } from '../http/types.ts';
import { MINUTE } from '../scoring/history-keys.ts';
import { LocalSharedState, type StateQuery } from '../scoring/shared-state.ts';
import { localStateDeps, withServices } from '../services.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/accounts.ts';
import { createTestContext } from '../testing/context.ts';
import { ownerPair } from '../testing/owner-pair.ts';
import { browserHeaders, serverHeaders } from '../testing/scoring-app.ts';
import { IpcHotState } from './ipc-hot-state.ts';
import type { OwnedServices } from './owner.ts';
import type { OwnerClient } from './owner-client.ts';
import { OwnerSharedState } from './owner-shared-state.ts';
import { ownerIdentity } from './worker.ts';

/** A primary (its own context) and one worker's scoring routes on it, sharing the database. */
async function workerOnPrimary(env: Record<string, string>) {
  // A clock that stands still: every request falls in the same rate-limit window.
  const frozen = Date.parse('2026-01-01T00:00:00.250Z');
  const primary = await createTestContext({ env, now: () => frozen });
  const queries: StateQuery[] = [];
  const commits: number[] = [];
  const shared = new LocalSharedState(localStateDeps(primary), primary.services.identity);
  const services: OwnedServices = {
    hotState: primary.hotState,
    shared: {
      observe: (q) => {
        queries.push(q);
        return shared.observe(q);
      },
      prepare: () => shared.prepare(),
    },
    identity: primary.services.identity,
    commit: (row, key) => {
      commits.push(1);
      return primary.services.decisions.writer.write(row, key);
    },
  };
  const { client, close } = ownerPair(services);
  const { services: _own, ...base } = primary;
  const worker: AppContext = withServices(
    {
      ...base,
      hotState: new IpcHotState(client, primary.hotState.remembersSince),
      worker: {
        identity: ownerIdentity(client),
        commit: (row, key, writes) => client.call(['commit', row, key ?? null, writes ?? []]),
        sharedState: () => new OwnerSharedState(client),
      },
    },
    { ipIntel: primary.services.ipIntel },
  );
  const app = createFastify(worker);
  await app.register(async (scope) => scoringApi(scope, worker, productionScoringServices(worker)));
  await app.ready();
  return {
    app,
    primary,
    client,
    queries,
    commits,
    async close() {
      await app.close();
      close();
      await primary.hotState.close();
      await primary.database.close();
    },
  };
}

describe('a serve --workers worker scoring one event', () => {
  let w: Awaited<ReturnType<typeof workerOnPrimary>>;
  let site: TestWorkspace;
  beforeAll(async () => {
    w = await workerOnPrimary({ WARDEN_RATE_SERVER_PER_SECOND: '2', WARDEN_RATE_BROWSER_PER_SECOND: '5' });
    site = await createTestWorkspace(w.primary, { demo: true });
  });
  afterAll(() => w.close());

  /** Requests sent to the primary while `send` runs. */
  async function messagesOf<T>(send: () => Promise<T>): Promise<{ answer: T; messages: number }> {
    const before = (w.client as OwnerClient).sent;
    const answer = await send();
    return { answer, messages: w.client.sent - before };
  }

  const verify = (app: App, account: string) =>
    app.inject({
      method: 'POST',
      url: '/api/antibot/verify',
      headers: serverHeaders(site.site),
      payload: { context: { event_type: 'login', account_id: account, ip_address: '203.0.113.9' } },
    });

  it('reaches the primary in two messages for a plain /verify: observe (with the rate limit), then commit', async () => {
    const { answer, messages } = await messagesOf(() => verify(w.app, 'acct_one'));
    expect(answer.statusCode).toBe(201);
    expect(answer.headers['ratelimit-remaining']).toBe('1');
    expect(messages).toBe(2);
    expect(w.queries.at(-1)).toMatchObject({ identity: true, limit: [expect.any(String), 2, 1000] });
    expect(w.commits).toHaveLength(1);
    // Counted on the primary, once.
    expect(w.primary.hotState.count(`vel:${site.site.id}:acct:acct_one`, MINUTE)).toBe(1);
  });

  it('one more for a /collect answered with a challenge: the challenge counts its issues on the primary', async () => {
    const { answer, messages } = await messagesOf(() =>
      w.app.inject({
        method: 'POST',
        url: '/api/antibot/collect',
        headers: browserHeaders(site.site.siteKey),
        payload: { context: { event_type: 'signup', account_id: 'acct_b' } },
      }),
    );
    expect(answer.statusCode).toBe(201);
    // No evidence at all: the browser is asked for a proof of work.
    expect(answer.json().data.action).toBe('challenge');
    expect(messages).toBe(3);
  });

  it('refuses over the rate limit in one message, counting nothing', async () => {
    await verify(w.app, 'acct_two');
    const { answer, messages } = await messagesOf(() => verify(w.app, 'acct_three'));
    expect(answer.statusCode).toBe(429);
    expect(answer.json().error.code).toBe('rate_limited');
    expect(answer.headers['retry-after']).toBe('1');
    expect(messages).toBe(1);
    expect(w.primary.hotState.count(`vel:${site.site.id}:acct:acct_three`, MINUTE)).toBe(0);
  });
});
