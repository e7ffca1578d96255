import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { dispatcherDeps } from '../services.ts';
import { createTestContext, testDialects } from '../testing/context.ts';
import { WebhookDispatcher } from './dispatcher.ts';
import {
  configureWebhook,
  createSite,
  decisionRow,
  type LocalReceiver,
  startReceiver,
  waitFor,
} from './test-fixtures.ts';

const UNSAFE = { WARDEN_UNSAFE_WEBHOOK_TARGETS: '1', WARDEN_WEBHOOK_BACKOFF_BASE_S: '0.05' };
const where = [...testDialects().map((d) => ({ dialect: d })), { sqliteFile: true as const }];

describe.each(where)('hand-off of committed deliveries to this process’s dispatcher (%o)', (options) => {
  let ctx: AppContext;
  let receiver: LocalReceiver;
  const held: ServerResponse[] = [];
  afterEach(async () => {
    for (const res of held.splice(0)) res.writeHead(200).end();
    await receiver.close();
    await ctx.database.close();
  });

  it('writes the delivery leased to the running dispatcher and sends it without a claim', async () => {
    ctx = await createTestContext({ ...options, env: UNSAFE });
    receiver = await startReceiver((_req, res) => void held.push(res));
    const site = await createSite(ctx.database, 'pro');
    await configureWebhook(ctx.database, site.siteId, receiver.url);
    // The loop claims once at start, then would sleep a minute: only the hand-off can send now.
    const d = new WebhookDispatcher(dispatcherDeps(ctx), { pollIntervalMs: 60_000, timeoutMs: 5_000 });
    d.start();
    await d.started;
    try {
      const decision = decisionRow(site);
      await ctx.services.decisions.record(decision);
      // Leased from its insert on, in the decision's own commit (no claim made it so).
      const committed = await ctx.database.db
        .selectFrom('webhook_deliveries')
        .select(['lease_owner'])
        .executeTakeFirstOrThrow();
      expect(committed.lease_owner).toBe(d.workerId);
      await waitFor(() => receiver.requests.length === 1);
      // Sent while its row is still pending, leased to this dispatcher (a crash now: the lease lapses
      // and any worker claims it again).
      const row = await ctx.database.db
        .selectFrom('webhook_deliveries')
        .select(['id', 'status', 'lease_owner', 'attempts'])
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'pending', lease_owner: d.workerId, attempts: 0 });
      expect(receiver.requests[0]?.headers['service-delivery']).toBe(row.id);
      for (const res of held.splice(0)) res.writeHead(200).end();
      const done = await waitFor(async () => {
        const r = await ctx.database.db
          .selectFrom('webhook_deliveries')
          .select(['status', 'lease_owner', 'attempts'])
          .executeTakeFirstOrThrow();
        return r.status === 'succeeded' ? r : undefined;
      });
      expect(done).toEqual({ status: 'succeeded', lease_owner: null, attempts: 1 });
    } finally {
      await d.stop();
    }
  });

  it('writes deliveries unleased when no dispatcher runs here, and after it stopped', async () => {
    ctx = await createTestContext({ ...options, env: UNSAFE });
    receiver = await startReceiver();
    const site = await createSite(ctx.database, 'pro');
    await configureWebhook(ctx.database, site.siteId, receiver.url);
    await ctx.services.decisions.record(decisionRow(site));
    const d = new WebhookDispatcher(dispatcherDeps(ctx), { pollIntervalMs: 60_000 });
    d.start();
    await d.started;
    await d.stop();
    await ctx.services.decisions.record(decisionRow(site));
    const rows = await ctx.database.db.selectFrom('webhook_deliveries').select(['lease_owner']).execute();
    expect(rows.filter((r) => r.lease_owner !== null)).toEqual([]);
  });
});
