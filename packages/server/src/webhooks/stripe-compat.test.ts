import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createWebhookReceiver,
  MemoryWebhookStore,
  nodeHttpHandler,
  verifyWebhookSignature,
} from '@warden/node';
import type { DecisionCreatedEvent } from '@warden/protocol';
import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { dispatcherDeps } from '../services.ts';
import { createTestContext } from '../testing/context.ts';
import { WebhookDispatcher } from './dispatcher.ts';
import {
  configureWebhook,
  createSite,
  decisionRow,
  type LocalReceiver,
  startReceiver,
} from './test-fixtures.ts';

describe('real deliveries against independent verifiers', () => {
  let ctx: AppContext;
  let receiver: LocalReceiver;
  beforeEach(async () => {
    ctx = await createTestContext({ env: { WARDEN_UNSAFE_WEBHOOK_TARGETS: '1' } });
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await receiver.close();
    await ctx.database.close();
  });

  it("stripe's Webhooks.constructEvent accepts a captured delivery", async () => {
    const site = await createSite(ctx.database, 'pro');
    const secret = await configureWebhook(ctx.database, site.siteId, receiver.url);
    const decision = decisionRow(site);
    await ctx.services.decisions.record(decision);
    await new WebhookDispatcher(dispatcherDeps(ctx)).runOnce();
    const captured = receiver.requests[0]!;
    const header = String(captured.headers['service-signature']);
    const event = Stripe.webhooks.constructEvent(
      captured.body,
      header,
      secret,
    ) as unknown as DecisionCreatedEvent;
    expect(event.type).toBe('decision.created');
    expect(event.data.id).toBe(decision.id);
    expect(event.id).toBe(captured.headers['service-delivery']);
    // Tampering or the wrong secret is refused by Stripe's verifier too.
    expect(() => Stripe.webhooks.constructEvent(`${captured.body} `, header, secret)).toThrow();
    expect(() => Stripe.webhooks.constructEvent(captured.body, header, 'whsec_wrong')).toThrow();
    expect(verifyWebhookSignature(captured.body, header, secret).valid).toBe(true);
  });

  it('the @warden/node reference receiver accepts a real delivery (202) and its retry (200)', async () => {
    const site = await createSite(ctx.database, 'pro');
    const store = new MemoryWebhookStore();
    const statuses: number[] = [];
    let handler: ReturnType<typeof nodeHttpHandler> | null = null;
    const server = http.createServer((req, res) => {
      res.on('finish', () => statuses.push(res.statusCode));
      handler!(req, res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/warden`;
    const secret = await configureWebhook(ctx.database, site.siteId, url);
    handler = nodeHttpHandler(createWebhookReceiver({ secret, store, process: async () => undefined }));
    const decision = decisionRow(site);
    await ctx.services.decisions.record(decision);
    const dispatcher = new WebhookDispatcher(dispatcherDeps(ctx));
    await dispatcher.runOnce();
    // A lost acknowledgement: the same delivery arrives again and is recognised as a duplicate.
    await ctx.database.db
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', next_attempt_at: 0 })
      .execute();
    await dispatcher.runOnce();
    await dispatcher.stop();
    server.closeAllConnections();
    server.close();
    expect(statuses).toEqual([202, 200]);
    expect(store.rows.size).toBe(1);
    expect([...store.rows.values()][0]!.decisionId).toBe(decision.id);
  });
});
